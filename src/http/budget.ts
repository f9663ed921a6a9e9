import type { Middleware } from 'koa';
import { PlatformError } from '../errors.js';
import type { Platform } from '../platform.js';
import { clientIp } from './client-address.js';
import { principalKey, type AppContext, type AppCustom, type AppState, type Principal } from './context.js';

/** What one store-scoped REST request costs from the caller's bucket on the store. */
export const REST_REQUEST_COST = 1;

/**
 * Spend `cost` points from the leaky bucket of the caller on the store the request acts on
 * (after requireStore): ADMIN_API_BUCKET_CAPACITY points, restoring ADMIN_API_RESTORE_RATE a
 * second, for each (store, caller), the caller being the merchant (all its sessions together)
 * or the app installation. The bucket is the ratelimit module's, in the database, so it holds
 * across web processes.
 *
 * Every answer after this step carries `RateLimit-Limit` (the capacity), `RateLimit-Remaining`
 * (points available now, rounded down) and `RateLimit-Reset` (seconds until the bucket is full
 * again); when the cost does not fit, 429 `rate_limited` with `Retry-After` (seconds until it
 * will). A REST request costs REST_REQUEST_COST (`storeBudget`). GraphQL has buckets of its
 * own (the ratelimit module's spendQueryCost).
 */
export async function spendStoreBudget(platform: Platform, ctx: AppContext, cost = REST_REQUEST_COST): Promise<void> {
  const { principal, store } = ctx.state;
  if (!principal || !store) throw new Error('spendStoreBudget: no principal and store (it runs after requireStore)');
  const { capacity, restoreRate } = platform.config.http.adminApiBucket;
  const state = await ctx.access.budget(platform, { account: storeBudgetAccount(principal), scope: restBucketScope(store.id), cost, capacity, restoreRate });
  ctx.set('RateLimit-Limit', String(state.capacity));
  ctx.set('RateLimit-Remaining', String(state.available));
  ctx.set('RateLimit-Reset', String(state.fullInSeconds));
  if (!state.allowed) {
    for (const observe of ctx.access.budgetRefusalObservers) observe(platform, { principal, store, ip: clientIp(ctx) });
    throw new PlatformError('rate_limited', 'rate_limited', 'Too many requests to this store; try again later', { retryAfterSeconds: state.retryAfterSeconds });
  }
}

/**
 * The budget account of a caller of the store-scoped APIs, by its principal key (one per
 * merchant, app installation or customer; a bucket per store and API inside it). Opened when
 * the caller signs in (the auth module), so that its requests only ever update it.
 */
export const budgetAccountOf = (callerKey: string) => `admin:${callerKey}`;
export const storeBudgetAccount = (principal: Principal) => budgetAccountOf(principalKey(principal));
/** The REST admin's bucket of a store in a caller's account. */
export const restBucketScope = (storeId: string) => `rest-${storeId}`;

/** The store-scoped endpoints' step: one request, REST_REQUEST_COST points of the caller's bucket on the store. */
export function storeBudget(platform: Platform): Middleware<AppState, AppCustom> {
  return async (ctx, next) => {
    await spendStoreBudget(platform, ctx);
    await next();
  };
}
