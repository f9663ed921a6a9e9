import type { AppRouter } from '../http/context.js';
import { routes, storeScoped } from '../http/endpoint.js';
import type { Platform } from '../platform.js';
import { TaxSettingsBody, getTaxSettings, putTaxSettings } from './service.js';

/** /v1/taxes: the store's tax rate table, used to price orders. */
export function taxRoutes(platform: Platform): AppRouter {
  const on = routes(platform);

  on.get('/', { access: storeScoped('read_taxes') }, ({ store }) => getTaxSettings(platform, store.id));

  on.put('/', { access: storeScoped('write_taxes'), body: TaxSettingsBody }, ({ store, body }) => putTaxSettings(platform, store.id, body));

  return on.router;
}
