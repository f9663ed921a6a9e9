import type Router from '@koa/router';
import { z } from 'zod';
import type { AppState } from '../http/context.js';
import { storeScopedRouter } from '../http/scoped.js';
import { parseInput } from '../http/validate.js';
import type { Platform } from '../platform.js';
import { TaxSettingsBody, getTaxSettings, putTaxSettings } from './service.js';

/** /v1/taxes: the store's tax rate table, used to price orders. */
export function taxRoutes(platform: Platform): Router<AppState> {
  const router = storeScopedRouter(platform);
  router.get('/', async (ctx) => {
    parseInput(z.strictObject({}), ctx.query, 'query');
    ctx.body = { data: await getTaxSettings(platform, ctx.state.store!.id) };
  });
  router.put('/', async (ctx) => {
    const body = parseInput(TaxSettingsBody, ctx.request.body, 'body');
    ctx.body = { data: await putTaxSettings(platform, ctx.state.store!.id, body) };
  });
  return router;
}
