import type Router from '@koa/router';
import { ObjectId, type Filter } from 'mongodb';
import { z } from 'zod';
import { PlatformError, notFound } from '../errors.js';
import type { AppState } from '../http/context.js';
import { storeScopedRouter } from '../http/scoped.js';
import { parseInput } from '../http/validate.js';
import { parseObjectId } from '../ids.js';
import { afterCursor, pageOf, PageQuery } from '../pagination.js';
import type { Platform } from '../platform.js';
import { scheduleDispatch } from './jobs.js';
import { deliveries, subscriptions, type DeliveryDocument } from './store.js';
import { wakeWebhooks } from './wake.js';

const Id = z.string().regex(/^[0-9a-f]{24}$/, 'must be an id');
const Time = z.iso.datetime({ offset: true }).transform((s) => new Date(s));
const ListQuery = PageQuery.extend({
  status: z.enum(['queued', 'successful', 'failed']).optional(),
  event_type: z.string().regex(/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/, 'must be an event type').optional(),
  subscription_id: Id.optional(),
  event_id: Id.optional(),
  created_after: Time.optional(),
  created_before: Time.optional(),
}).strict();

export function presentDelivery(d: DeliveryDocument, withAttempts: boolean) {
  return {
    id: d._id.toHexString(),
    event_id: d.event_id.toHexString(),
    event_type: d.event_type,
    subscription_id: d.subscription_id.toHexString(),
    status: d.status,
    attempt_count: d.attempts.length,
    next_attempt: d.status === 'queued' ? d.next_attempt : null,
    next_attempt_at: d.next_attempt_at?.toISOString() ?? null,
    last_status: d.attempts.at(-1)?.status ?? null,
    last_error: d.attempts.at(-1)?.error ?? null,
    series: d.series,
    completed_at: d.completed_at?.toISOString() ?? null,
    created_at: d.created_at.toISOString(),
    updated_at: d.updated_at.toISOString(),
    ...(withAttempts
      ? {
          attempts: d.attempts.map((a) => ({
            series: a.series,
            number: a.number,
            request_id: a.request_id,
            started_at: a.started_at.toISOString(),
            duration_ms: a.duration_ms,
            status: a.status,
            error: a.error,
            response_preview: a.response_preview,
          })),
        }
      : {}),
  };
}

/** /v1/operations/webhook-deliveries: the store's deliveries, their attempts, and redelivery. */
export function webhookDeliveryRoutes(platform: Platform): Router<AppState> {
  const router = storeScopedRouter(platform);
  const storeId = (ctx: { state: AppState }) => new ObjectId(ctx.state.store!.id);

  router.get('/', async (ctx) => {
    const q = parseInput(ListQuery, ctx.query, 'query');
    const filter: Filter<DeliveryDocument> = { store_id: storeId(ctx), ...afterCursor(q) };
    if (q.status) filter.status = q.status;
    if (q.event_type) filter.event_type = q.event_type;
    if (q.subscription_id) filter.subscription_id = new ObjectId(q.subscription_id);
    if (q.event_id) filter.event_id = new ObjectId(q.event_id);
    if (q.created_after || q.created_before) {
      filter.created_at = { ...(q.created_after ? { $gte: q.created_after } : {}), ...(q.created_before ? { $lte: q.created_before } : {}) };
    }
    const docs = await deliveries(platform.db).find(filter).sort({ _id: 1 }).limit(q.limit + 1).toArray();
    const { items, nextCursor } = pageOf(docs, q.limit);
    ctx.body = { data: items.map((d) => presentDelivery(d, false)), page: { next_cursor: nextCursor } };
  });

  router.get('/:id', async (ctx) => {
    parseInput(z.strictObject({}), ctx.query, 'query');
    const id = parseObjectId(ctx.params.id!);
    const doc = id ? await deliveries(platform.db).findOne({ _id: id, store_id: storeId(ctx) }) : null;
    if (!doc) throw notFound('Delivery');
    ctx.body = { data: presentDelivery(doc, true) };
  });

  /** Send a failed delivery again: the same event, a new attempt series (attempts 0 to 8 again). */
  router.post('/:id/redeliver', async (ctx) => {
    parseInput(z.strictObject({}), ctx.request.body, 'body');
    const id = parseObjectId(ctx.params.id!);
    const current = id ? await deliveries(platform.db).findOne({ _id: id, store_id: storeId(ctx) }) : null;
    if (!current) throw notFound('Delivery');
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
    ctx.status = 202;
    ctx.body = { data: presentDelivery(doc, false) };
  });
  return router;
}
