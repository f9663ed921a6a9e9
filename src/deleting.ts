import type { Collection, Filter, ObjectId } from 'mongodb';
import type { EventType } from './events/index.js';
import type { Platform } from './platform.js';

/**
 * Delete a versioned document as it was read, with its `<kind>.deleted` event carrying its view:
 * the event's intent is written first (`events.deleting`), then the delete, conditional on the
 * version read (and `also`, more fields the delete depends on), so the event shows the document as
 * it was when it went (events the document still carries go with the intent: `events.deleting`).
 * False when it changed or went since it was read (the caller reads again); `removed` runs once it
 * is gone, under the intent.
 */
export async function deleteAsRead<T extends { _id: ObjectId; store_id: ObjectId; version: number }>(
  platform: Platform,
  target: { collection: Collection<T>; carrier: string; event: EventType },
  doc: Pick<T, '_id' | 'store_id' | 'version'>,
  payload: Record<string, unknown>,
  options: { also?: Partial<T>; removed?: () => unknown } = {},
): Promise<boolean> {
  const pending = [platform.events.pending(target.event, doc.store_id, payload, `${target.event}:${doc._id.toHexString()}`)];
  return platform.events.deleting(target.carrier, doc._id, pending, async () => {
    const filter = { _id: doc._id, store_id: doc.store_id, version: doc.version, ...options.also } as Filter<T>;
    const gone = (await target.collection.deleteOne(filter)).deletedCount === 1;
    if (gone) await options.removed?.();
    return gone;
  });
}
