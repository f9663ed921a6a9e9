import { sweepCounters } from '../counters/index.js';
import { defineJob, defineSweep, NoPayload } from '../job.js';
import type { Module } from '../module.js';
import { sweepProcesses } from './heartbeat.js';
import { evaluateIncidents } from './incidents.js';

/** The operations domain's jobs. Job names are a public contract: never rename them. */
/** Deletes process rows whose last beat is older than PROCESS_ROWS_KEPT_DAYS (docs/operations.md, Processes). */
export const SweepProcesses = defineSweep('maintenance.sweep-processes', sweepProcesses);
/** Deletes runtime counters past their keeping (docs/operations.md, Counters and dashboards). */
export const SweepCounters = defineSweep('maintenance.sweep-counters', sweepCounters);
/**
 * Measures the incident rules, opening and resolving incidents (docs/operations.md, Incidents).
 * The rules read every module's figures: the operations module is given the module list (src/modules.ts).
 */
export const EvaluateIncidents = defineJob({
  name: 'maintenance.evaluate-incidents',
  group: 'maintenance',
  concurrency: 1,
  payload: NoPayload,
  every: (config) => config.operations.incidentEvaluationMs,
  run: (platform, _payload, modules: () => readonly Module[]) => evaluateIncidents(platform, modules()),
});
