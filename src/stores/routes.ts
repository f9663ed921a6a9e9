import type { AppRouter } from '../http/context.js';
import { routes, storeScoped } from '../http/endpoint.js';
import { PageQuery } from '../pagination.js';
import type { Platform } from '../platform.js';
import { CreateStoreBody, UpdateStoreBody } from './schemas.js';
import { createStore, getStore, listStores, updateStore } from './service.js';

/** /v1/stores: a merchant's stores. */
export function storeRoutes(platform: Platform): AppRouter {
  const on = routes(platform);
  const access = 'merchant';

  on.post('/', { access, body: CreateStoreBody, idempotent: true, status: 201 }, ({ merchant, body }) => createStore(platform, merchant.merchantId, body));

  on.get('/', { access, query: PageQuery.strict(), respond: 'page' }, ({ merchant, query }) => listStores(platform, merchant.merchantId, query));

  // The store named by X-Store-Id (or an app's own store): how store-scoped routes see "the current store".
  on.get('/current', { access: storeScoped(null) }, async ({ store }) => store);

  on.get('/:id', { access }, ({ merchant, params }) => getStore(platform, merchant.merchantId, params.id));

  on.patch('/:id', { access, body: UpdateStoreBody }, ({ merchant, params, body }) => updateStore(platform, merchant.merchantId, params.id, body));

  return on.router;
}
