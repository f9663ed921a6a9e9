import type { AppRouter } from '../../http/context.js';
import { routes, storeScoped } from '../../http/endpoint.js';
import type { Platform } from '../../platform.js';
import { ListDeliveriesQuery, getDelivery, listDeliveries, redeliver } from './log.js';

/** /v1/operations/webhook-deliveries: the store's deliveries, their attempts, and redelivery (merchants only). */
export function webhookDeliveryRoutes(platform: Platform): AppRouter {
  const on = routes(platform);
  const access = storeScoped(null, { apps: false });
  on.get('/', { access, query: ListDeliveriesQuery, respond: 'page' }, ({ store, query }) => listDeliveries(platform, { store_id: store.id }, query));
  on.get('/:id', { access }, ({ store, params }) => getDelivery(platform, { store_id: store.id }, params.id));
  on.post('/:id/redeliver', { access, status: 202 }, ({ store, params }) => redeliver(platform, { store_id: store.id }, params.id));
  return on.router;
}
