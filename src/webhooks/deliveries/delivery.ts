import { countEvent } from '../../counters/index.js';
import { randomBytes } from 'node:crypto';
import { ObjectId, type Db, type Filter, type UpdateFilter } from 'mongodb';
import { z } from 'zod';
import { carrying, matchesEventPatterns, loadEvent, type DomainEvent } from '../../events/index.js';
import { groupCommit } from '../../group-commit.js';
import { IdString } from '../../ids.js';
import { defineJob } from '../../job.js';
import { post, type FailureTexts, type SendResult } from '../../outbound/index.js';
import type { Platform } from '../../platform.js';
import { VERSION } from '../../version.js';
import { isAppSuspended, suspendedAppIds } from '../../security/index.js';
import { backoff, claimLease, extendLease, releaseLeases, settleLease, settlement, type Lease } from '../../work/lease.js';
import { signatureHeaders, tryOpenSecret, unreadableSecretError, type UnreadableSecret } from '../subscriptions/signing.js';
import { signingSecretsOf } from '../subscriptions/app-subscriptions.js';
import { countAppAttempt, type AttemptEnd } from './app-stats.js';
import { subscriptions, type SubscriptionDocument } from '../subscriptions/models.js';
import { recordFailedAttempt, recordSuccessfulAttempt } from '../subscriptions/health.js';
import { presentHealthEvent } from '../subscriptions/present.js';
import { deliveries, type AttemptDocument, type DeliveryDocument } from './models.js';

/** Attempts are numbered 0 to 8: nine sends at most (spec 6.1 rule 6). */
export const LAST_ATTEMPT = 8;
/**
 * A subscription whose deliveries end `failed` this many times in a row is disabled: as `gone`
 * when each of those deliveries' last attempts answered 410, as `failing` otherwise. A 410 is
 * retried like any non-2xx (spec 6.1, section 3); it disables nothing on its own.
 */
export const DISABLE_AFTER_FAILED_DELIVERIES = 5;
/** A claim outlives the send's own timeout by this much (at most 15 s). */
const claimMarginMs = (timeoutMs: number) => Math.min(15_000, timeoutMs);

/** The delay after failed attempt n: min(base × 2^n, cap); a longer Retry-After (429, 503) wins, still capped. */
export function retryDelaySeconds(platform: Pick<Platform, 'config'>, attempt: number, result: Pick<SendResult, 'status' | 'retryAfterSeconds'>): number {
  const { retryBaseSeconds: base, retryCapSeconds: cap } = platform.config.webhooks;
  const delay = backoff(base, attempt, cap);
  const honoured = (result.status === 429 || result.status === 503) && result.retryAfterSeconds !== null ? result.retryAfterSeconds : 0;
  return Math.min(Math.max(delay, honoured), cap);
}

/** A delivery this process holds the lease on, with what sending it needs when already read. */
export type ClaimedDelivery = { delivery: DeliveryDocument; sub?: SubscriptionDocument; event?: DomainEvent };

/** A delivery lease (src/work/lease.ts): the send's timeout plus the margin, taken by `owner`. */
export const leaseOf = (platform: Platform, owner: string): Lease => ({
  owner,
  ms: platform.config.webhooks.timeoutMs + claimMarginMs(platform.config.webhooks.timeoutMs),
});

/**
 * Claim a due delivery with a lease (one conditional update, src/work/lease.ts), so two
 * workers never send the same attempt: the given one, or the next due one (the sweeper's way
 * of finding deliveries whose job or wake-up was lost). A worker that dies mid-send leaves a
 * lease that expires; the delivery is then due again and is sent again (receivers dedupe by
 * event id). A delivery of an app an operator suspended is not claimed: it waits.
 */
export async function claimDelivery(platform: Platform, owner: string, deliveryId?: string): Promise<DeliveryDocument | null> {
  const now = platform.clock.now();
  const paused = await suspendedAppIds(platform);
  return claimLease(
    deliveries(platform.db),
    leaseOf(platform, owner),
    now,
    {
      ...(deliveryId ? { _id: new ObjectId(deliveryId) } : {}),
      status: 'queued',
      next_attempt_at: { $lte: now },
      ...(paused.length > 0 ? { app_id: { $nin: [...paused] } } : {}),
    },
    { sort: { next_attempt_at: 1 }, set: { updated_at: now } },
  );
}

