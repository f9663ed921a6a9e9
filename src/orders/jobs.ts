import { defineSweep } from '../job.js';
import { repairOrders } from './changes.js';

/** Finishes (or undoes) order changes whose process stopped between two writes (docs/orders.md, "Changes that span documents"). */
export const RepairOrders = defineSweep('maintenance.repair-orders', repairOrders);

export const ordersJobs = [RepairOrders];
