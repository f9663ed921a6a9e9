import type Router from '@koa/router';
import { z } from 'zod';
import type { AppState } from '../http/context.js';
import { idempotent } from '../http/idempotency.js';
import { storeScopedRouter } from '../http/scoped.js';
import { parseInput } from '../http/validate.js';
import type { Platform } from '../platform.js';
import { CreateCouponBody, EvaluateCouponBody, ListCouponsQuery, UpdateCouponBody } from './schemas.js';
import { createCoupon, deleteCoupon, evaluateCoupon, getCoupon, listCoupons, updateCoupon } from './service.js';

const NoQuery = z.strictObject({});

/** /v1/coupons: a store's discount codes. */
export function couponRoutes(platform: Platform): Router<AppState> {
  const router = storeScopedRouter(platform);

  router.get('/', async (ctx) => {
    const query = parseInput(ListCouponsQuery, ctx.query, 'query');
    const { items, nextCursor } = await listCoupons(platform, ctx.state.store!.id, query);
    ctx.body = { data: items, page: { next_cursor: nextCursor } };
  });

  router.post('/', idempotent(platform), async (ctx) => {
    const body = parseInput(CreateCouponBody, ctx.request.body, 'body');
    ctx.status = 201;
    ctx.body = { data: await createCoupon(platform, ctx.state.store!, body) };
  });

  // Before /:id. Tries a code on a cart in the store's currency; redeems nothing.
  router.post('/evaluate', async (ctx) => {
    parseInput(NoQuery, ctx.query, 'query');
    const { code, ...cart } = parseInput(EvaluateCouponBody, ctx.request.body, 'body');
    const store = ctx.state.store!;
    ctx.body = { data: await evaluateCoupon(platform, store.id, code, { ...cart, currency: store.currency }) };
  });

  router.get('/:id', async (ctx) => {
    parseInput(NoQuery, ctx.query, 'query');
    ctx.body = { data: await getCoupon(platform, ctx.state.store!.id, ctx.params.id!) };
  });

  router.patch('/:id', async (ctx) => {
    const body = parseInput(UpdateCouponBody, ctx.request.body, 'body');
    ctx.body = { data: await updateCoupon(platform, ctx.state.store!.id, ctx.params.id!, body) };
  });

  router.delete('/:id', async (ctx) => {
    parseInput(NoQuery, ctx.query, 'query');
    await deleteCoupon(platform, ctx.state.store!.id, ctx.params.id!);
    ctx.status = 204;
  });

  return router;
}
