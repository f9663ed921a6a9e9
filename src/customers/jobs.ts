import { defineSweep } from '../job.js';
import { sweepExpiredCustomerCredentials } from './account.js';

/** Storefront customers' expired sessions, password reset and activation tokens. */
export const SweepCustomerCredentials = defineSweep('maintenance.sweep-customer-credentials', sweepExpiredCustomerCredentials);

export const customersJobs = [SweepCustomerCredentials];
