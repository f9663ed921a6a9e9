import { defineSweep } from '../queue.js';

/** The operations domain's jobs (handlers: jobs/sweeps.ts). Job names are a public contract: never rename them. */
/** Deletes process rows whose last beat is older than PROCESS_ROWS_KEPT_DAYS (docs/operations.md, Processes). */
export const SweepProcesses = defineSweep('maintenance.sweep-processes');

export const operationsJobs = [SweepProcesses];
