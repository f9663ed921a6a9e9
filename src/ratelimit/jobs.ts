import { defineSweep } from '../job.js';
import { sweepExpiredRateLimits } from './service.js';

/** Rate-limit windows past their end, and budget accounts idle since their buckets were full again. */
export const SweepRateLimits = defineSweep('maintenance.sweep-rate-limits', sweepExpiredRateLimits);

export const ratelimitJobs = [SweepRateLimits];
