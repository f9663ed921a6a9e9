import type { Middleware } from 'koa';
import { PlatformError } from '../errors.js';
import type { Platform } from '../platform.js';
import { principalKey, type AppContext, type AppCustom, type AppState, type Principal } from './context.js';

/**
 * Spend `cost` from the request budget of the caller on the store the request acts on (after
 * requireStore): ADMIN_API_RATE_LIMIT units per ADMIN_API_RATE_WINDOW_SECONDS for each
 * (store, caller), the caller being the merchant (all its sessions together) or the app
 * installation. The counters are the ratelimit module's, in the database, so the budget holds
 * across web processes.
 *
 * Every answer after this step carries `RateLimit-Limit`, `RateLimit-Remaining` and
 * `RateLimit-Reset` (seconds until the window starts over); over budget it is 429 `rate_limited`
 * with `Retry-After`. A REST request costs 1 (`storeBudget`); GraphQL will call this with a
 * query's computed cost on the same budget.
 */
export async function spendStoreBudget(platform: Platform, ctx: AppContext, cost = 1): Promise<void> {
  const { principal, store } = ctx.state;
  if (!principal || !store) throw new Error('spendStoreBudget: no principal and store (it runs after requireStore)');
  const { limit, windowSeconds } = platform.config.http.adminApiRate;
  const state = await ctx.access.budget(platform, { account: storeBudgetAccount(principal), scope: store.id, cost, limit, windowSeconds });
  ctx.set('RateLimit-Limit', String(state.limit));
  ctx.set('RateLimit-Remaining', String(state.remaining));
  ctx.set('RateLimit-Reset', String(state.resetSeconds));
  if (!state.allowed) {
    throw new PlatformError('rate_limited', 'rate_limited', 'Too many requests to this store; try again later', { retryAfterSeconds: state.resetSeconds });
  }
}

/**
 * The budget account of a caller of the store-scoped API (one per merchant, app installation or
 * customer; one window per store inside it). Opened when the caller signs in (the auth module),
 * so that its requests only ever update it.
 */
export const storeBudgetAccount = (principal: Principal) => `admin:${principalKey(principal)}`;

/** The store-scoped endpoints' step: one request, one unit of the caller's budget on the store. */
export function storeBudget(platform: Platform): Middleware<AppState, AppCustom> {
  return async (ctx, next) => {
    await spendStoreBudget(platform, ctx);
    await next();
  };
}
