import { ObjectId } from 'mongodb';
import { PlatformError, invalidInput, notFound } from '../../errors.js';
import { carried, carrying } from '../../events/index.js';
import { parseObjectId } from '../../ids.js';
import { afterCursor, type Page, findPage, pageDirection } from '../../pagination.js';
import type { Platform } from '../../platform.js';
import { deleteAsRead } from '../../deleting.js';
import { FRESH_HEALTH } from './health.js';
import { healthOf, presentSubscription, type SubscriptionView, type SubscriptionWithSecret } from './present.js';
import type { CreateSubscriptionBody, RotateSecretBody, UpdateSubscriptionBody } from './schemas.js';
import { generateSigningSecret, sealSecret } from './signing.js';
import { catchUpWindow, forgetStoreInterest } from './interest.js';
import { SUBSCRIPTIONS, subscriptions, type RotatedSecret, type StoredSecret, type SubscriptionDocument } from './models.js';
import { checkTargetUrl, checkUrlShape, type Resolver } from '../../outbound/index.js';
import { recordEnforcement } from '../../security/index.js';

/** Subscriptions one store may have (all owners together). */
export const MAX_SUBSCRIPTIONS_PER_STORE = 50;
/** A change (an update, a rotation, a delete) retries this often when a concurrent change got there first. */
const CHANGE_ATTEMPTS = 5;

export type SubscriptionOwner = { type: 'merchant' | 'app_installation'; id: string };
/** Tests inject a resolver so production's DNS rule runs without the network. */
export type TargetOptions = { resolver?: Resolver };

/**
 * The operations API's subscriptions are the merchant's: an app installation's subscription is
 * the app's (made by the install, app-subscriptions.ts) and is neither listed nor changed here.
 */
const MERCHANT_OWNED = { 'owner.type': 'merchant' } as const;

const limitReached = () =>
  new PlatformError(
    'conflict',
    'subscription_limit_reached',
    `A store may have at most ${MAX_SUBSCRIPTIONS_PER_STORE} webhook subscriptions; delete one first`,
  );

/**
 * The target as stored (the parsed URL's href), or a 400 naming the rule it breaks. A URL of a
 * good shape refused by the address rules (a private, loopback or reserved address, a host that
 * does not resolve) is recorded for operators (docs/operations.md, Security enforcement).
 */
async function acceptTarget(platform: Platform, storeId: string, raw: string, options: TargetOptions): Promise<string> {
  const verdict = await checkTargetUrl(platform.config, raw, { resolve: true, ...(options.resolver ? { resolver: options.resolver } : {}) });
  if (!verdict.ok) {
    const shape = checkUrlShape(platform.config, raw);
    if (shape.ok) {
      recordEnforcement(platform, {
        kind: 'outbound_target_refused',
        subject: { store_id: storeId, host: shape.url.hostname },
        reason: `A webhook target was refused: ${verdict.reason}`,
      });
    }
    throw invalidInput([{ path: 'target_url', message: verdict.reason }], 'invalid_target_url', `The target URL is not allowed: ${verdict.reason}`);
  }
  return verdict.url.href;
}

/**
 * Create a subscription with a new signing secret. The secret is stored encrypted and is in
 * this response only.
 */
export async function createSubscription(
  platform: Platform,
  storeId: string,
  owner: SubscriptionOwner,
  input: CreateSubscriptionBody,
  options: TargetOptions = {},
): Promise<SubscriptionWithSecret> {
  const store_id = new ObjectId(storeId);
  const collection = subscriptions(platform.db);
  const target_url = await acceptTarget(platform, storeId, input.target_url, options);
  if ((await collection.countDocuments({ store_id, ...MERCHANT_OWNED })) >= MAX_SUBSCRIPTIONS_PER_STORE) throw limitReached();
  const now = platform.clock.now();
  const secret = generateSigningSecret();
  const doc: SubscriptionDocument = {
    _id: new ObjectId(),
    store_id,
    owner: { type: owner.type, id: new ObjectId(owner.id) },
    target_url,
    event_types: input.event_types,
    description: input.description,
    active: input.active,
    disabled_reason: null,
    disabled_at: null,
    consecutive_failed_deliveries: 0,
    consecutive_gone_deliveries: 0,
    ...FRESH_HEALTH,
    last_error: null,
    last_success_at: null,
    secret: sealSecret(platform.config.secretsKeys, secret, now),
    previous_secret: null,
    version: 1,
    ...(input.active ? catchUpWindow(platform) : {}),
    created_at: now,
    updated_at: now,
  };
  const view = presentSubscription(doc);
  const pending = [
    platform.events.pending('webhook_subscription.created', store_id, { webhook_subscription: view }, `webhook_subscription.created:${view.id}`),
  ];
  await collection.insertOne({ ...doc, ...carried(pending) });
  forgetStoreInterest(platform.db, store_id);
  if (!(await keepsItsPlace(platform, store_id, doc._id))) {
    await collection.deleteOne({ _id: doc._id, store_id });
    throw limitReached();
  }
  await platform.events.settle(collection, doc._id, pending);
  return { ...view, secret };
}

