import { ObjectId, type Filter } from 'mongodb';
import { z } from 'zod';
import { PlatformError, notFound } from '../../errors.js';
import { IdString, parseObjectId } from '../../ids.js';
import { afterCursor, PageQuery, findPage, pageDirection } from '../../pagination.js';
import type { Platform } from '../../platform.js';
import { presentAppDelivery, presentDelivery } from './present.js';
import { scheduleDispatch, stillSubscribed } from './delivery.js';
import { subscriptions } from '../subscriptions/models.js';
import { deliveries, type DeliveryDocument } from './models.js';
import { wakeWebhooks } from './wake.js';

/**
 * The deliveries log (spec 4.8): list, read with attempts, redeliver. One implementation for
 * three scopes: a store's deliveries (the merchant's operations API), an app's, to every
 * installation in every store (the partner's, docs/apps.md), and every store's (the operator
 * console's, docs/console.md).
 */
export type DeliveryScope = { store_id: string } | { app_id: string } | { operator: true };

const Time = z.iso.datetime({ offset: true }).transform((s) => new Date(s));
const DeliveryFilters = PageQuery.extend({
  /** `retrying`: queued after at least one failed attempt of its series (docs/webhooks.md). */
  status: z.enum(['queued', 'retrying', 'successful', 'failed']).optional(),
  event_type: z
    .string()
    .regex(/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/, 'must be an event type')
    .optional(),
  event_id: IdString().optional(),
  created_after: Time.optional(),
  created_before: Time.optional(),
  /** `oldest` (the default) or `newest` first; the cursors keep the order. */
  order: z.enum(['oldest', 'newest']).default('oldest'),
});
/** GET /v1/operations/webhook-deliveries (a store's). */
export const ListDeliveriesQuery = DeliveryFilters.extend({ subscription_id: IdString().optional() }).strict();
export type ListDeliveriesQuery = z.infer<typeof ListDeliveriesQuery>;
/** GET /v1/app-store/developers/apps/:id/webhook-deliveries (an app's, in any store it is installed in); the operator console's too. */
export const AppDeliveriesQuery = DeliveryFilters.extend({ store_id: IdString('store').optional() }).strict();
export type AppDeliveriesQuery = z.infer<typeof AppDeliveriesQuery>;

const INSTALLATION_INACTIVE = "The installation's webhook subscription is disabled or gone; the merchant's next authorization of the app enables it again";

const scopeFilter = (scope: DeliveryScope): Filter<DeliveryDocument> =>
  'app_id' in scope ? { app_id: new ObjectId(scope.app_id) } : 'store_id' in scope ? { store_id: new ObjectId(scope.store_id) } : {};

/** The view of each scope: an app's partner and an operator also read which store a delivery belongs to. */
const present = (scope: DeliveryScope, d: DeliveryDocument, withAttempts: boolean) =>
  'store_id' in scope ? presentDelivery(d, withAttempts) : presentAppDelivery(d, withAttempts);

export async function listDeliveries(platform: Platform, scope: DeliveryScope, q: ListDeliveriesQuery | AppDeliveriesQuery) {
  const page = { ...q, backwards: q.order === 'newest' };
  const filter: Filter<DeliveryDocument> = afterCursor(page);
  if (q.status === 'retrying') Object.assign(filter, { status: 'queued', next_attempt: { $gt: 0 } });
  else if (q.status) filter.status = q.status;
  if (q.event_type) filter.event_type = q.event_type;
  if ('subscription_id' in q && q.subscription_id) filter.subscription_id = new ObjectId(q.subscription_id);
  if ('store_id' in q && q.store_id) filter.store_id = new ObjectId(q.store_id);
  if (q.event_id) filter.event_id = new ObjectId(q.event_id);
  if (q.created_after || q.created_before) {
    filter.created_at = { ...(q.created_after ? { $gte: q.created_after } : {}), ...(q.created_before ? { $lte: q.created_before } : {}) };
  }
  // The scope last: no filter can widen it.
  const { items, nextCursor } = await findPage(deliveries(platform.db), { ...filter, ...scopeFilter(scope) }, q.limit, pageDirection(page));
  return { items: items.map((d) => present(scope, d, false)), nextCursor };
}

async function findDelivery(platform: Platform, scope: DeliveryScope, deliveryId: string): Promise<DeliveryDocument> {
  const id = parseObjectId(deliveryId);
  const doc = id ? await deliveries(platform.db).findOne({ _id: id, ...scopeFilter(scope) }) : null;
  if (!doc) throw notFound('Delivery');
  return doc;
}

export async function getDelivery(platform: Platform, scope: DeliveryScope, deliveryId: string) {
  return present(scope, await findDelivery(platform, scope, deliveryId), true);
}

/**
 * Send a failed delivery again: the same event, a new attempt series (attempts 0 to 8 again).
 * Its subscription must be active (an app's: the installation's, which stays active after an
 * uninstall for the notices addressed to it).
 */
export async function redeliver(platform: Platform, scope: DeliveryScope, deliveryId: string) {
  const current = await findDelivery(platform, scope, deliveryId);
  if (current.status !== 'failed')
    throw new PlatformError('conflict', 'delivery_not_failed', `Only a failed delivery can be redelivered; this one is ${current.status}`);
  const sub = await subscriptions(platform.db).findOne({ _id: current.subscription_id, store_id: current.store_id });
  if (!sub?.active)
    throw new PlatformError(
      'conflict',
      'subscription_inactive',
      'app_id' in scope ? INSTALLATION_INACTIVE : 'The subscription is deleted or disabled; re-enable it first',
    );
  if (!stillSubscribed(sub, current.event_type)) {
    throw new PlatformError(
      'conflict',
      'topic_not_subscribed',
      `The app no longer receives ${current.event_type} in this store (uninstalled, or its scopes changed)`,
    );
  }
  const now = platform.clock.now();
  const doc = await deliveries(platform.db).findOneAndUpdate(
    { _id: current._id, store_id: current.store_id, status: 'failed' },
    {
      $set: { status: 'queued', next_attempt: 0, next_attempt_at: now, completed_at: null, lease_until: null, lease_owner: null, updated_at: now },
      $inc: { series: 1 },
    },
    { returnDocument: 'after' },
  );
  if (!doc) throw new PlatformError('conflict', 'delivery_not_failed', 'The delivery changed; read it again');
  await scheduleDispatch(platform, doc._id.toHexString(), now);
  void wakeWebhooks(platform, [], [doc._id.toHexString()]);
  return present(scope, doc, false);
}
