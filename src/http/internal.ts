import type { Server } from 'node:http';
import Router from '@koa/router';
import Koa from 'koa';
import type { Middleware } from 'koa';
import { PlatformError } from '../errors.js';
import type { Platform } from '../platform.js';
import { sameSecret } from '../secrets/index.js';
import { jsonBody } from './body.js';
import type { AppCustom, AppRouter, AppState } from './context.js';
import { errorEnvelope } from './errors.js';
import { requestId } from './request-id.js';
import { requestLog } from './request-log.js';
import { unmatched } from './unmatched.js';

/** Largest body of an internal request (a wake-up names at most a few hundred ids). */
const INTERNAL_BODY_LIMIT = 64 * 1024;

/**
 * Every internal route needs `X-Platform-Internal-Secret`: missing or wrong → 401, not
 * configured on this service → 503. (On each router, so an unknown path is still a 404.)
 */
export function requireInternalSecret(platform: Platform): Middleware<AppState, AppCustom> {
  return async (ctx, next) => {
    const expected = platform.config.internalSecret;
    if (!expected) throw new PlatformError('unavailable', 'internal_secret_not_configured', 'INTERNAL_SECRET is not configured on this service');
    const given = ctx.get('X-Platform-Internal-Secret');
    if (!given || !sameSecret(given, expected))
      throw new PlatformError('unauthenticated', 'invalid_internal_secret', 'A valid X-Platform-Internal-Secret is required');
    await next();
  };
}

/**
 * The internal service (spec 4.9): one app, never under /v1, mounting the internal routers the
 * modules export, each behind the internal secret.
 */
export function createInternalApp(platform: Platform, routers: readonly AppRouter[]): Koa<AppState, AppCustom> {
  const app = new Koa<AppState, AppCustom>();
  app.silent = true;
  app.use(requestId());
  app.use(requestLog(platform, false));
  app.use(errorEnvelope(platform.log));
  app.use(unmatched);
  for (const mw of jsonBody(INTERNAL_BODY_LIMIT)) app.use(mw);
  const secret = requireInternalSecret(platform);
  for (const router of routers) {
    // The check first, then the module's routes (a router runs its middleware only for a path one of its routes matches).
    const guarded = new Router<AppState, AppCustom>();
    guarded.use(secret);
    guarded.use(router.routes(), router.allowedMethods());
    app.use(guarded.routes());
    app.use(guarded.allowedMethods());
  }
  return app;
}

/** Listen on WEBHOOKS_INTERNAL_HOST and _PORT; `close` stops listening, then closes what the routes hold. */
export async function serveInternal(
  platform: Platform,
  routes: readonly { router: AppRouter; close(): Promise<void> }[],
): Promise<{ server: Server; close(): Promise<void> }> {
  const { internalHost, internalPort } = platform.config.webhooks;
  const server = createInternalApp(
    platform,
    routes.map((r) => r.router),
  ).listen(internalPort, internalHost);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', () => resolve());
    server.once('error', reject);
  });
  const address = server.address();
  platform.log.info({ event: 'webhooks.internal_listening', port: typeof address === 'object' && address ? address.port : internalPort });
  return {
    server,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      for (const r of routes) await r.close();
    },
  };
}
