import { ObjectId } from 'mongodb';
import { z } from 'zod';
import { findEventsNotFannedOut, findStoreEventsSince, loadEventsNotFannedOut, markFannedOut, type DomainEvent } from '../../events/index.js';
import { insertEach } from '../../db.js';
import { IdString } from '../../ids.js';
import { notifyForEvents } from '../../notifications/index.js';
import { defineJob } from '../../job.js';
import type { Platform } from '../../platform.js';
import { leaseFields } from '../../work/lease.js';
import { activeSubscriptions, wants } from '../subscriptions/interest.js';
import { subscriptions, type SubscriptionDocument } from '../subscriptions/models.js';
import { deliveries, type DeliveryDocument } from './models.js';
import { dispatchDue, leaseOf, type ClaimedDelivery } from './delivery.js';

/** Fan-out: an event's deliveries, one per subscription that wants it, created already claimed (docs/webhooks.md). */
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
  const stores = pending.flatMap((e) => (e.store_id ? [e.store_id] : []));
  const subs = stores.length > 0 ? await activeSubscriptions(platform.db, stores) : [];
  const created = await insertDeliveries(platform, planDeliveries(platform, pending, subs, owner, now));
  // The store's notifications (docs/notifications.md) before the events are marked: a fan-out that stops here runs again, and each email is sent once by its key.
  await notifyForEvents(platform, pending);
  await markFannedOut(
    platform.db,
    pending.map((e) => e.id),
    now,
  );
  return created;
}

/** A delivery, claimed by `owner`, for each (event, subscription) pair where the subscription wants the event. */
function planDeliveries(
  platform: Platform,
  events: readonly DomainEvent[],
  subs: readonly SubscriptionDocument[],
  owner: string,
  now: Date,
): ClaimedDelivery[] {
  const planned: ClaimedDelivery[] = [];
  for (const event of events) {
    for (const sub of subs) {
      if (!wants(sub, event)) continue;
      const delivery: DeliveryDocument = {
        _id: new ObjectId(),
        store_id: sub.store_id,
        event_id: new ObjectId(event.id),
        subscription_id: sub._id,
        ...(sub.app_id ? { app_id: sub.app_id } : {}),
        event_type: event.type,
        status: 'queued',
        next_attempt: 0,
        next_attempt_at: now,
        ...leaseFields(leaseOf(platform, owner), now),
        attempts: [],
        completed_at: null,
        series: 1,
        created_at: now,
        updated_at: now,
      };
      planned.push({ delivery, sub, event });
    }
  }
  return planned;
}

/** Insert the planned deliveries in one unordered command; those another fan-out created first are left out. */
async function insertDeliveries(platform: Platform, planned: ClaimedDelivery[]): Promise<ClaimedDelivery[]> {
  const outcomes = await insertEach(
    deliveries(platform.db),
    planned.map((p) => p.delivery),
  );
  const failed = outcomes.find((o) => o instanceof Error);
  if (failed) throw failed;
  return planned.filter((_, i) => outcomes[i] === 'inserted');
}

/** Events one catch-up reads at most per sweep; a busier window is finished by the next sweeps. */
const CATCH_UP_EVENTS = 2000;

/**
 * Close the catch-up windows that are due (subscriptions/interest.ts): to each such subscription, if still
 * active, fan out the events of its store recorded since the window opened that it wants. A
 * pair fanned out already is not created again (the unique index), so this only adds what a
 * process that remembered the store's subscriptions from before the change recorded as
 * unwanted. The window is removed only if no change widened it meanwhile.
 */
export async function catchUpSubscriptions(platform: Platform, owner: string, limit = 20): Promise<{ subscriptions: number; claimed: ClaimedDelivery[] }> {
  const now = platform.clock.now();
  const due = await subscriptions(platform.db)
    .find({ catch_up_due: { $lte: now } })
    .sort({ catch_up_due: 1 })
    .limit(limit)
    .toArray();
  const claimed: ClaimedDelivery[] = [];
  for (const sub of due) {
    const from = sub.catch_up_from ?? sub.created_at;
    const events = sub.active ? await findStoreEventsSince(platform.db, sub.store_id, from, CATCH_UP_EVENTS + 1) : [];
    claimed.push(...(await insertDeliveries(platform, planDeliveries(platform, events.slice(0, CATCH_UP_EVENTS), [sub], owner, now))));
    const window = { _id: sub._id, store_id: sub.store_id, catch_up_due: sub.catch_up_due! };
    if (events.length > CATCH_UP_EVENTS) {
      // Continue after the last event read at the next sweep.
      await subscriptions(platform.db).updateOne(window, { $set: { catch_up_from: new Date(events[CATCH_UP_EVENTS]!.created_at) } });
    } else {
      await subscriptions(platform.db).updateOne(window, { $unset: { catch_up_from: '', catch_up_due: '' } });
    }
  }
  return { subscriptions: due.length, claimed };
}

/** Events the fast path missed (a lost wake-up, a crash before the job ran), fanned out and claimed by `owner`. */
export async function fanOutPendingEvents(platform: Platform, owner: string, limit = 200): Promise<{ events: number; claimed: ClaimedDelivery[] }> {
  const ids = await findEventsNotFannedOut(platform.db, platform.clock.now(), limit);
  return { events: ids.length, claimed: await fanOutEvents(platform, ids, owner) };
}

/**
 * Fans out one event and sends its deliveries at once (claimed by this process:
 * `platform.process.id`): the fallback of the wake-up (wake.ts), which enqueues it.
 */
export const FanOutEvent = defineJob({
  name: 'webhooks.fan-out-event',
  group: 'webhooks',
  concurrency: 10,
  payload: z.object({ event_id: IdString('event') }),
  run: async (platform, { event_id }) => {
    const owner = platform.process.id;
    const created = await fanOutEvents(platform, [event_id], owner);
    const sent = await dispatchDue(platform, owner, { claimed: created, deliveryIds: [] });
    return { deliveries: created.length, ...sent };
  },
});