/**
 * A delivery held since its fan-out or claim may have waited for a free send slot. Before
 * sending, make sure its lease outlives the send, extending it when less than a send's timeout
 * is left. The extension is conditional on the exact lease held (`lease_until` is the fencing
 * token), so a delivery whose lease ran out and was claimed again, even by a sweep in this
 * same process, is not sent twice.
 */
async function keepLease(platform: Platform, delivery: DeliveryDocument, owner: string): Promise<DeliveryDocument | null> {
  const now = platform.clock.now();
  return extendLease(deliveries(platform.db), delivery, leaseOf(platform, owner), now, {
    filter: { status: 'queued' },
    set: { updated_at: now },
    unlessLeftMs: platform.config.webhooks.timeoutMs + 1000,
  });
}

/**
 * An app installation's subscription sends only the topics it still has: after an uninstall
 * (or a re-authorization with fewer scopes), a store topic's delivery still queued or failed
 * is not sent or redelivered (the lifecycle and compliance topics always stay). A merchant's
 * subscription sends what it was made for.
 */
export function stillSubscribed(sub: Pick<SubscriptionDocument, 'app_id' | 'event_types'>, eventType: string): boolean {
  return !sub.app_id || matchesEventPatterns(eventType, sub.event_types);
}

export type AttemptOutcome = 'successful' | 'retry_scheduled' | 'failed' | 'lost_claim' | 'paused';

/**
 * Send one claimed delivery's next attempt and record what happened. `sent` is called once the
 * receiver has answered (or the send failed), before the attempt is recorded: a caller counting
 * sends in flight can start the next one meanwhile.
 */
export async function sendClaimed(platform: Platform, claimed: ClaimedDelivery, owner: string, sent?: () => void): Promise<AttemptOutcome> {
  const delivery = await keepLease(platform, claimed.delivery, owner);
  if (!delivery) return 'lost_claim';
  // An app an operator suspended (docs/operations.md, Security enforcement): not attempted, and not
  // failed either. It stays queued and due, unclaimed, and is sent once the suspension is undone.
  if (delivery.app_id && (await isAppSuspended(platform, delivery.app_id.toHexString()))) {
    await releaseLeases(deliveries(platform.db), [delivery], owner, { filter: { status: 'queued' }, set: { updated_at: platform.clock.now() } });
    return 'paused';
  }
  const sub = claimed.sub ?? (await subscriptions(platform.db).findOne({ _id: delivery.subscription_id, store_id: delivery.store_id }));
  const event = claimed.event ?? (await loadEvent(platform.db, delivery.event_id.toHexString()));
  if (!sub || !sub.active || !event || !stillSubscribed(sub, event.type)) {
    const reason = !sub
      ? 'The subscription was deleted'
      : !sub.active
        ? 'The subscription is disabled'
        : !event
          ? 'The event no longer exists'
          : `The app no longer receives ${event.type} in this store (uninstalled, or its scopes changed)`;
    return finishWithoutSending(platform, delivery, owner, reason);
  }

  const now = platform.clock.now();
  const timestamp = Math.floor(now.getTime() / 1000);
  const body = JSON.stringify({ id: event.id, event_type: event.type, created_at: event.created_at, payload: event.payload });
  const requestId = `whreq_${randomBytes(12).toString('hex')}`;
  const keys = platform.config.secretsKeys;
  const secrets = await signingSecretsOf(platform, sub);
  const current: ReturnType<typeof tryOpenSecret> = secrets.current ? tryOpenSecret(keys, secrets.current) : { ok: false, cause: 'no_secret', keyId: null };
  const previous = secrets.previous && secrets.previous.expires_at > now ? tryOpenSecret(keys, secrets.previous) : null;
  let result: SendResult;
  if (!current.ok || (previous && !previous.ok)) {
    // A secret that cannot be decrypted (SECRETS_KEYS lost its key, or the stored secret is
    // damaged) is a failed attempt like any other: recorded, retried, then failed and counted.
    const which = !current.ok ? 'current' : 'previous';
    const why = (!current.ok ? current : previous) as UnreadableSecret;
    platform.log.error({
      event: 'webhook.signing_secret_unreadable',
      delivery_id: delivery._id.toHexString(),
      subscription_id: sub._id.toHexString(),
      store_id: sub.store_id.toHexString(),
      secret: which,
      cause: why.cause,
      key_id: why.keyId,
    });
    result = { status: null, error: unreadableSecretError(which, why), responsePreview: null, retryAfterSeconds: null, durationMs: 0 };
  } else {
    // The target rules are checked again at every send (src/outbound/targets.ts, guardTarget).
    result = await post(new URL(sub.target_url), {
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': `Emporium-Webhooks/${VERSION}`,
        ...signatureHeaders(current.secret, previous?.ok ? previous.secret : null, timestamp, body),
        'X-Platform-Event-ID': event.id,
        'X-Platform-Event-Type': event.type,
        'X-Platform-Timestamp': String(timestamp),
        'X-Platform-Request-ID': requestId,
        'X-Platform-Trace-ID': `whtrace_${delivery._id.toHexString()}`,
      },
      body,
      connectMs: platform.config.webhooks.connectTimeoutMs,
      totalMs: platform.config.webhooks.timeoutMs,
      texts: WEBHOOK_TEXTS,
      guard: platform.config,
    });
  }
  sent?.();
  const attempt: AttemptDocument = {
    series: delivery.series,
    number: delivery.next_attempt,
    request_id: requestId,
    started_at: now,
    duration_ms: result.durationMs,
    status: result.status,
    error: result.error,
    response_preview: result.responsePreview,
  };
  return recordAttempt(platform, delivery, sub, owner, attempt, result);
}

