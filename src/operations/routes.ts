import type { AppRouter } from '../http/context.js';
import { routes } from '../http/endpoint.js';
import type { Module } from '../module.js';
import type { Platform } from '../platform.js';
import { cancelJob, getJob, JobListQuery, listJobs, releaseJob, rerunJob } from './queue-diagnostics.js';
import { readOutbox, redriveOutbox } from './outbox.js';
import { GateListQuery, getDeploymentGate, listDeploymentGates, runDeploymentGate, RunGateBody } from './gates.js';
import { dashboards, DashboardQuery } from './dashboards.js';
import { actOnIncident, getIncident, listIncidents, openManualIncident } from './incidents.js';
import { IncidentActionBody, IncidentListQuery, IncidentNoteBody, OpenIncidentBody } from './incidents.js';
import { runtimeOverview } from './overview.js';
import { readinessReport } from './readiness.js';

/** `/v1/operations/runtime/…` (docs/operations.md): for operators only (OPERATOR_EMAILS). */
export function runtimeRoutes(modules: () => readonly Module[]) {
  return (platform: Platform): AppRouter => {
    const on = routes(platform);
    on.get('/overview', { access: 'operator' }, async ({ ctx }) => {
      ctx.set('Cache-Control', 'no-store');
      return runtimeOverview(platform, modules());
    });
    // Dashboards (docs/operations.md): the runtime counters over a window.
    on.get('/dashboards', { access: 'operator', query: DashboardQuery }, ({ ctx, query }) => {
      ctx.set('Cache-Control', 'no-store');
      return dashboards(platform, query);
    });
    // Incidents (docs/operations.md).
    on.get('/incidents', { access: 'operator', query: IncidentListQuery, respond: 'page' }, ({ query }) => listIncidents(platform, query));
    on.post('/incidents', { access: 'operator', body: OpenIncidentBody, status: 201 }, ({ merchant, body }) =>
      openManualIncident(platform, merchant.merchantId, body),
    );
    on.get('/incidents/:id', { access: 'operator' }, ({ params }) => getIncident(platform, params.id));
    on.post('/incidents/:id/acknowledge', { access: 'operator', body: IncidentActionBody }, ({ merchant, params, body }) =>
      actOnIncident(platform, merchant.merchantId, params.id, 'acknowledge', body.note),
    );
    on.post('/incidents/:id/resolve', { access: 'operator', body: IncidentActionBody }, ({ merchant, params, body }) =>
      actOnIncident(platform, merchant.merchantId, params.id, 'resolve', body.note),
    );
    on.post('/incidents/:id/notes', { access: 'operator', body: IncidentNoteBody, status: 201 }, ({ merchant, params, body }) =>
      actOnIncident(platform, merchant.merchantId, params.id, 'note', body.text),
    );
    // Deployment health gates (docs/operations.md).
    on.post('/deployment-health-gates', { access: 'operator', body: RunGateBody, status: 201 }, ({ merchant, body }) =>
      runDeploymentGate(platform, modules(), merchant.merchantId, body),
    );
    on.get('/deployment-health-gates', { access: 'operator', query: GateListQuery, respond: 'page' }, ({ query }) => listDeploymentGates(platform, query));
    on.get('/deployment-health-gates/:id', { access: 'operator' }, ({ params }) => getDeploymentGate(platform, params.id));
    on.get('/readiness-report', { access: 'operator' }, () => readinessReport(platform, modules()));
    // The outbox (docs/operations.md, Outbox).
    on.get('/outbox', { access: 'operator' }, () => readOutbox(platform));
    on.post('/outbox/redrive', { access: 'operator' }, () => redriveOutbox(platform));
    // Queue diagnostics (docs/operations.md, Jobs).
    on.get('/jobs', { access: 'operator', query: JobListQuery, respond: 'page' }, ({ query }) => listJobs(platform, modules(), query));
    on.get('/jobs/:id', { access: 'operator' }, ({ params }) => getJob(platform, modules(), params.id));
    on.post('/jobs/:id/rerun', { access: 'operator' }, ({ params }) => rerunJob(platform, modules(), params.id));
    on.post('/jobs/:id/cancel', { access: 'operator' }, ({ params }) => cancelJob(platform, modules(), params.id));
    on.post('/jobs/:id/release', { access: 'operator' }, ({ params }) => releaseJob(platform, modules(), params.id));
    return on.router;
  };
}
