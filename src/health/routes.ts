import type { AppRouter } from '../http/context.js';
import { routes } from '../http/endpoint.js';
import type { Platform } from '../platform.js';
import { VERSION } from '../version.js';

const PING_TIMEOUT_MS = 2000;

/** GET /health (unversioned, mounted at /health): 200 when the database answers, 503 with the same shape when not. */
export function healthRoutes(platform: Platform): AppRouter {
  const on = routes(platform);
  const startedAt = Date.now();
  on.get('/', { access: 'public', respond: 'raw' }, async ({ ctx }) => {
    const database = await ping(platform);
    ctx.status = database === 'ok' ? 200 : 503;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      data: {
        status: database === 'ok' ? 'ok' : 'unavailable',
        database,
        version: VERSION,
        environment: platform.config.env,
        uptime_seconds: Math.floor((Date.now() - startedAt) / 1000),
      },
    };
  });
  return on.router;
}

/**
 * `GET /ready` (unversioned, public, cheap; docs/operations.md, Readiness probe): 200 while the
 * database answers a ping and the job queue's collection can be read, 503 naming what failed.
 * `/health` stays the liveness answer.
 */
export function readinessRoutes(platform: Platform): AppRouter {
  const on = routes(platform);
  on.get('/', { access: 'public', respond: 'raw' }, async ({ ctx }) => {
    const [database, queue] = await Promise.all([ping(platform), probe(platform, 'queue', () => platform.jobs.probe(PING_TIMEOUT_MS))]);
    const ready = database === 'ok' && queue === 'ok';
    ctx.status = ready ? 200 : 503;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { data: { status: ready ? 'ready' : 'not_ready', database, queue } };
  });
  return on.router;
}

const ping = (platform: Platform) => probe(platform, 'database', () => platform.db.command({ ping: 1 }));

/** Whether `check` answers within PING_TIMEOUT_MS; a failure is logged (`health.<what>_unavailable`). */
async function probe(platform: Platform, what: string, check: () => Promise<unknown>): Promise<'ok' | 'unavailable'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not answer in ${PING_TIMEOUT_MS} ms`)), PING_TIMEOUT_MS);
    });
    await Promise.race([check(), timeout]);
    return 'ok';
  } catch (err) {
    platform.log.warn({ event: `health.${what}_unavailable`, err: (err as Error).message });
    return 'unavailable';
  } finally {
    clearTimeout(timer);
  }
}
