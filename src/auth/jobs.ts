import { defineSweep } from '../job.js';
import { sweepExpiredCredentials } from './service.js';

/** Merchants' expired sessions, sign-in codes and password reset tokens. */
export const SweepExpiredCredentials = defineSweep('maintenance.sweep-expired-credentials', sweepExpiredCredentials);

export const authJobs = [SweepExpiredCredentials];
