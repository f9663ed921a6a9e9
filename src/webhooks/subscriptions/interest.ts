import { ObjectId, type Db } from 'mongodb';
import { matchesEventPatterns } from '../../events/index.js';
import type { Platform } from '../../platform.js';
import { subscriptions, type SubscriptionDocument } from './models.js';

/**
 * Which events a webhook subscription wants, decided when each event is recorded, and how a
 * process keeps that decision cheap: it remembers what it read of a store's active
 * subscriptions for `config.webhooks.subscriptionCacheMs` (2 s by default), so a busy store
 * costs one read of its subscriptions every 2 s instead of one per event.
 *
 * What a process remembers can be behind a subscription change made by another process for
 * that long. So a change that lets a subscription want more events (created active,
 * re-enabled, event types changed) marks the subscription with a catch-up window
 * (`catch_up_from`, `catch_up_due`, in the same write), and once every process has re-read
 * (`catch_up_due`) the webhooks sweeper fans out to it the store's events recorded since the
 * change that it wants (catchUpSubscriptions, delivery.ts). The (event, subscription) unique
 * index makes that a no-op for events that were fanned out to it already. A process forgets
 * what it remembered of a store as soon as it changes one of the store's subscriptions itself.
 */

type Interest = Pick<SubscriptionDocument, 'store_id' | 'event_types' | 'owner'>;
type Remembered = { subs: Interest[]; until: number };

/** Stores remembered per process at most; the oldest entry goes first. */
const MAX_STORES = 10_000;
const memories = new WeakMap<Db, Map<string, Remembered>>();

function memoryOf(db: Db): Map<string, Remembered> {
  let memory = memories.get(db);
  if (!memory) {
    memory = new Map();
    memories.set(db, memory);
  }
  return memory;
}

type Wantable = {
  type: string;
  store_id: string | ObjectId | null;
  recipient?: { type: 'app_installation' | 'merchant'; id: string | ObjectId; exclusive?: boolean } | null;
};

/**
 * Whether a subscription wants an event: the same store, and
 * - an event addressed to an app installation (its lifecycle, a compliance notice, its bulk
 *   operation finishing): that installation's subscription always (whatever its topics: the
 *   mandatory ones, spec 6.1 rule 9), another app's never, a merchant's when its type matches
 *   and the event is not exclusive to its recipient (compliance notices are);
 * - an event addressed to a merchant (its bulk operation finishing): a merchant's subscription
 *   when its type matches, an app's never (an app's subscription carries the topic for its own);
 * - any other event: a matching type.
 */
export function wants(sub: Interest, event: Wantable): boolean {
  if (event.store_id === null || !sub.store_id.equals(event.store_id)) return false;
  const recipient = event.recipient;
  if (recipient) {
    if (sub.owner.type === 'app_installation') return recipient.type === 'app_installation' && sub.owner.id.equals(recipient.id);
    if (recipient.exclusive) return false;
  }
  return matchesEventPatterns(event.type, sub.event_types);
}

/** The active subscriptions of the given stores (one read). */
export function activeSubscriptions(db: Db, storeIds: readonly (string | ObjectId)[]): Promise<SubscriptionDocument[]> {
  const stores = [...new Set(storeIds.map(String))].map((id) => new ObjectId(id));
  return subscriptions(db)
    .find({ store_id: stores.length === 1 ? stores[0]! : { $in: stores }, active: true })
    .toArray();
}

/**
 * For events about to be recorded, whether an active subscription of their store matches
 * their type: the events' `wanted` hook. At most one read, of the stores this process does not
 * remember (or remembers for longer than the cache time). An event no subscription wants is
 * recorded as already fanned out; see above for a subscription created a moment before.
 */
export async function subscribedEvents(
  platform: Pick<Platform, 'db' | 'config' | 'clock'>,
  events: readonly { type: string; store_id: ObjectId | null; recipient?: Wantable['recipient'] }[],
): Promise<boolean[]> {
  if (events.length === 0) return [];
  const ttl = platform.config.webhooks.subscriptionCacheMs;
  const memory = memoryOf(platform.db);
  const now = platform.clock.now().getTime();
  const known = new Map<string, Interest[]>();
  const unknown = new Set<string>();
  for (const { store_id } of events) {
    if (!store_id) continue; // an event of no store: no subscription wants it
    const key = store_id.toHexString();
    const remembered = ttl > 0 ? memory.get(key) : undefined;
    if (remembered && remembered.until > now) known.set(key, remembered.subs);
    else unknown.add(key);
  }
  if (unknown.size > 0) {
    const read = await activeSubscriptions(platform.db, [...unknown]);
    for (const key of unknown) {
      const subs = read.filter((s) => s.store_id.toHexString() === key).map(({ store_id, event_types, owner }) => ({ store_id, event_types, owner }));
      known.set(key, subs);
      if (ttl > 0) remember(memory, key, { subs, until: now + ttl });
    }
  }
  // An event addressed to an app installation is always wanted: its subscription may have been
  // made a moment ago by another process (an install), and the fan-out reads it fresh.
  return events.map((e) => (e.recipient ? e.store_id !== null : e.store_id ? known.get(e.store_id.toHexString())!.some((sub) => wants(sub, e)) : false));
}

function remember(memory: Map<string, Remembered>, key: string, value: Remembered): void {
  memory.delete(key); // re-inserted last: the Map's order is the age order
  memory.set(key, value);
  if (memory.size > MAX_STORES) memory.delete(memory.keys().next().value!);
}

/** This process changed one of the store's subscriptions: read them again at the next event. */
export function forgetStoreInterest(db: Db, storeId: string | ObjectId): void {
  memoryOf(db).delete(String(storeId));
}

/**
 * A catch-up window for a change that lets a subscription want more events: from now until
 * every process's cache has expired. Written with `$min`/`$max` on an update, so a window
 * still open is widened, never narrowed.
 */
export function catchUpWindow(platform: Pick<Platform, 'config' | 'clock'>): { catch_up_from: Date; catch_up_due: Date } {
  const now = platform.clock.now();
  return { catch_up_from: now, catch_up_due: new Date(now.getTime() + platform.config.webhooks.subscriptionCacheMs + CATCH_UP_MARGIN_MS) };
}

/** Time past the cache's for events recorded with an old answer to be in the database. */
export const CATCH_UP_MARGIN_MS = 1000;
