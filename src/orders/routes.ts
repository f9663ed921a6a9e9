import type Router from '@koa/router';
import { z } from 'zod';
import type { AppState } from '../http/context.js';
import { idempotent } from '../http/idempotency.js';
import { storeScopedRouter } from '../http/scoped.js';
import { parseInput } from '../http/validate.js';
import type { Platform } from '../platform.js';
import { CreateOrderBody, FulfillBody, ListOrdersQuery, RefundBody } from './schemas.js';
import { createOrder, fulfillOrder, getOrder, listOrders, refundOrder } from './service.js';

/** /v1/orders: manual orders, fulfilments and refunds. Writes take an Idempotency-Key. */
export function orderRoutes(platform: Platform): Router<AppState> {
  const router = storeScopedRouter(platform);
  const storeId = (ctx: { state: AppState }) => ctx.state.store!.id;

  router.get('/', async (ctx) => {
    const query = parseInput(ListOrdersQuery, ctx.query, 'query');
    const { items, nextCursor } = await listOrders(platform, storeId(ctx), query);
    ctx.body = { data: items, page: { next_cursor: nextCursor } };
  });
  router.post('/', idempotent(platform), async (ctx) => {
    const body = parseInput(CreateOrderBody, ctx.request.body, 'body');
    ctx.status = 201;
    ctx.body = { data: await createOrder(platform, ctx.state.store!, body) };
  });
  router.get('/:id', async (ctx) => {
    parseInput(z.strictObject({}), ctx.query, 'query');
    ctx.body = { data: await getOrder(platform, storeId(ctx), ctx.params.id!) };
  });
  router.post('/:id/fulfill', idempotent(platform), async (ctx) => {
    const body = parseInput(FulfillBody, ctx.request.body, 'body');
    ctx.body = { data: await fulfillOrder(platform, storeId(ctx), ctx.params.id!, body) };
  });
  router.post('/:id/refund', idempotent(platform), async (ctx) => {
    const body = parseInput(RefundBody, ctx.request.body, 'body');
    ctx.body = { data: await refundOrder(platform, storeId(ctx), ctx.params.id!, body) };
  });
  return router;
}
