import { sha256 } from '../digest.js';
import { principalKey, type AppRouter } from '../http/context.js';
import { type EndpointRequest, routes, storeScoped, type StoreScoped } from '../http/endpoint.js';
import type { Platform } from '../platform.js';
import { CancelBody, CreateOrderBody, FulfillBody, ListOrdersQuery, RefundBody } from './schemas.js';
import { createOrder } from './create.js';
import { cancelOrder, fulfillOrder, getOrder, listOrders, markOrderPaid, refundOrder } from './service.js';
import type { RequestRef } from './models.js';
import { getCustomerOrder, listCustomerOrders } from './customer-reads.js';
import { PageQuery } from '../pagination.js';

const read = storeScoped('read_orders');
const write = storeScoped('write_orders');

/**
 * The request as the order remembers it when it carries an Idempotency-Key: an id for the key
 * as the idempotency layer scopes it (caller, store, route), and a hash of the body. A retry
 * after a failure (whose key the idempotency layer freed) finishes the same change instead of
 * making another (docs/orders.md, "Safe retries").
 */
function requestOf({ ctx, principal, store }: EndpointRequest<StoreScoped<true>, unknown, unknown>): RequestRef | null {
  const key = ctx.get('Idempotency-Key');
  if (!key) return null;
  return { id: sha256(`${principalKey(principal)}|${store.id}|${ctx.method} ${ctx.path}|${key}`), hash: sha256(JSON.stringify(ctx.request.body ?? null)) };
}

/** /v1/orders: manual orders, fulfilments, refunds, cancellations and payments. Writes take an Idempotency-Key. */
export function orderRoutes(platform: Platform): AppRouter {
  const on = routes(platform);

  on.get('/', { access: read, query: ListOrdersQuery, respond: 'page' }, ({ store, query }) => listOrders(platform, store.id, query));

  on.post('/', { access: write, body: CreateOrderBody, idempotent: true, status: 201 }, (r) => createOrder(platform, r.store, r.body, requestOf(r)));

  on.get('/:id', { access: read }, ({ store, params }) => getOrder(platform, store.id, params.id));

  on.post('/:id/fulfill', { access: write, body: FulfillBody, idempotent: true }, (r) => fulfillOrder(platform, r.store.id, r.params.id, r.body, requestOf(r)));

  on.post('/:id/refund', { access: write, body: RefundBody, idempotent: true }, (r) => refundOrder(platform, r.store.id, r.params.id, r.body, requestOf(r)));

  on.post('/:id/cancel', { access: write, body: CancelBody, idempotent: true }, (r) => cancelOrder(platform, r.store.id, r.params.id, r.body, requestOf(r)));

  on.post('/:id/mark-paid', { access: write, idempotent: true }, (r) => markOrderPaid(platform, r.store.id, r.params.id, requestOf(r)));

  return on.router;
}

/** /v1/storefront/customer/orders: a signed-in customer's own orders (docs/customer-accounts.md). */
export function customerOrderRoutes(platform: Platform): AppRouter {
  const on = routes(platform);
  on.get('/', { access: 'customer', query: PageQuery.strict(), respond: 'page' }, ({ customer, query }) =>
    listCustomerOrders(platform, customer.storeId, customer.customerId, query),
  );
  on.get('/:id', { access: 'customer' }, ({ customer, params }) => getCustomerOrder(platform, customer.storeId, customer.customerId, params.id));
  return on.router;
}
