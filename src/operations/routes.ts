import type { AppRouter } from '../http/context.js';
import { routes } from '../http/endpoint.js';
import type { Module } from '../module.js';
import type { Platform } from '../platform.js';
import { cancelJob, getJob, JobListQuery, listJobs, releaseJob, rerunJob } from './queue-diagnostics.js';
import { readOutbox, redriveOutbox } from './outbox.js';
import { GateListQuery, getDeploymentGate, listDeploymentGates, runDeploymentGate, RunGateBody } from './gates.js';
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
