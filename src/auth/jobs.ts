import { defineSweep } from '../queue.js';

/** Merchants' expired sessions, sign-in codes and password reset tokens. (handler: jobs/auth.ts) */
export const SweepExpiredCredentials = defineSweep('maintenance.sweep-expired-credentials');

export const authJobs = [SweepExpiredCredentials];
