import type { JobContract } from '../module.js';
import { SWEEPS, type SweepName } from './service.js';

/**
 * One recurring job per sweep, named after it (`maintenance.sweep-…`), so a failing sweep never
 * holds up the others; the maintenance group runs them at MAINTENANCE_SWEEP_INTERVAL_MS
 * (handlers: jobs/maintenance.ts).
 */
export const maintenanceJobs: readonly JobContract[] = (Object.keys(SWEEPS) as SweepName[]).map((name) => ({
  name,
  group: 'maintenance',
  concurrency: 1,
  everyMs: (platform) => platform.config.jobs.sweepIntervalMs,
}));
