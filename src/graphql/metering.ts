import { clientAddress } from '../http/client-address.js';
import { principalKey, type AppContext, type BudgetState } from '../http/context.js';
import type { Platform } from '../platform.js';
import { refundBucket, refundQueryCost, spendBucket, spendQueryCost } from '../ratelimit/index.js';
import { storefrontOf } from './storefront/routes.js';
import type { Meter, Spend, ThrottleStatus } from './transport.js';

/**
 * How the two schemas are metered (docs/graphql.md, Throttling), on the shared leaky-bucket
 * engine (src/ratelimit): every web process draws on the same buckets.
 */

/** The admin: a bucket of query cost per (store, caller), GRAPHQL_BUCKET_CAPACITY restoring GRAPHQL_RESTORE_RATE a second. */
export function adminMeter(platform: Platform): Meter {
  const caller = (ctx: AppContext) => ({ storeId: ctx.state.store!.id, callerKey: principalKey(ctx.state.principal!) });
  return {
    spend: (ctx, cost) => spendQueryCost(platform, { ...caller(ctx), cost }),
    refund: (ctx, points) => refundQueryCost(platform, { ...caller(ctx), points }),
  };
}

const status = (state: BudgetState): ThrottleStatus => ({
  maximumAvailable: state.capacity,
  currentlyAvailable: state.available,
  restoreRate: state.restoreRate,
});

/**
 * The storefront: buyers are anonymous, so a query spends from two buckets, the client address's
 * in the store (generous for browsing: a page's query costs 10 to 50) and the store's, shared by
 * all its clients (what one store's traffic may take of the platform). A query one of them
 * refuses is refused, and what the other took is given back. throttleStatus is the client's.
 */
export function storefrontMeter(platform: Platform): Meter {
  const { client, store } = platform.config.http.storefrontGraphql;
  const buckets = (ctx: AppContext) => {
    const storeId = storefrontOf(ctx).id;
    return {
      client: { account: `storefront:${clientAddress(ctx)}`, scope: `sf-${storeId}`, ...client },
      store: { account: `storefront-store:${storeId}`, scope: 'graphql', ...store },
    };
  };
  return {
    async spend(ctx, cost): Promise<Spend> {
      const b = buckets(ctx);
      const mine = await spendBucket(platform, { ...b.client, cost });
      if (!mine.allowed) return { allowed: false, ...status(mine), retryAfterSeconds: mine.retryAfterSeconds };
      const shared = await spendBucket(platform, { ...b.store, cost });
      if (!shared.allowed) {
        await refundBucket(platform, { ...b.client, points: cost });
        return { allowed: false, ...status(mine), retryAfterSeconds: shared.retryAfterSeconds };
      }
      return { allowed: true, ...status(mine), retryAfterSeconds: 0 };
    },
    async refund(ctx, points): Promise<ThrottleStatus> {
      const b = buckets(ctx);
      const [mine] = await Promise.all([refundBucket(platform, { ...b.client, points }), refundBucket(platform, { ...b.store, points })]);
      return status(mine);
    },
  };
}
