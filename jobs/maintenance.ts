import { SWEEPS } from '../src/maintenance/index.js';
import type { JobHandlers } from './types.js';

/** One handler per sweep: the number of records it removed or re-enqueued. */
export const maintenanceHandlers: JobHandlers = Object.fromEntries(
  Object.entries(SWEEPS).map(([name, sweep]) => [name, async (platform) => ({ affected: await sweep(platform) })]),
);
