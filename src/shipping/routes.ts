import Router from '@koa/router';
import type { AppRouter } from '../http/context.js';
import { endpoint, storeScoped } from '../http/endpoint.js';
import type { Platform } from '../platform.js';
import { ShippingSettingsBody, getShippingSettings, putShippingSettings } from './service.js';

/** /v1/shipping: the store's shipping rate table, what storefront checkout offers and charges (docs/shipping.md). */
export function shippingRoutes(platform: Platform): AppRouter {
  const router: AppRouter = new Router();

  router.get(
    '/',
    endpoint(platform, { access: storeScoped('read_shipping') }, ({ store }) => getShippingSettings(platform, store.id)),
  );

  router.put(
    '/',
    endpoint(platform, { access: storeScoped('write_shipping'), body: ShippingSettingsBody }, ({ store, body }) =>
      putShippingSettings(platform, store.id, body),
    ),
  );

  return router;
}
