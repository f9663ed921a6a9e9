import { randomBytes } from 'node:crypto';
import { lookup as dnsLookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { ObjectId, type Db, type Filter, type UpdateFilter } from 'mongodb';
import { findEventsNotFannedOut, loadEvent, loadEventsNotFannedOut, markFannedOut, matchesEventPatterns, type DomainEvent } from '../events/index.js';
import { insertEach } from '../db.js';
import { groupCommit } from '../group-commit.js';
import type { Platform } from '../platform.js';
import { VERSION } from '../version.js';
import { scheduleDispatch } from './jobs.js';
import { postWebhook, type SendResult } from './sender.js';
import { openSecret, signatureHeader } from './signing.js';
import { checkResolvedAddress, isIpLiteral } from './targets.js';
import { deliveries, subscriptions, type AttemptDocument, type DeliveryDocument, type SubscriptionDocument } from './store.js';

/** Attempts are numbered 0 to 8: nine sends at most (spec 6.1 rule 6). */
export const LAST_ATTEMPT = 8;
/** A subscription whose deliveries end `failed` this many times in a row is disabled. */
export const DISABLE_AFTER_FAILED_DELIVERIES = 5;
/** A claim outlives the send's own timeout by this much (at most 15 s). */
const claimMarginMs = (timeoutMs: number) => Math.min(15_000, timeoutMs);

/** The delay after failed attempt n: min(base × 2^n, cap); a longer Retry-After (429, 503) wins, still capped. */
export function retryDelaySeconds(platform: Pick<Platform, 'config'>, attempt: number, result: Pick<SendResult, 'status' | 'retryAfterSeconds'>): number {
  const { retryBaseSeconds: base, retryCapSeconds: cap } = platform.config.webhooks;
  const delay = Math.min(base * 2 ** attempt, cap);
  const honoured = (result.status === 429 || result.status === 503) && result.retryAfterSeconds !== null ? result.retryAfterSeconds : 0;
  return Math.min(Math.max(delay, honoured), cap);
}

/** A delivery this process holds the lease on, with what sending it needs when already read. */
export type ClaimedDelivery = { delivery: DeliveryDocument; sub?: SubscriptionDocument; event?: DomainEvent };

const leaseMs = (platform: Platform) => platform.config.webhooks.timeoutMs + claimMarginMs(platform.config.webhooks.timeoutMs);

/**
 * Create one delivery per (event, active matching subscription) for the given events, in a
 * few commands whatever their number: one read of the events, one of the subscriptions of
 * their stores, one insert of all deliveries, one update marking the events fanned out. The
 * unique index on the (event, subscription) pair makes a repeated fan-out (a retried job, the
 * sweeper, the wake-up) create nothing twice, and an event already fanned out is not looked
 * at again.
 *
 * Each delivery is created already claimed by `owner` (the insert is the claim: only one
 * fan-out can create the pair), so the caller sends it at once without a second write to
 * claim it. If the caller dies first, the lease expires and the sweeper sends it.
 */
export async function fanOutEvents(platform: Platform, eventIds: readonly string[], owner: string): Promise<ClaimedDelivery[]> {
  const pending = await loadEventsNotFannedOut(platform.db, eventIds);
  if (pending.length === 0) return [];
  const now = platform.clock.now();
  const stores = [...new Set(pending.map((e) => e.store_id))].map((id) => new ObjectId(id));
  const subs = await subscriptions(platform.db)
    .find({ store_id: stores.length === 1 ? stores[0]! : { $in: stores }, active: true })
    .toArray();
  const planned: ClaimedDelivery[] = [];
  for (const event of pending) {
    for (const sub of subs) {
      if (sub.store_id.toHexString() !== event.store_id || !matchesEventPatterns(event.type, sub.event_types)) continue;
      const delivery: DeliveryDocument = {
        _id: new ObjectId(),
        store_id: sub.store_id,
        event_id: new ObjectId(event.id),
        subscription_id: sub._id,
        event_type: event.type,
        status: 'queued',
        next_attempt: 0,
        next_attempt_at: now,
        lease_until: new Date(now.getTime() + leaseMs(platform)),
        lease_owner: owner,
        attempts: [],
        completed_at: null,
        series: 1,
        created_at: now,
        updated_at: now,
      };
      planned.push({ delivery, sub, event });
    }
  }
  const created = await insertDeliveries(platform, planned);
  await markFannedOut(platform.db, pending.map((e) => e.id), now);
  return created;
}

/** Insert the planned deliveries in one unordered command; those another fan-out created first are left out. */
async function insertDeliveries(platform: Platform, planned: ClaimedDelivery[]): Promise<ClaimedDelivery[]> {
  const outcomes = await insertEach(deliveries(platform.db), planned.map((p) => p.delivery));
  const failed = outcomes.find((o) => o instanceof Error);
  if (failed) throw failed;
  return planned.filter((_, i) => outcomes[i] === 'inserted');
}

export async function fanOutEvent(platform: Platform, eventId: string, owner: string): Promise<ClaimedDelivery[]> {
  return fanOutEvents(platform, [eventId], owner);
}

/** Events the fast path missed (a lost wake-up, a crash before the job ran), fanned out and claimed by `owner`. */
export async function fanOutPendingEvents(platform: Platform, owner: string, limit = 200): Promise<{ events: number; claimed: ClaimedDelivery[] }> {
  const ids = await findEventsNotFannedOut(platform.db, platform.clock.now(), limit);
  return { events: ids.length, claimed: await fanOutEvents(platform, ids, owner) };
}

/**
 * Claim a due delivery with a lease (one conditional update), so two workers never send the
 * same attempt. A worker that dies mid-send leaves a lease that expires; the delivery is then
 * due again and is sent again (receivers dedupe by event id).
 */
export async function claimDelivery(platform: Platform, owner: string, deliveryId?: string): Promise<DeliveryDocument | null> {
  const now = platform.clock.now();
  return deliveries(platform.db).findOneAndUpdate(
    {
      ...(deliveryId ? { _id: new ObjectId(deliveryId) } : {}),
      status: 'queued',
      next_attempt_at: { $lte: now },
      $or: [{ lease_until: null }, { lease_until: { $lte: now } }],
    },
    { $set: { lease_until: new Date(now.getTime() + leaseMs(platform)), lease_owner: owner, updated_at: now } },
    { sort: { next_attempt_at: 1 }, returnDocument: 'after' },
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
  const left = delivery.lease_until ? delivery.lease_until.getTime() - now.getTime() : 0;
  if (left > platform.config.webhooks.timeoutMs + 1000) return delivery;
  return deliveries(platform.db).findOneAndUpdate(
    { _id: delivery._id, lease_owner: owner, status: 'queued', lease_until: delivery.lease_until },
    { $set: { lease_until: new Date(now.getTime() + leaseMs(platform)), updated_at: now } },
    { returnDocument: 'after' },
  );
}

export type AttemptOutcome = 'successful' | 'retry_scheduled' | 'failed' | 'lost_claim';

/**
 * Send one claimed delivery's next attempt and record what happened. `sent` is called once the
 * receiver has answered (or the send failed), before the attempt is recorded: a caller counting
 * sends in flight can start the next one meanwhile.
 */
export async function sendClaimed(platform: Platform, claimed: ClaimedDelivery, owner: string, sent?: () => void): Promise<AttemptOutcome> {
  const delivery = await keepLease(platform, claimed.delivery, owner);
  if (!delivery) return 'lost_claim';
  const sub = claimed.sub ?? (await subscriptions(platform.db).findOne({ _id: delivery.subscription_id, store_id: delivery.store_id }));
  const event = claimed.event ?? (await loadEvent(platform.db, delivery.event_id.toHexString()));
  if (!sub || !sub.active || !event) {
    const reason = !sub ? 'The subscription was deleted' : !sub.active ? 'The subscription is disabled' : 'The event no longer exists';
    return finishWithoutSending(platform, delivery, owner, reason);
  }

  const now = platform.clock.now();
  const timestamp = Math.floor(now.getTime() / 1000);
  const body = JSON.stringify({ id: event.id, event_type: event.type, created_at: event.created_at, payload: event.payload });
  const secrets = [openSecret(platform.config.secretsKeys, sub.secret)];
  if (sub.previous_secret && sub.previous_secret.expires_at > now) secrets.push(openSecret(platform.config.secretsKeys, sub.previous_secret));
  const signed = signatureHeader(secrets, timestamp, body);
  const requestId = `whreq_${randomBytes(12).toString('hex')}`;
  const url = new URL(sub.target_url);
  const refusal = platform.config.env === 'production' && isIpLiteral(url.hostname) ? checkResolvedAddress(platform.config, url.hostname, url.hostname) : { ok: true as const };
  const result = !refusal.ok ? refused(refusal.reason) : await postWebhook(
    url,
    {
      'Content-Type': 'application/json',
      'User-Agent': `Emporium-Webhooks/${VERSION}`,
      'X-Platform-Hmac-SHA256': signed,
      'X-Platform-Signature': signed,
      'X-Platform-Event-ID': event.id,
      'X-Platform-Event-Type': event.type,
      'X-Platform-Timestamp': String(timestamp),
      'X-Platform-Request-ID': requestId,
      'X-Platform-Trace-ID': `whtrace_${delivery._id.toHexString()}`,
    },
    body,
    { connectMs: platform.config.webhooks.connectTimeoutMs, totalMs: platform.config.webhooks.timeoutMs },
    platform.config.env === 'production' ? checkedLookup(platform) : undefined,
  );
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

const refused = (reason: string): SendResult => ({ status: null, error: `Target refused: ${reason}`, responsePreview: null, retryAfterSeconds: null, durationMs: 0 });

/**
 * In production, the target is checked again after DNS resolution, at every send: a host
 * that now resolves to a private, loopback or link-local address (and is not allow-listed) is
 * not contacted. The attempt fails with the reason and is retried like any failure.
 */
function checkedLookup(platform: Platform): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const bad = addresses.map((a) => checkResolvedAddress(platform.config, hostname, a.address)).find((v) => !v.ok);
      if (bad && !bad.ok) return callback(Object.assign(new Error(`Target refused: ${bad.reason}`), { code: 'ETARGETREFUSED' }), '', 0);
      const first = addresses[0]!;
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: typeof addresses) => void)(null, addresses);
      callback(null, first.address, first.family);
    });
  };
}

