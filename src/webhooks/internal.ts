import { timingSafeEqual, createHash } from 'node:crypto';
import type { Server } from 'node:http';
import Koa from 'koa';
import Router from '@koa/router';
import { z } from 'zod';
import { PlatformError } from '../errors.js';
import { jsonBody } from '../http/body.js';
import type { AppState } from '../http/context.js';
import { errorEnvelope } from '../http/errors.js';
import { requestId } from '../http/request-id.js';
import { requestLog } from '../http/request-log.js';
import { parseInput } from '../http/validate.js';
import type { Platform } from '../platform.js';
import { dispatchDue, fanOutEvent, type ClaimedDelivery } from './delivery.js';

const Id = z.string().regex(/^[0-9a-f]{24}$/, 'must be an id');
const DispatchBody = z.strictObject({ delivery_ids: z.array(Id).max(500).optional(), event_ids: z.array(Id).max(500).optional() });

/** Constant-time comparison of the caller's secret with ours (hashes first: equal lengths). */
function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * The webhooks process's internal service (spec 4.9), on its own port, never under /v1:
 * - POST /webhook-deliveries/dispatch: fan out the given events (if any), then claim and send
 *   the given deliveries (or any due ones) now, and answer the counts;
 * - POST /app-lifecycle/dispatch: reserved for the app platform; nothing to dispatch yet.
 * Both need X-Platform-Internal-Secret: missing or wrong → 401, not configured → 503.
 */
export function createInternalApp(platform: Platform, owner: string): Koa<AppState> {
  const app = new Koa<AppState>();
  app.silent = true;
  const router = new Router<AppState>();
  const requireSecret: Koa.Middleware<AppState> = async (ctx, next) => {
    const expected = platform.config.internalSecret;
    if (!expected) throw new PlatformError('unavailable', 'internal_secret_not_configured', 'INTERNAL_SECRET is not configured on this service');
    const given = ctx.get('X-Platform-Internal-Secret');
    if (!given || !sameSecret(given, expected)) throw new PlatformError('unauthenticated', 'invalid_internal_secret', 'A valid X-Platform-Internal-Secret is required');
    await next();
  };

  router.post('/webhook-deliveries/dispatch', requireSecret, async (ctx) => {
    const body = parseInput(DispatchBody, ctx.request.body, 'body');
    const created: ClaimedDelivery[] = [];
    for (const eventId of body.event_ids ?? []) created.push(...(await fanOutEvent(platform, eventId, owner)));
    // Named events or deliveries: just those; nothing named: any due deliveries.
    const named = body.delivery_ids || body.event_ids ? { deliveryIds: body.delivery_ids ?? [] } : {};
    const counts = await dispatchDue(platform, owner, { claimed: created, ...named });
    ctx.body = { data: { fanned_out: created.length, ...counts } };
  });
  router.post('/app-lifecycle/dispatch', requireSecret, async (ctx) => {
    parseInput(z.strictObject({}), ctx.request.body, 'body');
    ctx.body = { data: { dispatched: 0 } };
  });

  app.use(requestId());
  app.use(requestLog(platform.log));
  app.use(errorEnvelope(platform.log));
  app.use(async (ctx, next) => {
    await next();
    if (ctx.body === undefined && ctx.status === 404) throw new PlatformError('not_found', 'route_not_found', `No route for ${ctx.method} ${ctx.path}`);
    if (ctx.body === undefined && (ctx.status === 405 || ctx.status === 501)) throw new PlatformError('method_not_allowed', 'method_not_allowed', `${ctx.path} does not accept ${ctx.method}`);
  });
  for (const mw of jsonBody(64 * 1024)) app.use(mw);
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}

export async function startInternalService(platform: Platform, owner: string): Promise<{ server: Server; close(): Promise<void> }> {
  const { internalHost, internalPort } = platform.config.webhooks;
  const server = createInternalApp(platform, owner).listen(internalPort, internalHost);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', () => resolve());
    server.once('error', reject);
  });
  const address = server.address();
  platform.log.info({ event: 'webhooks.internal_listening', port: typeof address === 'object' && address ? address.port : internalPort });
  return {
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
