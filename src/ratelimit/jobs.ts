import { defineSweep } from '../queue.js';

/** Rate-limit windows past their end, and budget accounts idle since their buckets were full again. (handler: jobs/sweeps.ts) */
export const SweepRateLimits = defineSweep('maintenance.sweep-rate-limits');

export const ratelimitJobs = [SweepRateLimits];
