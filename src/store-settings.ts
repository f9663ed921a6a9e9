import { ObjectId, type Collection, type Filter, type OptionalUnlessRequiredId, type UpdateFilter } from 'mongodb';
import { isDuplicateKeyError } from './db.js';
import { PlatformError } from './errors.js';
import { carrying, type CarriesEvents, type EventType } from './events/index.js';
import type { Platform } from './platform.js';

/** A store's one settings document of a kind (its tax table, its shipping rates): edited as a whole. */
export type StoreSettingsDocument = { _id: ObjectId; store_id: ObjectId; version: number; updated_at: Date } & CarriesEvents;

/** How many times the read and the conditional write are tried before 409 edit_conflict. */
const PUT_ATTEMPTS = 5;

/**
 * Replace a store's settings document of one kind (taxes, shipping): the whole document, since it
 * is small and edited as one. Last writer wins, but each write is conditional on the version
 * read (the first one on there being none), so the settings as they become, and their version,
 * are known before the write: the event (`<event>` with `{ [payloadKey]: view }`, keyed by the
 * store and the version) travels with it.
 */
export async function replaceStoreSettings<D extends StoreSettingsDocument, V>(
  platform: Platform,
  storeId: string,
  options: {
    collection: Collection<D>;
    set: Omit<D, keyof StoreSettingsDocument>;
    present: (doc: D) => V;
    event: EventType;
    payloadKey: string;
    /** What the conflict's message calls the settings (`The tax settings`). */
    what: string;
  },
): Promise<V> {
  const { collection, present, event } = options;
  const storeObjectId = new ObjectId(storeId);
  const byStore = { store_id: storeObjectId } as Filter<D>;
  for (let attempt = 1; attempt <= PUT_ATTEMPTS; attempt++) {
    const current = await collection.findOne(byStore);
    const set = { ...options.set, updated_at: platform.clock.now() };
    const doc = { ...set, _id: current?._id ?? new ObjectId(), store_id: storeObjectId, version: (current?.version ?? 0) + 1 } as D;
    const view = present(doc);
    const pending = [platform.events.pending(event, storeId, { [options.payloadKey]: view }, `${event}:${storeId}:v${doc.version}`)];
    if (!current) {
      try {
        await platform.events.insert(collection, doc as OptionalUnlessRequiredId<D> & { _id: ObjectId }, pending);
      } catch (err) {
        // Two first writes race on the unique index; the loser applies its settings as an update.
        if (isDuplicateKeyError(err)) continue;
        throw err;
      }
      return view;
    }
    const result = await collection.updateOne(
      { _id: current._id, store_id: storeObjectId, version: current.version } as Filter<D>,
      carrying({ $set: set, $inc: { version: 1 } } as unknown as UpdateFilter<D>, pending),
    );
    if (result.matchedCount === 0) continue;
    await platform.events.settle(collection, current._id, pending);
    return view;
  }
  throw new PlatformError('conflict', 'edit_conflict', `${options.what} kept changing while they were being replaced; try again`);
}
