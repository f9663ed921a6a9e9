import type { Module } from '../module.js';
import { OPERATIONS_ERROR_CODES } from './errors.js';
import { given } from '../job.js';
import { EvaluateIncidents, SweepCounters, SweepProcesses } from './jobs.js';
import { runtimeRoutes } from './routes.js';
import { operationsIndexes } from './models.js';
export { startHeartbeat, sweepProcesses, type Heartbeat } from './heartbeat.js';
export { sweepCounters } from '../counters/index.js';
// What the operator console (src/console, docs/console.md) reads and acts through: the operations API's own services.
export { runtimeOverview } from './overview.js';
export { cancelJob, getJob, JOB_STATES, JobListQuery, listJobs, releaseJob, rerunJob, type JobState, type JobView } from './queue-diagnostics.js';
export {
  actOnIncident,
  getIncident,
  IncidentActionBody,
  IncidentListQuery,
  IncidentNoteBody,
  listIncidents,
  openManualIncident,
  OpenIncidentBody,
  type IncidentView,
} from './incidents.js';
export { GATE_CHECKS, GateListQuery, getDeploymentGate, listDeploymentGates, runDeploymentGate, RunGateBody, type GateView } from './gates.js';
export { readinessReport } from './readiness.js';

/**
 * Operations (docs/operations.md): every process's heartbeat, the operators' runtime overview
 * (processes, queues, the outbox, each module's work in flight), its queue
 * diagnostics, deployment health gates and readiness report. The
 * overview and the incident rules read the modules' jobs and figures, so it is given the module
 * list (lazily: it is one of them).
 */
export function operationsModule(modules: () => readonly Module[]): Module {
  return {
    name: 'operations',
    errorCodes: OPERATIONS_ERROR_CODES,
    indexes: operationsIndexes,
    jobs: [SweepProcesses, SweepCounters, given(EvaluateIncidents, modules)],
    routes: [{ path: '/v1/operations/runtime', router: runtimeRoutes(modules) }],
  };
}
