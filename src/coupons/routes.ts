import type { AppRouter } from '../http/context.js';
import { routes, storeScoped } from '../http/endpoint.js';
import type { Platform } from '../platform.js';
import { CreateCouponBody, EvaluateCouponBody, ListCouponsQuery, UpdateCouponBody } from './schemas.js';
import { createCoupon, deleteCoupon, evaluateCouponForStore, getCoupon, listCoupons, updateCoupon } from './service.js';

const read = storeScoped('read_discounts');
const write = storeScoped('write_discounts');

/** /v1/coupons: a store's discount codes. */
export function couponRoutes(platform: Platform): AppRouter {
  const on = routes(platform);
  on.get('/', { access: read, query: ListCouponsQuery, respond: 'page' }, ({ store, query }) => listCoupons(platform, store.id, query));
  on.post('/', { access: write, body: CreateCouponBody, idempotent: true, status: 201 }, ({ store, body }) => createCoupon(platform, store, body));
  // Before /:id. Evaluating a code redeems nothing, so reading discounts is enough.
  on.post('/evaluate', { access: read, body: EvaluateCouponBody }, ({ store, body }) => evaluateCouponForStore(platform, store, body));
  on.get('/:id', { access: read }, ({ store, params }) => getCoupon(platform, store.id, params.id));
  on.patch('/:id', { access: write, body: UpdateCouponBody }, ({ store, params, body }) => updateCoupon(platform, store.id, params.id, body));
  on.delete('/:id', { access: write, respond: 'empty' }, ({ store, params }) => deleteCoupon(platform, store.id, params.id));
  return on.router;
}
