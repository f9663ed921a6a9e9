import type { Module } from '../module.js';
import { OPERATIONS_ERROR_CODES } from './errors.js';
import { operationsJobs } from './jobs.js';
import { runtimeRoutes } from './routes.js';
import { operationsIndexes } from './store.js';
export { startHeartbeat, sweepProcesses, type Heartbeat } from './heartbeat.js';
export { EvaluateIncidents, SweepCounters, SweepProcesses } from './jobs.js';
export { evaluateIncidents } from './incidents.js';
export { sweepCounters } from '../counters/index.js';

/**
 * Operations (docs/operations.md): every process's heartbeat, the operators' runtime overview
 * (processes, queues, the outbox, each module's work in flight), its queue
 * diagnostics, deployment health gates and readiness report. The
 * overview reads the modules' job contracts and figures, so it is given the module list (lazily:
 * it is one of them).
 */
export function operationsModule(modules: () => readonly Module[]): Module {
  return {
    name: 'operations',
    errorCodes: OPERATIONS_ERROR_CODES,
    indexes: operationsIndexes,
    jobs: operationsJobs,
    routes: [{ path: '/v1/operations/runtime', router: runtimeRoutes(modules) }],
  };
}