/** How a failed send reads in the attempt (docs/webhooks.md, Outcomes and retries). */
const WEBHOOK_TEXTS: FailureTexts = {
  timedOut: (ms) => `Webhook endpoint timed out after ${ms} ms`,
  notConnected: (ms) => `Could not connect to the webhook endpoint within ${ms} ms`,
  failed: (code) => `Webhook request failed: ${code}`,
  answered: (status) => `Webhook endpoint returned HTTP ${status}`,
};

async function recordAttempt(
  platform: Platform,
  delivery: DeliveryDocument,
  sub: SubscriptionDocument,
  owner: string,
  attempt: AttemptDocument,
  result: SendResult,
): Promise<AttemptOutcome> {
  const now = platform.clock.now();
  const ok = result.status !== null && result.status >= 200 && result.status < 300;
  let outcome: AttemptOutcome;
  let set: Partial<DeliveryDocument>;
  let retrySeconds: number | null = null;
  if (ok) {
    outcome = 'successful';
    set = { status: 'successful', completed_at: now, next_attempt_at: null };
  } else if (attempt.number >= LAST_ATTEMPT) {
    outcome = 'failed';
    set = { status: 'failed', completed_at: now, next_attempt_at: null };
  } else {
    outcome = 'retry_scheduled';
    retrySeconds = retryDelaySeconds(platform, attempt.number, result);
    set = { next_attempt: attempt.number + 1, next_attempt_at: new Date(now.getTime() + retrySeconds * 1000) };
  }
  // The failure is recorded with its retry delay (spec 6.1 rule 8), beside the delivery's next_attempt_at.
  const recorded: AttemptDocument = { ...attempt, retry_seconds: retrySeconds };
  const op = settlement<DeliveryDocument>(delivery, owner, { $set: { ...set, updated_at: now }, $push: { attempts: recorded } }, { status: 'queued' });
  const settled = await settler(platform.db)({ ...op, requestId: attempt.request_id });
  if (!settled) return 'lost_claim'; // the lease expired and another worker took the delivery over
  countEvent(platform, 'webhooks.attempts', { outcome: ok ? 'successful' : outcome === 'failed' ? 'failed' : 'retry_scheduled' });

  const ids = {
    delivery_id: delivery._id.toHexString(),
    event_id: delivery.event_id.toHexString(),
    subscription_id: sub._id.toHexString(),
    attempt: attempt.number,
  };
  if (sub.app_id) {
    await countAppAttempt(platform, sub.app_id, outcome as AttemptEnd).catch((err: Error) =>
      platform.log.warn({ event: 'webhook.app_stats_failed', ...ids, err: err.message }),
    );
  }
  if (ok) {
    platform.log.info({ event: 'webhook.delivered', ...ids, status: result.status, duration_ms: result.durationMs });
    await recordSuccessfulAttempt(platform, sub, now);
    return outcome;
  }
  platform.log.warn({ event: 'webhook.delivery_failed', ...ids, status: result.status, error: attempt.error, outcome });
  await recordFailedAttempt(platform, sub, { status: result.status, error: attempt.error ?? 'Webhook delivery failed', startedAt: attempt.started_at });
  if (outcome === 'retry_scheduled') await scheduleDispatch(platform, delivery._id.toHexString(), set.next_attempt_at!);
  if (outcome === 'failed') await countFailedDelivery(platform, sub, result.status === 410);
  return outcome;
}