/** How often a new subscription looks again while creations racing with it are still over the limit. */
const PLACE_LOOKS = 10;

/**
 * Whether a subscription just written may stay. Creations racing past the count in
 * createSubscription each see the others: while the store is over the limit, the ones whose place
 * (by id, oldest first) is beyond the limit take theirs back at once (and its event with it: the
 * event is recorded only once the subscription stays), and the others look again until the count
 * is within it. A subscription stays only after it saw the count within the limit with itself
 * in it, so the last one to stay saw every one that stays: the limit is never exceeded. The
 * oldest racers are never beyond the limit, so a race fills the free places instead of every
 * racer giving up; one that still sees too many after its last look gives up too.
 */
async function keepsItsPlace(platform: Platform, store_id: ObjectId, id: ObjectId): Promise<boolean> {
  const collection = subscriptions(platform.db);
  for (let look = 1; look <= PLACE_LOOKS; look++) {
    if ((await collection.countDocuments({ store_id, ...MERCHANT_OWNED })) <= MAX_SUBSCRIPTIONS_PER_STORE) return true;
    if ((await collection.countDocuments({ store_id, ...MERCHANT_OWNED, _id: { $lt: id } })) >= MAX_SUBSCRIPTIONS_PER_STORE) return false;
    await new Promise((resolve) => setTimeout(resolve, 10 * look));
  }
  return false;
}

export async function listSubscriptions(platform: Platform, storeId: string, page: Page): Promise<{ items: SubscriptionView[]; nextCursor: string | null }> {
  const { items, nextCursor } = await findPage(
    subscriptions(platform.db),
    { store_id: new ObjectId(storeId), ...MERCHANT_OWNED, ...afterCursor(page) },
    page.limit,
    pageDirection(page),
  );
  return { items: items.map(presentSubscription), nextCursor };
}

async function findSubscription(platform: Platform, storeId: string, subscriptionId: string): Promise<SubscriptionDocument | null> {
  const id = parseObjectId(subscriptionId);
  return id ? subscriptions(platform.db).findOne({ _id: id, store_id: new ObjectId(storeId), ...MERCHANT_OWNED }) : null;
}

export async function getSubscription(platform: Platform, storeId: string, subscriptionId: string): Promise<SubscriptionView> {
  const doc = await findSubscription(platform, storeId, subscriptionId);
  if (!doc) throw notFound('Webhook subscription');
  return presentSubscription(doc);
}

/**
 * Change the given fields. `active: true` also re-enables a subscription the platform
 * disabled (clears disabled_reason and disabled_at, resets the failure count), and then starts
 * a new health episode (healthy, no streak): its next failures tell the merchant again.
 */
