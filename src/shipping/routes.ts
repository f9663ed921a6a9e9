import type { AppRouter } from '../http/context.js';
import { routes, storeScoped } from '../http/endpoint.js';
import type { Platform } from '../platform.js';
import { ShippingSettingsBody, getShippingSettings, putShippingSettings } from './service.js';

/** /v1/shipping: the store's shipping rate table, what storefront checkout offers and charges (docs/shipping.md). */
export function shippingRoutes(platform: Platform): AppRouter {
  const on = routes(platform);

  on.get('/', { access: storeScoped('read_shipping') }, ({ store }) => getShippingSettings(platform, store.id));

  on.put('/', { access: storeScoped('write_shipping'), body: ShippingSettingsBody }, ({ store, body }) => putShippingSettings(platform, store.id, body));

  return on.router;
}