async function recordAttempt(platform: Platform, delivery: DeliveryDocument, sub: SubscriptionDocument, owner: string, attempt: AttemptDocument, result: SendResult): Promise<AttemptOutcome> {
  const now = platform.clock.now();
  const mine = { _id: delivery._id, lease_owner: owner, lease_until: delivery.lease_until, status: 'queued' as const };
  const ok = result.status !== null && result.status >= 200 && result.status < 300;
  const gone = result.status === 410;
  let outcome: AttemptOutcome;
  let set: Partial<DeliveryDocument>;
  if (ok) {
    outcome = 'successful';
    set = { status: 'successful', completed_at: now, next_attempt_at: null };
  } else if (gone || attempt.number >= LAST_ATTEMPT) {
    outcome = 'failed';
    set = { status: 'failed', completed_at: now, next_attempt_at: null };
  } else {
    outcome = 'retry_scheduled';
    set = { next_attempt: attempt.number + 1, next_attempt_at: new Date(now.getTime() + retryDelaySeconds(platform, attempt.number, result) * 1000) };
  }
  const settled = await settler(platform.db)({ filter: mine, update: { $set: { ...set, lease_until: null, lease_owner: null, updated_at: now }, $push: { attempts: attempt } }, requestId: attempt.request_id });
  if (!settled) return 'lost_claim'; // the lease expired and another worker took the delivery over

  const ids = { delivery_id: delivery._id.toHexString(), event_id: delivery.event_id.toHexString(), subscription_id: sub._id.toHexString(), attempt: attempt.number };
  if (ok) {
    platform.log.info({ event: 'webhook.delivered', ...ids, status: result.status, duration_ms: result.durationMs });
    if (sub.consecutive_failed_deliveries > 0) await subscriptions(platform.db).updateOne({ _id: sub._id, store_id: sub.store_id }, { $set: { consecutive_failed_deliveries: 0 } });
    return outcome;
  }
  platform.log.warn({ event: 'webhook.delivery_failed', ...ids, status: result.status, error: attempt.error, outcome });
  if (gone) await disableSubscription(platform, sub, 'gone');
  if (outcome === 'retry_scheduled') await scheduleDispatch(platform, delivery._id.toHexString(), set.next_attempt_at!);
  if (outcome === 'failed' && !gone) {
    const counted = await subscriptions(platform.db).findOneAndUpdate({ _id: sub._id, store_id: sub.store_id }, { $inc: { consecutive_failed_deliveries: 1 } }, { returnDocument: 'after' });
    if (counted && counted.active && counted.consecutive_failed_deliveries >= DISABLE_AFTER_FAILED_DELIVERIES) await disableSubscription(platform, counted, 'failing');
  }
  return outcome;
}