/**
 * The auto-disable rule: one more delivery in a row that ended `failed` (one conditional
 * update of the subscription), and whether it ended on a 410 (`gone` counts those in a row;
 * any other ending resets it). The delivery that makes DISABLE_AFTER_FAILED_DELIVERIES in a row
 * disables the subscription: `gone` when all of them ended on a 410, `failing` otherwise.
 */
async function countFailedDelivery(platform: Platform, sub: SubscriptionDocument, gone: boolean): Promise<void> {
  const counted = await subscriptions(platform.db).findOneAndUpdate(
    { _id: sub._id, store_id: sub.store_id },
    gone
      ? { $inc: { consecutive_failed_deliveries: 1, consecutive_gone_deliveries: 1 } }
      : { $inc: { consecutive_failed_deliveries: 1 }, $set: { consecutive_gone_deliveries: 0 } },
    { returnDocument: 'after' },
  );
  if (!counted?.active || counted.consecutive_failed_deliveries < DISABLE_AFTER_FAILED_DELIVERIES) return;
  await disableSubscription(platform, counted, (counted.consecutive_gone_deliveries ?? 0) >= DISABLE_AFTER_FAILED_DELIVERIES ? 'gone' : 'failing');
}

type Settle = { filter: Filter<DeliveryDocument>; update: UpdateFilter<DeliveryDocument>; requestId: string };
const settlers = new WeakMap<Db, (op: Settle) => Promise<boolean>>();

/**
 * Record attempts (each settling its delivery, conditional on the lease: a settlement of
 * src/work/lease.ts) by group commit: the sends that finish while one write is out are
 * recorded together in the next, one bulk write. Resolves whether this delivery's update took
 * (false: the lease was lost). It stays here rather than in the lease engine: which updates
 * took is read back from the attempts' request ids, a webhooks detail.
 */
function settler(db: Db): (op: Settle) => Promise<boolean> {
  let settle = settlers.get(db);
  if (!settle) {
    settle = groupCommit((ops: Settle[]) => settleEach(db, ops), { maxBatch: 100 });
    settlers.set(db, settle);
  }
  return settle;
}

async function settleEach(db: Db, ops: Settle[]): Promise<boolean[]> {
  if (ops.length === 1) return [(await deliveries(db).updateOne(ops[0]!.filter, ops[0]!.update)).matchedCount === 1];
  const result = await deliveries(db).bulkWrite(
    ops.map(({ filter, update }) => ({ updateOne: { filter, update } })),
    { ordered: false },
  );
  if (result.matchedCount === ops.length) return ops.map(() => true);
  // Some leases were lost: the updates that took are those whose attempt is now recorded.
  const ids = ops.map((op) => op.filter._id as ObjectId);
  const docs = await deliveries(db)
    .find({ _id: { $in: ids } }, { projection: { 'attempts.request_id': 1 } })
    .toArray();
  const recorded = new Set(docs.flatMap((d) => d.attempts.map((a) => a.request_id)));
  return ops.map((op) => recorded.has(op.requestId));
}

/** A disable retries this often when a concurrent change of the subscription got there first. */
const DISABLE_ATTEMPTS = 5;

/**
 * Disable an active subscription, carrying `webhook_subscription.disabled` in the same write:
 * conditional on the version read, so the event names the version this write makes. A
 * subscription that stopped being active meanwhile is left as it is. If it kept changing, it
 * stays active with its failure count at the limit, and the next failed delivery disables it.
 */
