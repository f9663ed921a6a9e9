import { defineSweep } from '../queue.js';

/** Storefront customers' expired sessions, password reset and activation tokens. (handler: jobs/customers.ts) */
export const SweepCustomerCredentials = defineSweep('maintenance.sweep-customer-credentials');

export const customersJobs = [SweepCustomerCredentials];
