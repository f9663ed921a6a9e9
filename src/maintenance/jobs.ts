import { sweepExpiredIdempotencyRecords } from '../http/idempotency/index.js';
import { defineSweep } from '../job.js';

/**
 * The sweeps of the core's own records. Each domain declares the sweeps of its own records in its
 * module (src/<domain>/jobs.ts); the maintenance group runs them all.
 */
/** Idempotency-Key records past their expiry (src/http/idempotency). */
export const SweepIdempotencyRecords = defineSweep('maintenance.sweep-idempotency-records', sweepExpiredIdempotencyRecords);
/** Events a process left on their documents (or delete intents) when it stopped between write and record (docs/events.md, "Every committed change, once"). */
export const SettleEvents = defineSweep('maintenance.settle-events', (platform) =>
  platform.events.settleLeftBehind(new Date(platform.clock.now().getTime() - platform.config.events.settleAfterMs)),
);

export const maintenanceJobs = [SweepIdempotencyRecords, SettleEvents];
