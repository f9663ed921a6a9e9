import { isDuplicateKeyError } from '../db.js';
import { PlatformError } from '../errors.js';
import type { Platform } from '../platform.js';
import { budgetAccounts, rateLimits } from './models.js';

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
