import type { Document, UpdateFilter } from 'mongodb';
import type { IndexDeclaration } from '../db.js';
import type { EventDocument } from './models.js';

/**
 * Every committed change, once (docs/events.md): an event travels in the same single-document
 * write as the change it reports, as an entry of the document's `pending_events`, with
 * `events_pending_since` set (indexed: what the sweep reads). After the write the service
 * records the events (`events.settle`) and takes them off the document. A process that stops
 * in between leaves them on the document, and the `maintenance.settle-events` sweep records
 * them later; the events' idempotency keys make a second recording a no-op. A delete cannot
 * carry anything, so it writes an intent first (`events.deleting`).
 */
export const PENDING_EVENTS = 'pending_events';
export const PENDING_SINCE = 'events_pending_since';

/** A full event, not yet recorded: what a write carries. */
export type PendingEvent = Omit<EventDocument, 'fanned_out_at'>;

/** The fields a carrying document may have (add to a collection's document type). */
export type CarriesEvents = { pending_events?: PendingEvent[]; events_pending_since?: Date };

/** For an insert: spread into the new document. */
export function carried(pending: readonly PendingEvent[]): Required<CarriesEvents> {
  return { pending_events: [...pending], events_pending_since: pending[0]?.created_at ?? new Date() };
}

/** For an update: the same update, also pushing the pending events onto the document. */
export function carrying<T extends Document>(update: UpdateFilter<T>, pending: readonly PendingEvent[]): UpdateFilter<T> {
  const u = update as Record<string, Record<string, unknown> | undefined>;
  return {
    ...u,
    $set: { ...u.$set, [PENDING_SINCE]: pending[0]?.created_at ?? new Date() },
    $push: { ...u.$push, [PENDING_EVENTS]: { $each: [...pending] } },
  } as unknown as UpdateFilter<T>;
}

/** The index each carrying collection gets (boot adds it for every module's `eventCarriers`). */
export function carrierIndexes(collections: readonly string[]): IndexDeclaration[] {
  return collections.map((collection) => ({ collection, indexes: [{ key: { [PENDING_SINCE]: 1 }, name: PENDING_SINCE }] }));
}