export async function updateSubscription(
  platform: Platform,
  storeId: string,
  subscriptionId: string,
  input: UpdateSubscriptionBody,
  options: TargetOptions = {},
): Promise<SubscriptionView> {
  const id = parseObjectId(subscriptionId);
  const store_id = new ObjectId(storeId);
  // 404 before the target check, so another store's id never learns which URLs pass.
  if (!id || !(await subscriptions(platform.db).findOne({ _id: id, store_id, ...MERCHANT_OWNED }, { projection: { _id: 1 } })))
    throw notFound('Webhook subscription');
  const changed = (Object.keys(input) as (keyof UpdateSubscriptionBody)[]).filter((k) => input[k] !== undefined);
  const set: Partial<SubscriptionDocument> = { updated_at: platform.clock.now() };
  if (input.target_url !== undefined) set.target_url = await acceptTarget(platform, storeId, input.target_url, options);
  if (input.event_types !== undefined) set.event_types = input.event_types;
  if (input.description !== undefined) set.description = input.description;
  if (input.active !== undefined) {
    set.active = input.active;
    if (input.active) Object.assign(set, { disabled_reason: null, disabled_at: null, consecutive_failed_deliveries: 0, consecutive_gone_deliveries: 0 });
  }
  // A change that may let it want more events opens a catch-up window (interest.ts).
  const widens = input.active === true || (input.event_types !== undefined && input.active !== false);
  const window = widens ? catchUpWindow(platform) : null;
  for (let attempt = 1; attempt <= CHANGE_ATTEMPTS; attempt++) {
    const current = await subscriptions(platform.db).findOne({ _id: id, store_id, ...MERCHANT_OWNED });
    if (!current) throw notFound('Webhook subscription');
    const reEnables = input.active === true && healthOf(current) === 'disabled';
    const healthSet = reEnables ? FRESH_HEALTH : {};
    // Conditional on the version read, so the subscription as it becomes is known now: its event
    // travels with the write. (The catch-up window and the failure counts are not in the view.)
    const { failing_since, ...rest } = current;
    const view = presentSubscription({ ...rest, ...(reEnables ? {} : { failing_since }), ...set, ...healthSet, version: current.version + 1 });
    const pending = [
      platform.events.pending(
        'webhook_subscription.updated',
        store_id,
        { webhook_subscription: view, changed },
        `webhook_subscription.updated:${view.id}:v${current.version + 1}`,
      ),
    ];
    const result = await subscriptions(platform.db).updateOne(
      { _id: current._id, store_id, version: current.version },
      carrying(
        {
          $set: { ...set, ...healthSet },
          $inc: { version: 1 },
          ...(reEnables ? { $unset: { failing_since: '' as const } } : {}),
          ...(window ? { $min: { catch_up_from: window.catch_up_from }, $max: { catch_up_due: window.catch_up_due } } : {}),
        },
        pending,
      ),
    );
    if (result.matchedCount === 0) continue;
    forgetStoreInterest(platform.db, store_id);
    await platform.events.settle(subscriptions(platform.db), current._id, pending);
    return view;
  }
  throw busy('updated');
}

export async function deleteSubscription(platform: Platform, storeId: string, subscriptionId: string): Promise<void> {
  for (let attempt = 1; attempt <= CHANGE_ATTEMPTS; attempt++) {
    const current = await findSubscription(platform, storeId, subscriptionId);
    if (!current) throw notFound('Webhook subscription');
    const target = { collection: subscriptions(platform.db), carrier: SUBSCRIPTIONS, event: 'webhook_subscription.deleted' as const };
    const removed = () => forgetStoreInterest(platform.db, current.store_id);
    if (await deleteAsRead(platform, target, current, { webhook_subscription: presentSubscription(current) }, { removed })) return;
  }
  throw busy('deleted');
}

/** The secret a rotation replaces, kept signing for the grace period (none for 0, or when there was none). */
export function rotatedOut(secret: StoredSecret | undefined, graceSeconds: number, now: Date): RotatedSecret | null {
  return secret && graceSeconds > 0 ? { ...secret, expires_at: new Date(now.getTime() + graceSeconds * 1000) } : null;
}

const busy = (doing: string) => new PlatformError('conflict', 'subscription_busy', `The subscription kept changing while it was being ${doing}; try again`);

/**
 * A new signing secret, in this response only. The one it replaces keeps signing (beside the
 * new one) for `grace_period_seconds`; 0 drops it at once. A rotation during a grace period
 * replaces the older previous secret: at most two secrets sign.
 */
export async function rotateSubscriptionSecret(
  platform: Platform,
  storeId: string,
  subscriptionId: string,
  input: RotateSecretBody,
): Promise<SubscriptionWithSecret> {
  for (let attempt = 1; attempt <= CHANGE_ATTEMPTS; attempt++) {
    const current = await findSubscription(platform, storeId, subscriptionId);
    if (!current) throw notFound('Webhook subscription');
    const now = platform.clock.now();
    const secret = generateSigningSecret();
    const previous = rotatedOut(current.secret, input.grace_period_seconds, now);
    const set: Partial<SubscriptionDocument> = { secret: sealSecret(platform.config.secretsKeys, secret, now), previous_secret: previous, updated_at: now };
    // Conditional on the version read: the event, with the subscription as it becomes, travels with the write.
    const view = presentSubscription({ ...current, ...set, version: current.version + 1 });
    const pending = [
      platform.events.pending(
        'webhook_subscription.updated',
        current.store_id,
        { webhook_subscription: view, changed: ['secret'] },
        `webhook_subscription.updated:${view.id}:v${current.version + 1}`,
      ),
    ];
    const result = await subscriptions(platform.db).updateOne(
      { _id: current._id, store_id: current.store_id, version: current.version },
      carrying({ $set: set, $inc: { version: 1 } }, pending),
    );
    if (result.matchedCount === 0) continue;
    await platform.events.settle(subscriptions(platform.db), current._id, pending);
    return { ...view, secret };
  }
  throw new PlatformError('conflict', 'subscription_busy', 'The subscription kept changing while its secret was being rotated; try again');
}
