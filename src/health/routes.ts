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

async function ping(platform: Platform): Promise<'ok' | 'unavailable'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('ping timed out')), PING_TIMEOUT_MS);
    });
    await Promise.race([platform.db.command({ ping: 1 }), timeout]);
    return 'ok';
  } catch (err) {
    platform.log.warn({ event: 'health.database_unavailable', err: (err as Error).message });
    return 'unavailable';
  } finally {
    clearTimeout(timer);
  }
}
