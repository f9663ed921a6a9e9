import { SWEEPS, type SweepName } from '../src/maintenance/index.js';
import type { JobHandler } from './types.js';

/** One recurring job per sweep, so a failing sweep never holds up the others. */
export const maintenanceSweepJobs: JobHandler[] = (Object.keys(SWEEPS) as SweepName[]).map((name) => ({
  name,
  concurrency: 1,
  everyMs: (platform) => platform.config.jobs.sweepIntervalMs,
  async handle(platform) {
    return { affected: await SWEEPS[name](platform) };
  },
}));
