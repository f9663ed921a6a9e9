import type { WithId } from 'mongodb';
import { isDuplicateKeyError } from '../db.js';
import type { BudgetSpend, BudgetState } from '../http/context.js';
import type { Platform } from '../platform.js';
import { ownValue } from '../own-keys.js';
import { budgetAccounts, type BudgetAccountDocument } from './models.js';

/**
 * The leaky bucket shared by every web process: the store-scoped REST admin API's request
 * budget and the admin GraphQL API's query cost (docs/conventions.md, Rate limits).
 *
 * A bucket holds at most `capacity` points and refills `restoreRate` points a second. It is
 * kept as one number, its theoretical arrival time `tat` (GCRA, the generic cell rate
 * algorithm): the time (ms) at which it is full again, in the caller's budget account
 * (`buckets.<scope>`). With T = 1000 / restoreRate ms a point, a spend of `cost` is allowed
 * iff max(tat, now) + cost·T − now ≤ capacity·T, and then tat becomes max(tat, now) + cost·T.
 * Points available now: capacity − max(0, tat − now) / T.
 *
 * A spend is a conditional update of the account, no read first (the condition is the
 * admission rule, so concurrent spends from any number of processes never admit more than
 * capacity + restoreRate × elapsed time):
 * - full bucket (`tat <= now`): `$set` tat = now + cost·T;
 * - partly spent (`now < tat <= now + (capacity − cost)·T`): `$inc` tat by cost·T.
 * Which is tried first follows what this process last saw of the bucket (a hint; a wrong
 * guess costs one more update). When neither matches, the account is read: a missing bucket
 * (or account) is opened by an upsert that carries the spend (a concurrent one that opened it
 * first makes it a duplicate key, and the spend is tried again); a bucket without room means
 * the spend is refused, and a refused spend writes nothing.
 *
 * Every write also pushes the account's `expires_at` to at least a day after the bucket is
 * full again, so the sweep of idle accounts (jobs.ts) only removes full buckets: a missing
 * bucket is a full one, and nothing is lost.
 */

/** A scope names a bucket in an account: `rest-<store id>`, `graphql-<store id>`. */
const SCOPE = /^[a-z][A-Za-z0-9_-]{0,79}$/;
/** An account is swept this long after its buckets are all full again (or its sessions end, for one opened at sign-in). */
const IDLE_MS = 24 * 60 * 60 * 1000;
/** How many times a spend or refund starts over after a concurrent change between its updates and its read. */
const ATTEMPTS = 3;

/** Give back up to `points` of a bucket (a GraphQL query's requested cost less its actual cost). */
export type BucketRefund = { account: string; scope: string; points: number; capacity: number; restoreRate: number };

/** Per bucket, the `tat` this process last wrote or read: which of the two updates to try first. Bounded; a hint only. */
const lastSeen = new Map<string, number>();
const LAST_SEEN_MAX = 10_000;
function remember(key: string, tat: number) {
  if (lastSeen.size >= LAST_SEEN_MAX && !lastSeen.has(key)) lastSeen.clear();
  lastSeen.set(key, tat);
}

function checked(kind: string, bucket: { account: string; scope: string; capacity: number; restoreRate: number }, amount: number) {
  if (!SCOPE.test(bucket.scope)) throw new Error(`${kind}: a scope is a lower-case letter then letters, digits, _ and - (got ${JSON.stringify(bucket.scope)})`);
  if (!bucket.account) throw new Error(`${kind}: no account`);
  if (!(Number.isFinite(bucket.capacity) && bucket.capacity > 0)) throw new Error(`${kind}: capacity must be a positive number (got ${bucket.capacity})`);
  if (!(Number.isFinite(bucket.restoreRate) && bucket.restoreRate > 0))
    throw new Error(`${kind}: restoreRate must be a positive number (got ${bucket.restoreRate})`);
  if (!(Number.isFinite(amount) && amount >= 0)) throw new Error(`${kind}: points must be a number, 0 or more (got ${amount})`);
  return { field: `buckets.${bucket.scope}`, msPerPoint: 1000 / bucket.restoreRate, hint: `${bucket.account}\n${bucket.scope}` };
}

const tatOf = (doc: WithId<BudgetAccountDocument> | null, scope: string) => (doc?.buckets ? ownValue(doc.buckets, scope) : undefined);

/**
 * The state of a bucket whose arrival time is `tat` (undefined: no bucket yet, so full), seen
 * at `now`, for a spend of `cost` that was (or was not) allowed.
 */
function bucketState(bucket: Omit<BudgetSpend, 'account' | 'scope'>, tat: number | undefined, now: number, allowed: boolean): BudgetState {
  const { capacity, restoreRate, cost } = bucket;
  const msPerPoint = 1000 / restoreRate;
  const owed = Math.max(0, (tat ?? now) - now);
  // Rounded down, with a margin for the floating point of T (1000 / 667 is not exact).
  const available = Math.max(0, Math.floor(capacity - owed / msPerPoint + 1e-6));
  const fullInSeconds = Math.ceil(owed / 1000);
  const wait = cost > capacity ? owed : owed - (capacity - cost) * msPerPoint;
  const retryAfterSeconds = allowed ? 0 : Math.max(1, Math.ceil(wait / 1000));
  return { allowed, capacity, restoreRate, available, fullInSeconds, retryAfterSeconds };
}

