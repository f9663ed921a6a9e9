import Router from '@koa/router';
import type { Platform } from '../platform.js';
import { requireMerchant, requireStore } from './auth.js';
import type { AppState } from './context.js';

/**
 * A router for store-scoped merchant routes: every route needs a merchant session and an
 * `X-Store-Id` the merchant owns (403 otherwise). Handlers read `ctx.state.store!.id` and must
 * scope every query by it; an id from another store is then simply not found (404).
 */
export function storeScopedRouter(platform: Platform): Router<AppState> {
  const router = new Router<AppState>();
  router.use(requireMerchant(platform), requireStore(platform));
  return router;
}
