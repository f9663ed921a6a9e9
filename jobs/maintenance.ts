import { sweepExpiredIdempotencyRecords } from '../src/http/idempotency/index.js';
import { SettleEvents, SweepIdempotencyRecords } from '../src/maintenance/index.js';
import { MODULES } from '../src/modules.js';
import { EvaluateIncidents, evaluateIncidents } from '../src/operations/index.js';
import { bindJob, bindSweep } from './types.js';

/** The core's sweeps: expired Idempotency-Key records, and events a process left pending (docs/events.md, "Every committed change, once"). */
export const maintenanceHandlers = [
  bindSweep(SweepIdempotencyRecords, sweepExpiredIdempotencyRecords),
  bindSweep(SettleEvents, (platform) => platform.events.settleLeftBehind(new Date(platform.clock.now().getTime() - platform.config.events.settleAfterMs))),
  // The operators' incident rules (src/operations/incidents.ts): counted as found nothing when nothing opened or resolved.
  bindJob(EvaluateIncidents, (platform) => evaluateIncidents(platform, MODULES)),
];
