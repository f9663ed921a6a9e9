import { budgetAccountOf } from '../http/budget.js';
import type { BudgetState } from '../http/context.js';
import type { Platform } from '../platform.js';
import { refundBucket, spendBucket } from './bucket.js';

/**
 * The admin GraphQL API's query cost, on the shared leaky bucket (bucket.ts): a bucket per
 * (store, caller) of GRAPHQL_BUCKET_CAPACITY points (default 1000) restoring
 * GRAPHQL_RESTORE_RATE a second (default 50), separate from the same caller's REST bucket on
 * that store but in the same budget account (`admin:<caller key>`, scope `graphql-<store id>`),
 * so a merchant's queries add no document once it has signed in.
 *
 * A query spends its requested cost before it runs (spendQueryCost) and, once it has run, is
 * given back the difference to its actual cost (refundQueryCost).
 */

/** Shopify's `extensions.cost.throttleStatus`: `currentlyAvailable` is rounded down to an integer (the bucket counts fractions). */
export type ThrottleStatus = { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
/**
 * A query's spend: `allowed`, and when not, `retryAfterSeconds` until its cost will be
 * available (at least 1; 0 when allowed). Refused, the bucket is unchanged. A cost above
 * `maximumAvailable` never fits: refuse it as MAX_COST_EXCEEDED before spending.
 */
export type QueryCostSpend = ThrottleStatus & { allowed: boolean; retryAfterSeconds: number };

/** `callerKey`: principalKey(principal) of src/http/context.ts (the merchant or the app installation). */
export type QueryCaller = { storeId: string; callerKey: string };

const bucketOf = (platform: Pick<Platform, 'config'>, { storeId, callerKey }: QueryCaller) => ({
  account: budgetAccountOf(callerKey),
  scope: `graphql-${storeId}`,
  ...platform.config.http.graphqlBucket,
});

const throttleStatus = (state: BudgetState): ThrottleStatus => ({
  maximumAvailable: state.capacity,
  currentlyAvailable: state.available,
  restoreRate: state.restoreRate,
});

/** Spend a query's requested cost (points, 0 or more) from the caller's GraphQL bucket on the store, if it fits now. */
export async function spendQueryCost(platform: Pick<Platform, 'db' | 'clock' | 'config'>, query: QueryCaller & { cost: number }): Promise<QueryCostSpend> {
  const state = await spendBucket(platform, { ...bucketOf(platform, query), cost: query.cost });
  return { allowed: state.allowed, ...throttleStatus(state), retryAfterSeconds: state.retryAfterSeconds };
}

/**
 * Give back `points` (requested cost − actual cost, after the query ran) to the caller's
 * GraphQL bucket on the store; the bucket never goes above its capacity. Answers the
 * throttleStatus to report with the query.
 */
export async function refundQueryCost(platform: Pick<Platform, 'db' | 'clock' | 'config'>, refund: QueryCaller & { points: number }): Promise<ThrottleStatus> {
  return throttleStatus(await refundBucket(platform, { ...bucketOf(platform, refund), points: refund.points }));
}
