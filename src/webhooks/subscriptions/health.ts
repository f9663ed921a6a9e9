import type { Db } from 'mongodb';
import { carrying } from '../../events/index.js';
import { groupCommit } from '../../group-commit.js';
import type { Platform } from '../../platform.js';
import { presentHealthEvent } from './present.js';
import { subscriptions, type SubscriptionDocument } from './models.js';

/**
 * A subscription's health (docs/webhooks.md, Subscription health), kept as deliveries finish
 * attempts. It starts failing when this many attempts in a row failed, the first of them at
 * least one base retry delay ago (120 s): a failure that a retry or two absorbs (a deploy, a
 * burst of events at a moment's outage) does not tell anyone. Disabling is the older rule of
 * delivery.ts (DISABLE_AFTER_FAILED_DELIVERIES), which sets `health: disabled` in its write.
 */
export const FAILING_AFTER_FAILED_ATTEMPTS = 3;
/** How much of an attempt's error is kept in `last_error`. */
const LAST_ERROR_MAX = 300;
/** While nothing else changes, `last_success_at` is written at most this often (each success would be a write). */
const SUCCESS_WRITE_EVERY_MS = 1000;

/** What a subscription's health becomes at its creation, a re-enable or a re-authorization: a new episode. */
export const FRESH_HEALTH = { health: 'healthy' as const, failure_streak: 0 };

type Subscription = Pick<SubscriptionDocument, '_id' | 'store_id'>;

/**
 * A successful attempt: the streak and the failed-deliveries counts are reset, the health is
 * healthy again (the episode ends: the next failure starts a new one) and `last_success_at`
 * is the attempt's. Conditional, so a healthy subscription is written at most once a second;
 * and only while active (a success that lands after a disable does not undo it). Recorded by
 * group commit: the successes that finish while one write is out go together in the next.
 */
export function recordSuccessfulAttempt(platform: Pick<Platform, 'db'>, sub: Subscription, at: Date): Promise<void> {
  return successWriter(platform.db)({ sub, at });
}

const successWriters = new WeakMap<Db, (op: { sub: Subscription; at: Date }) => Promise<void>>();

function successWriter(db: Db) {
  let write = successWriters.get(db);
  if (!write) {
    write = groupCommit(
      async (ops: { sub: Subscription; at: Date }[]) => {
        await subscriptions(db).bulkWrite(
          ops.map(({ sub, at }) => ({
            updateOne: {
              filter: {
                _id: sub._id,
                store_id: sub.store_id,
                active: true,
                $or: [
                  { failure_streak: { $gt: 0 } },
                  { consecutive_failed_deliveries: { $gt: 0 } },
                  { consecutive_gone_deliveries: { $gt: 0 } },
                  { health: 'failing' },
                  { last_success_at: null },
                  { last_success_at: { $lt: new Date(at.getTime() - SUCCESS_WRITE_EVERY_MS) } },
                ],
              },
              update: {
                $set: { ...FRESH_HEALTH, consecutive_failed_deliveries: 0, consecutive_gone_deliveries: 0, last_success_at: at },
                $unset: { failing_since: '' },
              },
            },
          })),
          { ordered: false },
        );
        return ops.map(() => undefined);
      },
      { maxBatch: 100 },
    );
    successWriters.set(db, write);
  }
  return write;
}

export type FailedAttempt = { status: number | null; error: string; startedAt: Date };

/**
 * A failed attempt: one more in the streak, the last error, and the streak's start (`$min`: the
 * earliest failed attempt since the last success). When this attempt makes the subscription
 * `failing`, the change to `failing` is one conditional update carrying
 * `webhook_subscription.failing` (healthy, active, and the same streak still on), so of
 * concurrent workers exactly one makes it and its event (heard by the notices) is recorded once.
 */
export async function recordFailedAttempt(platform: Platform, sub: Subscription, attempt: FailedAttempt): Promise<void> {
  const now = platform.clock.now();
  const after = await subscriptions(platform.db).findOneAndUpdate(
    { _id: sub._id, store_id: sub.store_id },
    {
      $inc: { failure_streak: 1 },
      $set: { last_error: { status: attempt.status, message: attempt.error.slice(0, LAST_ERROR_MAX), at: now } },
      $min: { failing_since: attempt.startedAt },
    },
    { returnDocument: 'after' },
  );
  if (!after || !startsFailing(platform, after, now)) return;
  await markFailing(platform, after);
}

function startsFailing(platform: Pick<Platform, 'config'>, s: SubscriptionDocument, now: Date): s is SubscriptionDocument & { failing_since: Date } {
  const settleMs = platform.config.webhooks.retryBaseSeconds * 1000;
  return (
    s.active &&
    (s.health ?? 'healthy') === 'healthy' &&
    (s.failure_streak ?? 0) >= FAILING_AFTER_FAILED_ATTEMPTS &&
    s.failing_since !== undefined &&
    s.failing_since.getTime() <= now.getTime() - settleMs
  );
}

async function markFailing(platform: Platform, s: SubscriptionDocument & { failing_since: Date }): Promise<void> {
  const id = s._id.toHexString();
  const pending = [
    platform.events.pending(
      'webhook_subscription.failing',
      s.store_id,
      { webhook_subscription: presentHealthEvent({ ...s, health: 'failing' }) },
      // The episode is named by its first failure: one event per episode, whoever records it.
      `webhook_subscription.failing:${id}:${s.failing_since.getTime()}`,
    ),
  ];
  const marked = await subscriptions(platform.db).updateOne(
    {
      _id: s._id,
      store_id: s.store_id,
      active: true,
      health: { $nin: ['failing', 'disabled'] },
      failing_since: s.failing_since,
      failure_streak: { $gte: FAILING_AFTER_FAILED_ATTEMPTS },
    },
    carrying<SubscriptionDocument>({ $set: { health: 'failing' } }, pending),
  );
  if (marked.matchedCount !== 1) return; // another worker made it, or a success ended the streak
  platform.log.warn({
    event: 'webhook.subscription_failing',
    subscription_id: id,
    store_id: s.store_id.toHexString(),
    failure_streak: s.failure_streak,
    failing_since: s.failing_since.toISOString(),
  });
  await platform.events.settle(subscriptions(platform.db), s._id, pending);
}
