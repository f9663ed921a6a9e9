import { ObjectId, type Filter } from 'mongodb';
import { z } from 'zod';
import { PlatformError, notFound } from '../errors.js';
import { IdString, parseObjectId } from '../ids.js';
import { afterCursor, pageOf, PageQuery } from '../pagination.js';
import type { Platform } from '../platform.js';
import { scheduleDispatch } from './jobs.js';
import { presentDelivery } from './present.js';
import { deliveries, subscriptions, type DeliveryDocument } from './store.js';
import { wakeWebhooks } from './wake.js';

/** The operations API over a store's deliveries (spec 4.8): list, read with attempts, redeliver. */

const Time = z.iso.datetime({ offset: true }).transform((s) => new Date(s));
export const ListDeliveriesQuery = PageQuery.extend({
  status: z.enum(['queued', 'successful', 'failed']).optional(),
  event_type: z.string().regex(/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/, 'must be an event type').optional(),
  subscription_id: IdString().optional(),
  event_id: IdString().optional(),
  created_after: Time.optional(),
  created_before: Time.optional(),
}).strict();
export type ListDeliveriesQuery = z.infer<typeof ListDeliveriesQuery>;

export async function listDeliveries(platform: Platform, storeId: string, q: ListDeliveriesQuery) {
  const filter: Filter<DeliveryDocument> = { store_id: new ObjectId(storeId), ...afterCursor(q) };
  if (q.status) filter.status = q.status;
  if (q.event_type) filter.event_type = q.event_type;
  if (q.subscription_id) filter.subscription_id = new ObjectId(q.subscription_id);
  if (q.event_id) filter.event_id = new ObjectId(q.event_id);
  if (q.created_after || q.created_before) {
    filter.created_at = { ...(q.created_after ? { $gte: q.created_after } : {}), ...(q.created_before ? { $lte: q.created_before } : {}) };
  }
  const docs = await deliveries(platform.db).find(filter).sort({ _id: 1 }).limit(q.limit + 1).toArray();
  const { items, nextCursor } = pageOf(docs, q.limit);
  return { items: items.map((d) => presentDelivery(d, false)), nextCursor };
}

async function findDelivery(platform: Platform, storeId: string, deliveryId: string): Promise<DeliveryDocument> {
  const id = parseObjectId(deliveryId);
  const doc = id ? await deliveries(platform.db).findOne({ _id: id, store_id: new ObjectId(storeId) }) : null;
  if (!doc) throw notFound('Delivery');
  return doc;
}

export async function getDelivery(platform: Platform, storeId: string, deliveryId: string) {
  return presentDelivery(await findDelivery(platform, storeId, deliveryId), true);
}

/** Send a failed delivery again: the same event, a new attempt series (attempts 0 to 8 again). */
export async function redeliver(platform: Platform, storeId: string, deliveryId: string) {
  const current = await findDelivery(platform, storeId, deliveryId);
  if (current.status !== 'failed') throw new PlatformError('conflict', 'delivery_not_failed', `Only a failed delivery can be redelivered; this one is ${current.status}`);
  const sub = await subscriptions(platform.db).findOne({ _id: current.subscription_id, store_id: current.store_id });
  if (!sub?.active) throw new PlatformError('conflict', 'subscription_inactive', 'The subscription is deleted or disabled; re-enable it first');
  const now = platform.clock.now();
  const doc = await deliveries(platform.db).findOneAndUpdate(
    { _id: current._id, store_id: current.store_id, status: 'failed' },
    { $set: { status: 'queued', next_attempt: 0, next_attempt_at: now, completed_at: null, lease_until: null, lease_owner: null, updated_at: now }, $inc: { series: 1 } },
    { returnDocument: 'after' },
  );
  if (!doc) throw new PlatformError('conflict', 'delivery_not_failed', 'The delivery changed; read it again');
  await scheduleDispatch(platform, doc._id.toHexString(), now);
  void wakeWebhooks(platform, [], [doc._id.toHexString()]);
  return presentDelivery(doc, false);
}
