import Router from '@koa/router';
import type { AppRouter } from '../http/context.js';
import { endpoint, storeScoped } from '../http/endpoint.js';
import type { Platform } from '../platform.js';
import { TaxSettingsBody, getTaxSettings, putTaxSettings } from './service.js';

/** /v1/taxes: the store's tax rate table, used to price orders. */
export function taxRoutes(platform: Platform): AppRouter {
  const router: AppRouter = new Router();

  router.get(
    '/',
    endpoint(platform, { access: storeScoped('read_taxes') }, ({ store }) => getTaxSettings(platform, store.id)),
  );

  router.put(
    '/',
    endpoint(platform, { access: storeScoped('write_taxes'), body: TaxSettingsBody }, ({ store, body }) => putTaxSettings(platform, store.id, body)),
  );

  return router;
}
