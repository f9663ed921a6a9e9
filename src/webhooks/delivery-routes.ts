import Router from '@koa/router';
import type { AppRouter } from '../http/context.js';
import { endpoint, storeScoped } from '../http/endpoint.js';
import type { Platform } from '../platform.js';
import { ListDeliveriesQuery, getDelivery, listDeliveries, redeliver } from './delivery-log.js';

/** /v1/operations/webhook-deliveries: the store's deliveries, their attempts, and redelivery (merchants only). */
export function webhookDeliveryRoutes(platform: Platform): AppRouter {
  const router: AppRouter = new Router();
  const access = storeScoped(null, { apps: false });
  router.get(
    '/',
    endpoint(platform, { access, query: ListDeliveriesQuery, respond: 'page' }, ({ store, query }) => listDeliveries(platform, { store_id: store.id }, query)),
  );
  router.get(
    '/:id',
    endpoint(platform, { access }, ({ store, params }) => getDelivery(platform, { store_id: store.id }, params.id!)),
  );
  router.post(
    '/:id/redeliver',
    endpoint(platform, { access, status: 202 }, ({ store, params }) => redeliver(platform, { store_id: store.id }, params.id!)),
  );
  return router;
}
