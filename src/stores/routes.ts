import Router from '@koa/router';
import type { AppRouter } from '../http/context.js';
import { endpoint, storeScoped } from '../http/endpoint.js';
import { PageQuery } from '../pagination.js';
import type { Platform } from '../platform.js';
import { CreateStoreBody, UpdateStoreBody } from './schemas.js';
import { createStore, getStore, listStores, updateStore } from './service.js';

/** /v1/stores: a merchant's stores. */
export function storeRoutes(platform: Platform): AppRouter {
  const router: AppRouter = new Router();
  const access = 'merchant';

  router.post(
    '/',
    endpoint(platform, { access, body: CreateStoreBody, idempotent: true, status: 201 }, ({ merchant, body }) =>
      createStore(platform, merchant.merchantId, body),
    ),
  );

  router.get(
    '/',
    endpoint(platform, { access, query: PageQuery.strict(), respond: 'page' }, ({ merchant, query }) => listStores(platform, merchant.merchantId, query)),
  );

  // The store named by X-Store-Id (or an app's own store): how store-scoped routes see "the current store".
  router.get(
    '/current',
    endpoint(platform, { access: storeScoped(null) }, async ({ store }) => store),
  );

  router.get(
    '/:id',
    endpoint(platform, { access }, ({ merchant, params }) => getStore(platform, merchant.merchantId, params.id)),
  );

  router.patch(
    '/:id',
    endpoint(platform, { access, body: UpdateStoreBody }, ({ merchant, params, body }) => updateStore(platform, merchant.merchantId, params.id, body)),
  );

  return router;
}