type Settle = { filter: Filter<DeliveryDocument>; update: UpdateFilter<DeliveryDocument>; requestId: string };
const settlers = new WeakMap<Db, (op: Settle) => Promise<boolean>>();

/**
 * Record attempts (each settling its delivery, conditional on the lease) by group commit: the
 * sends that finish while one write is out are recorded together in the next, one bulk write.
 * Resolves whether this delivery's update took (false: the lease was lost).
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
  const result = await deliveries(db).bulkWrite(ops.map(({ filter, update }) => ({ updateOne: { filter, update } })), { ordered: false });
  if (result.matchedCount === ops.length) return ops.map(() => true);
  // Some leases were lost: the updates that took are those whose attempt is now recorded.
  const ids = ops.map((op) => op.filter._id as ObjectId);
  const docs = await deliveries(db).find({ _id: { $in: ids } }, { projection: { 'attempts.request_id': 1 } }).toArray();
  const recorded = new Set(docs.flatMap((d) => d.attempts.map((a) => a.request_id)));
  return ops.map((op) => recorded.has(op.requestId));
}

async function disableSubscription(platform: Platform, sub: SubscriptionDocument, reason: 'gone' | 'failing'): Promise<void> {
  const now = platform.clock.now();
  const doc = await subscriptions(platform.db).findOneAndUpdate(
    { _id: sub._id, store_id: sub.store_id, active: true },
    { $set: { active: false, disabled_reason: reason, disabled_at: now, updated_at: now }, $inc: { version: 1 } },
    { returnDocument: 'after' },
  );
  if (!doc) return;
  platform.log.warn({ event: 'webhook.subscription_disabled', subscription_id: doc._id.toHexString(), store_id: doc.store_id.toHexString(), reason });
  await platform.events.emit(
    'webhook_subscription.disabled',
    doc.store_id,
    { webhook_subscription: { id: doc._id.toHexString(), target_url: doc.target_url, disabled_reason: reason, disabled_at: now.toISOString() } },
    `webhook_subscription.disabled:${doc._id.toHexString()}:v${doc.version}`,
  );
}

async function finishWithoutSending(platform: Platform, delivery: DeliveryDocument, owner: string, reason: string): Promise<AttemptOutcome> {
  const now = platform.clock.now();
  const updated = await deliveries(platform.db).findOneAndUpdate(
    { _id: delivery._id, lease_owner: owner, status: 'queued' },
    { $set: { status: 'failed', completed_at: now, next_attempt_at: null, lease_until: null, lease_owner: null, updated_at: now }, $push: { attempts: { series: delivery.series, number: delivery.next_attempt, request_id: 'none', started_at: now, duration_ms: 0, status: null, error: reason, response_preview: null } } },
  );
  return updated ? 'failed' : 'lost_claim';
}

export type DispatchCounts = { claimed: number; successful: number; retry_scheduled: number; failed: number };

/**
 * Send deliveries this process already holds (`claimed`, from a fan-out), then claim and send
 * the given ones, or any due ones up to `limit`, with a few sends in flight at once.
 */
export async function dispatchDue(platform: Platform, owner: string, options: { claimed?: ClaimedDelivery[]; deliveryIds?: string[]; limit?: number; concurrency?: number } = {}): Promise<DispatchCounts> {
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
        if (outcome !== 'lost_claim') counts[outcome]++;
      }
    }),
  );
  return counts;
}
