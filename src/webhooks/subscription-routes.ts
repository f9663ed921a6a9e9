import type Router from '@koa/router';
import { z } from 'zod';
import type { AppState } from '../http/context.js';
import { idempotent } from '../http/idempotency.js';
import { storeScopedRouter } from '../http/scoped.js';
import { parseInput } from '../http/validate.js';
import { PageQuery } from '../pagination.js';
import type { Platform } from '../platform.js';
import { CreateSubscriptionBody, RotateSecretBody, UpdateSubscriptionBody } from './schemas.js';
import {
  createSubscription,
  deleteSubscription,
  getSubscription,
  listSubscriptions,
  rotateSubscriptionSecret,
  updateSubscription,
} from './subscriptions.js';

const NoQuery = z.strictObject({});
const ListQuery = PageQuery.strict();

/** /v1/operations/webhook-subscriptions: a store's webhook subscriptions (docs/webhooks.md). */
export function webhookSubscriptionRoutes(platform: Platform): Router<AppState> {
  const router = storeScopedRouter(platform);

  router.get('/', async (ctx) => {
    const page = parseInput(ListQuery, ctx.query, 'query');
    const { items, nextCursor } = await listSubscriptions(platform, ctx.state.store!.id, page);
    ctx.body = { data: items, page: { next_cursor: nextCursor } };
  });

  // Idempotent so a lost response can be retried and still show the secret (stored responses are encrypted).
  router.post('/', idempotent(platform), async (ctx) => {
    parseInput(NoQuery, ctx.query, 'query');
    const body = parseInput(CreateSubscriptionBody, ctx.request.body, 'body');
    const owner = { type: 'merchant' as const, id: ctx.state.auth!.merchantId };
    ctx.status = 201;
    ctx.body = { data: await createSubscription(platform, ctx.state.store!.id, owner, body) };
  });

  router.get('/:id', async (ctx) => {
    parseInput(NoQuery, ctx.query, 'query');
    ctx.body = { data: await getSubscription(platform, ctx.state.store!.id, ctx.params.id!) };
  });

  router.patch('/:id', async (ctx) => {
    parseInput(NoQuery, ctx.query, 'query');
    const body = parseInput(UpdateSubscriptionBody, ctx.request.body, 'body');
    ctx.body = { data: await updateSubscription(platform, ctx.state.store!.id, ctx.params.id!, body) };
  });

  router.delete('/:id', async (ctx) => {
    parseInput(NoQuery, ctx.query, 'query');
    await deleteSubscription(platform, ctx.state.store!.id, ctx.params.id!);
    ctx.status = 204;
  });

  router.post('/:id/rotate-secret', idempotent(platform), async (ctx) => {
    parseInput(NoQuery, ctx.query, 'query');
    const body = parseInput(RotateSecretBody, ctx.request.body, 'body');
    ctx.body = { data: await rotateSubscriptionSecret(platform, ctx.state.store!.id, ctx.params.id!, body) };
  });

  return router;
}
