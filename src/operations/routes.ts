import type { AppRouter } from '../http/context.js';
import { routes } from '../http/endpoint.js';
import type { Module } from '../module.js';
import type { Platform } from '../platform.js';
import { JOBS_COLLECTION } from '../queue.js';
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

/** How long the readiness probe waits for each answer. */
const PROBE_TIMEOUT_MS = 2000;

/**
 * `GET /ready` (unversioned, public, cheap; docs/operations.md, Readiness probe): 200 while the
 * database answers a ping and the job queue's collection can be read, 503 naming what failed.
 * `/health` stays the liveness answer.
 */
export function readinessRoutes(platform: Platform): AppRouter {
  const on = routes(platform);
  on.get('/', { access: 'public', respond: 'raw' }, async ({ ctx }) => {
    const [database, queue] = await Promise.all([
      probe(platform, 'database', () => platform.db.command({ ping: 1 }, { timeoutMS: PROBE_TIMEOUT_MS })),
      probe(platform, 'queue', () => platform.db.collection(JOBS_COLLECTION).findOne({}, { projection: { _id: 1 }, maxTimeMS: PROBE_TIMEOUT_MS })),
    ]);
    const ready = database === 'ok' && queue === 'ok';
    ctx.status = ready ? 200 : 503;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { data: { status: ready ? 'ready' : 'not_ready', database, queue } };
  });
  return on.router;
}

async function probe(platform: Platform, what: string, check: () => Promise<unknown>): Promise<'ok' | 'unavailable'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} did not answer in ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
      }),
    ]);
    return 'ok';
  } catch (err) {
    platform.log.warn({ event: 'ready.unavailable', what, err: (err as Error).message });
    return 'unavailable';
  } finally {
    clearTimeout(timer);
  }
}
