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
import { dispatchDue, fanOutEvents } from './delivery.js';
import { createDispatcher, type Dispatcher } from './dispatcher.js';
import { WAKE_BATCH } from './wake.js';

const Id = z.string().regex(/^[0-9a-f]{24}$/, 'must be an id');
const DispatchBody = z.strictObject({ delivery_ids: z.array(Id).max(WAKE_BATCH).optional(), event_ids: z.array(Id).max(WAKE_BATCH).optional() });

/** Constant-time comparison of the caller's secret with ours (hashes first: equal lengths). */
function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * The webhooks process's internal service (spec 4.9), on its own port, never under /v1:
 * - POST /webhook-deliveries/dispatch with `event_ids` and/or `delivery_ids`: fan out the given
 *   events and claim the given deliveries, hand them to the process's dispatcher (which sends
 *   them, `concurrency` at a time, after the answer) and answer how many; with neither, claim
 *   and send any due deliveries now and answer what happened to them;
 * - POST /app-lifecycle/dispatch: reserved for the app platform; nothing to dispatch yet.
 * Both need X-Platform-Internal-Secret: missing or wrong → 401, not configured → 503.
 */
export function createInternalApp(platform: Platform, owner: string, dispatcher: Dispatcher): Koa<AppState> {
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
    if (!body.event_ids && !body.delivery_ids) {
      ctx.body = { data: { fanned_out: 0, ...(await dispatchDue(platform, owner)) } };
      return;
    }
    // Answered once the events are fanned out and the deliveries claimed (the state the
    // sweeper would otherwise recover), not when they are sent: one slow receiver must not
    // hold up the wake-ups of other stores' events.
    const created = await fanOutEvents(platform, body.event_ids ?? [], owner);
    dispatcher.hold(created);
    const claimed = await dispatcher.claim(body.delivery_ids ?? []);
    ctx.body = { data: { fanned_out: created.length, claimed: created.length + claimed, sending: dispatcher.pending } };
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
  const dispatcher = createDispatcher(platform, owner);
  const server = createInternalApp(platform, owner, dispatcher).listen(internalPort, internalHost);
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
      await dispatcher.close();
    },
  };
}
