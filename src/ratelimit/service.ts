import { isDuplicateKeyError } from '../db.js';
import { PlatformError } from '../errors.js';
import type { BudgetSpend, BudgetState } from '../http/context.js';
import type { Platform } from '../platform.js';
import { ownValue } from '../own-keys.js';
import { budgetAccounts, rateLimits } from './store.js';

export type RateRule = { bucket: string; limit: number; windowSeconds: number };

/**
 * Count one attempt against every rule (fixed windows, one atomic upsert each) and refuse
 * with 429 and Retry-After when any rule is over its limit. Shared by every process through
 * the database, so limits hold across several web processes.
 */
export async function consumeRateLimit(platform: Pick<Platform, 'db' | 'clock'>, rules: RateRule[]): Promise<void> {
  const now = platform.clock.now().getTime();
  let retryAfter = 0;
  for (const rule of rules) {
    const windowMs = rule.windowSeconds * 1000;
    const start = Math.floor(now / windowMs) * windowMs;
    const count = await increment(platform, `${rule.bucket}|${start}`, new Date(start + windowMs));
    if (count > rule.limit) retryAfter = Math.max(retryAfter, Math.ceil((start + windowMs - now) / 1000));
  }
  if (retryAfter > 0) {
    throw new PlatformError('rate_limited', 'rate_limited', 'Too many attempts; try again later', { retryAfterSeconds: retryAfter });
  }
}

/** An account idle this long after its last window started is swept (and opened again by its next spend or sign-in). */
const BUDGET_ACCOUNT_IDLE_MS = 24 * 60 * 60 * 1000;

/**
 * Spend `cost` from a budget: the current fixed window of `scope` (a store) in the caller's
 * `account` (the store-scoped admin API's; GraphQL's query costs later), if the window has that
 * much left. A spend that does not fit is refused and costs nothing, so a throttled client's
 * retries do not push its window further out, and an expensive refused query does not eat the
 * budget.
 *
 * The account is one document per caller, with one window per scope, updated in place:
 * - within the current window, one conditional update (`start` is this window's and
 *   `count <= limit - cost`, then `$inc`);
 * - otherwise (the scope's first spend, a new window, or no room left) a second one that opens
 *   the current window (`start` is not this window's: `$set` it with `count: cost`), upserting
 *   the account if it is not open; when the window is current after all (no room, or a
 *   concurrent spend opened it first) that upsert collides with the account's `_id` (a duplicate
 *   key), and the spend is tried once more within the window: refused if it does not fit.
 */
export async function spendBudget(platform: Pick<Platform, 'db' | 'clock'>, spend: BudgetSpend): Promise<BudgetState> {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(spend.scope)) throw new Error(`spendBudget: a scope is letters, digits, _ and - (got ${JSON.stringify(spend.scope)})`);
  const now = platform.clock.now().getTime();
  const windowMs = spend.windowSeconds * 1000;
  const start = Math.floor(now / windowMs) * windowMs;
  const resetSeconds = Math.max(1, Math.ceil((start + windowMs - now) / 1000));
  const refused: BudgetState = { allowed: false, limit: spend.limit, remaining: 0, resetSeconds };
  if (spend.cost > spend.limit) return refused;

  const key = `s${spend.scope}`;
  const field = `windows.${key}`;
  const accounts = budgetAccounts(platform.db);
  // The whole account comes back (FerretDB 1.24 takes no projection on findAndModify): a window per store the caller used.
  const options = { returnDocument: 'after' } as const;
  const spendWithin = () =>
    accounts.findOneAndUpdate(
      { _id: spend.account, [`${field}.start`]: start, [`${field}.count`]: { $lte: spend.limit - spend.cost } },
      { $inc: { [`${field}.count`]: spend.cost } },
      options,
    );

  let doc = await spendWithin();
  if (!doc) {
    try {
      doc = await accounts.findOneAndUpdate(
        { _id: spend.account, [`${field}.start`]: { $ne: start } },
        { $set: { [field]: { start, count: spend.cost } }, $max: { expires_at: new Date(start + BUDGET_ACCOUNT_IDLE_MS) } },
        { ...options, upsert: true },
      );
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      doc = await spendWithin();
    }
  }
  if (!doc) return refused;
  const spent = (doc.windows && ownValue(doc.windows, key)?.count) ?? spend.cost;
  return { allowed: true, limit: spend.limit, remaining: Math.max(0, spend.limit - spent), resetSeconds };
}

/**
 * Open a caller's budget account ahead of its first spend (a merchant's at sign-in), kept at
 * least until `until`, so that spending only ever updates it in place: a store-scoped request,
 * even a refused one, then adds no document.
 */
export async function openBudgetAccount(platform: Pick<Platform, 'db'>, account: string, until: Date): Promise<void> {
  await budgetAccounts(platform.db).updateOne({ _id: account }, { $max: { expires_at: until } }, { upsert: true });
}

async function increment(platform: Pick<Platform, 'db'>, id: string, expiresAt: Date): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    try {
      const doc = await rateLimits(platform.db).findOneAndUpdate(
        { _id: id },
        { $inc: { count: 1 }, $setOnInsert: { expires_at: expiresAt } },
        { upsert: true, returnDocument: 'after' },
      );
      return doc?.count ?? 1;
    } catch (err) {
      // Two first hits in the same window race on the upsert; the loser retries as an update.
      if (!isDuplicateKeyError(err) || attempt > 0) throw err;
    }
  }
}

export async function sweepExpiredRateLimits(platform: Pick<Platform, 'db' | 'clock'>): Promise<number> {
  const { deletedCount } = await rateLimits(platform.db).deleteMany({ expires_at: { $lte: platform.clock.now() } });
  return deletedCount;
}
