import { sweepExpiredIdempotencyRecords } from '../src/http/idempotency/index.js';
import { SettleEvents, SweepIdempotencyRecords } from '../src/maintenance/index.js';
import { bindSweep } from './types.js';

/** The core's sweeps: expired Idempotency-Key records, and events a process left pending (docs/events.md, "Every committed change, once"). */
export const maintenanceHandlers = [
  bindSweep(SweepIdempotencyRecords, sweepExpiredIdempotencyRecords),
  bindSweep(SettleEvents, (platform) => platform.events.settleLeftBehind(new Date(platform.clock.now().getTime() - platform.config.events.settleAfterMs))),
];
