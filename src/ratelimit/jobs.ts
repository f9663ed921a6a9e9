import { defineSweep } from '../queue.js';

/** Rate-limit windows past their end. (handler: jobs/ratelimit.ts) */
export const SweepRateLimits = defineSweep('maintenance.sweep-rate-limits');

export const ratelimitJobs = [SweepRateLimits];
