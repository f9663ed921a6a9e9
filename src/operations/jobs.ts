import { defineJob, defineSweep, NoPayload } from '../queue.js';

/** The operations domain's jobs (handlers: jobs/sweeps.ts, jobs/maintenance.ts). Job names are a public contract: never rename them. */
/** Deletes process rows whose last beat is older than PROCESS_ROWS_KEPT_DAYS (docs/operations.md, Processes). */
export const SweepProcesses = defineSweep('maintenance.sweep-processes');
/** Deletes runtime counters past their keeping (docs/operations.md, Counters and dashboards). */
export const SweepCounters = defineSweep('maintenance.sweep-counters');
/** Measures the incident rules, opening and resolving incidents (docs/operations.md, Incidents). */
export const EvaluateIncidents = defineJob({
  name: 'maintenance.evaluate-incidents',
  group: 'maintenance',
  concurrency: 1,
  payload: NoPayload,
  every: (config) => config.operations.incidentEvaluationMs,
});

export const operationsJobs = [SweepProcesses, SweepCounters, EvaluateIncidents];