async function disableSubscription(platform: Platform, sub: SubscriptionDocument, reason: 'gone' | 'failing'): Promise<void> {
  let current: SubscriptionDocument | null = sub;
  for (let attempt = 1; attempt <= DISABLE_ATTEMPTS; attempt++) {
    if (!current?.active) return;
    const now = platform.clock.now();
    const id = current._id.toHexString();
    const disabled = { active: false, disabled_reason: reason, disabled_at: now, health: 'disabled' as const, updated_at: now };
    const pending = [
      platform.events.pending(
        'webhook_subscription.disabled',
        current.store_id,
        { webhook_subscription: presentHealthEvent({ ...current, ...disabled }) },
        `webhook_subscription.disabled:${id}:v${current.version + 1}`,
      ),
    ];
    const result = await subscriptions(platform.db).updateOne(
      { _id: current._id, store_id: current.store_id, active: true, version: current.version },
      carrying({ $set: disabled, $inc: { version: 1 } }, pending),
    );
    if (result.matchedCount === 1) {
      platform.log.warn({ event: 'webhook.subscription_disabled', subscription_id: id, store_id: current.store_id.toHexString(), reason });
      await platform.events.settle(subscriptions(platform.db), current._id, pending);
      return;
    }
    current = await subscriptions(platform.db).findOne({ _id: sub._id, store_id: sub.store_id });
  }
  platform.log.warn({ event: 'webhook.subscription_disable_deferred', subscription_id: sub._id.toHexString(), store_id: sub.store_id.toHexString(), reason });
}

async function finishWithoutSending(platform: Platform, delivery: DeliveryDocument, owner: string, reason: string): Promise<AttemptOutcome> {
  const now = platform.clock.now();
  const attempt: AttemptDocument = {
    series: delivery.series,
    number: delivery.next_attempt,
    request_id: 'none',
    started_at: now,
    duration_ms: 0,
    status: null,
    error: reason,
    response_preview: null,
    retry_seconds: null,
  };
  const updated = await settleLease(
    deliveries(platform.db),
    delivery,
    owner,
    { $set: { status: 'failed', completed_at: now, next_attempt_at: null, updated_at: now }, $push: { attempts: attempt } },
    { status: 'queued' },
  );
  return updated ? 'failed' : 'lost_claim';
}

export type DispatchCounts = { claimed: number; successful: number; retry_scheduled: number; failed: number };

/**
 * Send deliveries this process already holds (`claimed`, from a fan-out), then claim and send
 * the given ones, or any due ones up to `limit`, with a few sends in flight at once.
 */
export async function dispatchDue(
  platform: Platform,
  owner: string,
  options: { claimed?: ClaimedDelivery[]; deliveryIds?: string[]; limit?: number; concurrency?: number } = {},
): Promise<DispatchCounts> {
  const counts: DispatchCounts = { claimed: 0, successful: 0, retry_scheduled: 0, failed: 0 };
  const held = [...(options.claimed ?? [])];
  const queue = options.deliveryIds ? [...options.deliveryIds] : null;
  let budget = options.limit ?? 100;
  const next = async (): Promise<ClaimedDelivery | null> => {
    if (held.length > 0) return held.shift()!;
    if (queue) {
      while (queue.length > 0) {
        const delivery = await claimDelivery(platform, owner, queue.shift()!);
        if (delivery) return { delivery };
      }
      return null;
    }
    if (budget-- <= 0) return null;
    const delivery = await claimDelivery(platform, owner);
    return delivery ? { delivery } : null;
  };
  await Promise.all(
    Array.from({ length: options.concurrency ?? 8 }, async () => {
      for (let d = await next(); d; d = await next()) {
        counts.claimed++;
        const outcome = await sendClaimed(platform, d, owner);
        if (outcome !== 'lost_claim' && outcome !== 'paused') counts[outcome]++;
      }
    }),
  );
  return counts;
}

/**
 * Sends one delivery (claimed by this process: `platform.process.id`). Declared beside the
 * sending, which schedules it again for a retry (and a redelivery schedules it: log.ts).
 */
export const DispatchDelivery = defineJob({
  name: 'webhooks.dispatch-delivery',
  group: 'webhooks',
  concurrency: 20,
  payload: z.object({ delivery_id: IdString('delivery') }),
  run: (platform, { delivery_id }) => dispatchDue(platform, platform.process.id, { deliveryIds: [delivery_id] }),
});

export async function scheduleDispatch(platform: Pick<Platform, 'jobs'>, deliveryId: string, at: Date): Promise<void> {
  await platform.jobs.enqueue(DispatchDelivery, { delivery_id: deliveryId }, { at });
}
