import { defineSweep } from '../queue.js';

/**
 * The sweeps of the core's own records (handlers: jobs/maintenance.ts). Each domain declares the
 * sweeps of its own records in its module (src/<domain>/jobs.ts); the maintenance group runs them all.
 */
/** Idempotency-Key records past their expiry (src/http/idempotency). */
export const SweepIdempotencyRecords = defineSweep('maintenance.sweep-idempotency-records');
/** Events a process left on their documents (or delete intents) when it stopped between write and record (src/events). */
export const SettleEvents = defineSweep('maintenance.settle-events');

export const maintenanceJobs = [SweepIdempotencyRecords, SettleEvents];
