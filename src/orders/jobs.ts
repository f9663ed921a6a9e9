import { defineSweep } from '../queue.js';

/** Finishes (or undoes) order changes whose process stopped between two writes (docs/orders.md, "Changes that span documents"). (handler: jobs/orders.ts) */
export const RepairOrders = defineSweep('maintenance.repair-orders');

export const ordersJobs = [RepairOrders];
