import type { Db } from 'mongodb';
import { clientAddress } from '../http/client-address.js';
import { principalKey, type AppContext, type BudgetState } from '../http/context.js';
import type { Platform } from '../platform.js';
import { refundBucket, refundQueryCost, spendBucket, spendQueryCost } from '../ratelimit/index.js';
import { storefrontOf } from './storefront/routes.js';
import type { Meter, Spend, ThrottleStatus } from './transport.js';

/**
 * How the two schemas are metered (docs/graphql.md, Throttling), on the shared leaky-bucket
 * engine (src/ratelimit): every web process draws on the same buckets.
 *
 * A query's refund (requested − actual cost) is owed by the process that ran it, per bucket: the
 * process's next spend from that bucket is charged net of it (one write instead of two), and what
 * no spend took within REFUND_AFTER_MS is written as a refund then (and when the platform closes).
 * The answer reports the bucket with its refund; another process sees it once it is written: a
 * query there may be throttled a little early, never let through late.
 */
const REFUND_AFTER_MS = 250;
type Owed = { points: number; apply: (points: number) => Promise<unknown> };
type Refunds = { owed: Map<string, Owed>; timer: NodeJS.Timeout | null };
const refundsOf = new WeakMap<Db, Refunds>();

function refunds(platform: Platform): Refunds {
  let r = refundsOf.get(platform.db);
  if (!r) refundsOf.set(platform.db, (r = { owed: new Map(), timer: null }));
  return r;
}

function owe(platform: Platform, key: string, points: number, apply: (points: number) => Promise<unknown>): void {
  const r = refunds(platform);
  const entry = r.owed.get(key);
  if (entry) entry.points += points;
  else r.owed.set(key, { points, apply });
  if (!r.timer) {
    r.timer = setTimeout(() => void flushRefunds(platform), REFUND_AFTER_MS);
    r.timer.unref();
  }
}

/** Take what this process owes a bucket, to charge a spend net of it; `giveBack` if the spend is refused. */
function takeOwed(platform: Platform, key: string): { points: number; giveBack(): void } {
  const r = refunds(platform);
  const entry = r.owed.get(key);
  if (!entry) return { points: 0, giveBack: () => {} };
  r.owed.delete(key);
  return { points: entry.points, giveBack: () => owe(platform, key, entry.points, entry.apply) };
}

/** Give back what this process still owes on this platform's database (the timer; and the graphql module's close). */
export async function flushRefunds(platform: Platform): Promise<void> {
  const r = refundsOf.get(platform.db);
  if (!r) return;
  if (r.timer) clearTimeout(r.timer);
  r.timer = null;
  const due = [...r.owed.values()];
  r.owed.clear();
  await Promise.all(
    due.map((d) => d.apply(d.points).catch((err: Error) => platform.log.warn({ event: 'graphql.refund_failed', points: d.points, err: err.message }))),
  );
}

/**
 * Spend `cost` from a bucket net of what this process owes it; the rest of the debt (when the
 * cost is smaller) stays owed. Refused, the debt is owed again, untouched.
 */
async function spendNet<S extends { allowed: boolean }>(
  platform: Platform,
  key: string,
  cost: number,
  spend: (net: number) => Promise<S>,
  apply: (points: number) => Promise<unknown>,
): Promise<S> {
  const debt = takeOwed(platform, key);
  const net = Math.max(0, cost - debt.points);
  const result = await spend(net);
  if (!result.allowed) debt.giveBack();
  else if (debt.points > cost) owe(platform, key, debt.points - cost, apply);
  return result;
}

const withRefund = (status: ThrottleStatus, points: number): ThrottleStatus => ({
  ...status,
  currentlyAvailable: Math.min(status.maximumAvailable, Math.floor(status.currentlyAvailable + points)),
});

/** The admin: a bucket of query cost per (store, caller), GRAPHQL_BUCKET_CAPACITY restoring GRAPHQL_RESTORE_RATE a second. */
export function adminMeter(platform: Platform): Meter {
  const caller = (ctx: AppContext) => {
    const who = { storeId: ctx.state.store!.id, callerKey: principalKey(ctx.state.principal!) };
    return { who, key: `admin|${who.storeId}|${who.callerKey}`, apply: (points: number) => refundQueryCost(platform, { ...who, points }) };
  };
  return {
    spend(ctx, cost) {
      const { who, key, apply } = caller(ctx);
      return spendNet(platform, key, cost, (net) => spendQueryCost(platform, { ...who, cost: net }), apply);
    },
    refund(ctx, points, after) {
      const { key, apply } = caller(ctx);
      owe(platform, key, points, apply);
      return withRefund(after, points);
    },
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
    const mine = { account: `storefront:${clientAddress(ctx)}`, scope: `sf-${storeId}`, ...client };
    const shared = { account: `storefront-store:${storeId}`, scope: 'graphql', ...store };
    return {
      client: { bucket: mine, key: `sf|${mine.account}|${mine.scope}`, apply: (points: number) => refundBucket(platform, { ...mine, points }) },
      store: { bucket: shared, key: `sf-store|${shared.account}`, apply: (points: number) => refundBucket(platform, { ...shared, points }) },
    };
  };
  return {
    async spend(ctx, cost): Promise<Spend> {
      const b = buckets(ctx);
      const mine = await spendNet(platform, b.client.key, cost, (net) => spendBucket(platform, { ...b.client.bucket, cost: net }), b.client.apply);
      if (!mine.allowed) return { allowed: false, ...status(mine), retryAfterSeconds: mine.retryAfterSeconds };
      const shared = await spendNet(platform, b.store.key, cost, (net) => spendBucket(platform, { ...b.store.bucket, cost: net }), b.store.apply);
      if (!shared.allowed) {
        owe(platform, b.client.key, cost, b.client.apply);
        return { allowed: false, ...status(mine), retryAfterSeconds: shared.retryAfterSeconds };
      }
      return { allowed: true, ...status(mine), retryAfterSeconds: 0 };
    },
    refund(ctx, points, after) {
      const b = buckets(ctx);
      owe(platform, b.client.key, points, b.client.apply);
      owe(platform, b.store.key, points, b.store.apply);
      return withRefund(after, points);
    },
  };
}
