import Router from '@koa/router';
import type { AppRouter } from '../http/context.js';
import { endpoint, storeScoped } from '../http/endpoint.js';
import type { Platform } from '../platform.js';
import { CreateCouponBody, EvaluateCouponBody, ListCouponsQuery, UpdateCouponBody } from './schemas.js';
import { createCoupon, deleteCoupon, evaluateCouponForStore, getCoupon, listCoupons, updateCoupon } from './service.js';

const read = storeScoped('read_discounts');
const write = storeScoped('write_discounts');

/** /v1/coupons: a store's discount codes. */
export function couponRoutes(platform: Platform): AppRouter {
  const router: AppRouter = new Router();

  router.get(
    '/',
    endpoint(platform, { access: read, query: ListCouponsQuery, respond: 'page' }, ({ store, query }) => listCoupons(platform, store.id, query)),
  );

  router.post(
    '/',
    endpoint(platform, { access: write, body: CreateCouponBody, idempotent: true, status: 201 }, ({ store, body }) => createCoupon(platform, store, body)),
  );

  // Before /:id. Evaluating a code redeems nothing, so reading discounts is enough.
  router.post(
    '/evaluate',
    endpoint(platform, { access: read, body: EvaluateCouponBody }, ({ store, body }) => evaluateCouponForStore(platform, store, body)),
  );

  router.get(
    '/:id',
    endpoint(platform, { access: read }, ({ store, params }) => getCoupon(platform, store.id, params.id)),
  );

  router.patch(
    '/:id',
    endpoint(platform, { access: write, body: UpdateCouponBody }, ({ store, params, body }) => updateCoupon(platform, store.id, params.id, body)),
  );

  router.delete(
    '/:id',
    endpoint(platform, { access: write, respond: 'empty' }, ({ store, params }) => deleteCoupon(platform, store.id, params.id)),
  );

  return router;
}