/** Spend `cost` points from a bucket if they fit now; refused, it changes nothing. */
export async function spendBucket(platform: Pick<Platform, 'db' | 'clock'>, spend: BudgetSpend): Promise<BudgetState> {
  const { field, msPerPoint, hint } = checked('spendBucket', spend, spend.cost);
  const accounts = budgetAccounts(platform.db);
  const result = (doc: WithId<BudgetAccountDocument> | null, now: number, allowed: boolean) => {
    const tat = tatOf(doc, spend.scope);
    if (tat !== undefined) remember(hint, tat);
    return bucketState(spend, tat, now, allowed);
  };

  for (let attempt = 0; ; attempt++) {
    const now = platform.clock.now().getTime();
    if (spend.cost > spend.capacity) return result(await accounts.findOne({ _id: spend.account }), now, false);
    const charge = spend.cost * msPerPoint;
    // The whole account comes back (FerretDB 1.24 takes no projection on findAndModify): a bucket per store and API the caller used.
    const options = { returnDocument: 'after' } as const;
    const expires = { $max: { expires_at: new Date(now + spend.capacity * msPerPoint + IDLE_MS) } };
    const whenFull = () => accounts.findOneAndUpdate({ _id: spend.account, [field]: { $lte: now } }, { $set: { [field]: now + charge }, ...expires }, options);
    const onTop = () =>
      accounts.findOneAndUpdate(
        { _id: spend.account, [field]: { $gt: now, $lte: now + (spend.capacity - spend.cost) * msPerPoint } },
        { $inc: { [field]: charge }, ...expires },
        options,
      );
    for (const update of (lastSeen.get(hint) ?? 0) > now ? [onTop, whenFull] : [whenFull, onTop]) {
      const doc = await update();
      if (doc) return result(doc, now, true);
    }

    const account = await accounts.findOne({ _id: spend.account });
    const tat = tatOf(account, spend.scope);
    // No room: refused. And when the bucket keeps changing between the updates and the read (concurrent spends, refunds or its opening), refused as it is.
    if ((tat !== undefined && tat > now + (spend.capacity - spend.cost) * msPerPoint) || attempt + 1 >= ATTEMPTS) return result(account, now, false);
    if (tat === undefined) {
      try {
        // Opens the bucket (and the account when it is not open) with this spend in it.
        const opened = await accounts.findOneAndUpdate(
          { _id: spend.account, [field]: { $exists: false } },
          { $set: { [field]: now + charge }, ...expires },
          { ...options, upsert: true },
        );
        if (opened) return result(opened, now, true);
      } catch (err) {
        // A concurrent spend opened it first: the account exists with the bucket, so the upsert collided with its `_id`.
        if (!isDuplicateKeyError(err)) throw err;
      }
    }
    // The bucket has room after all, or was just opened: start over.
  }
}

/**
 * Give back up to `points` of a bucket: its arrival time moves back by points·T, never before
 * now (a bucket is never fuller than full). Nothing to give back (a full or missing bucket)
 * changes nothing. Answers the bucket's state afterwards (`allowed` true).
 */
export async function refundBucket(platform: Pick<Platform, 'db' | 'clock'>, refund: BucketRefund): Promise<BudgetState> {
  const { field, msPerPoint, hint } = checked('refundBucket', refund, refund.points);
  const accounts = budgetAccounts(platform.db);
  const result = (doc: WithId<BudgetAccountDocument> | null, now: number) => {
    const tat = tatOf(doc, refund.scope);
    if (tat !== undefined) remember(hint, tat);
    return bucketState({ ...refund, cost: 0 }, tat, now, true);
  };
  const back = refund.points * msPerPoint;
  for (let attempt = 0; ; attempt++) {
    const now = platform.clock.now().getTime();
    if (back > 0) {
      const options = { returnDocument: 'after' } as const;
      const partly = await accounts.findOneAndUpdate({ _id: refund.account, [field]: { $gte: now + back } }, { $inc: { [field]: -back } }, options);
      if (partly) return result(partly, now);
      const toFull = await accounts.findOneAndUpdate({ _id: refund.account, [field]: { $gt: now, $lt: now + back } }, { $set: { [field]: now } }, options);
      if (toFull) return result(toFull, now);
    }
    const account = await accounts.findOne({ _id: refund.account });
    const tat = tatOf(account, refund.scope);
    // Full or missing: nothing to give back. Otherwise a concurrent spend moved it between the two updates: start over.
    if (back === 0 || tat === undefined || tat <= now || attempt + 1 >= ATTEMPTS) return result(account, now);
  }
}
