import { ObjectId, type Db } from 'mongodb';
import type { Clock } from '../clock.js';
import { isDuplicateKeyError } from '../db.js';
import { events, type EventDocument } from './store.js';

export type DomainEvent = {
  id: string;
  type: string;
  store_id: string;
  payload: Record<string, unknown>;
  idempotency_key: string;
  created_at: string;
};

export type Events = {
  /**
   * Record one domain event. Idempotent on the key: a second emit with the same key
   * returns the event recorded first and writes nothing.
   */
  emit(type: string, storeId: string | ObjectId, payload: Record<string, unknown>, idempotencyKey: string): Promise<DomainEvent>;
};

const EVENT_TYPE = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;

/** Called after an event is recorded (not for a repeated key): how webhook fan-out hears of it. */
export type AfterRecord = (event: DomainEvent) => Promise<void>;

export function createEvents(db: Db, clock: Clock, afterRecord?: AfterRecord): Events {
  return {
    async emit(type, storeId, payload, idempotencyKey) {
      if (!EVENT_TYPE.test(type)) throw new Error(`event type must be lower-case and dotted: ${type}`);
      if (!idempotencyKey) throw new Error('an event needs an idempotency key');
      const doc: EventDocument = {
        _id: new ObjectId(),
        type,
        store_id: typeof storeId === 'string' ? new ObjectId(storeId) : storeId,
        payload,
        idempotency_key: idempotencyKey,
        created_at: clock.now(),
      };
      try {
        await events(db).insertOne(doc);
        const event = present(doc);
        await afterRecord?.(event);
        return event;
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
        const first = await events(db).findOne({ idempotency_key: idempotencyKey });
        if (!first) throw err;
        return present(first);
      }
    },
  };
}

function present(doc: EventDocument): DomainEvent {
  return {
    id: doc._id.toHexString(),
    type: doc.type,
    store_id: doc.store_id.toHexString(),
    payload: doc.payload,
    idempotency_key: doc.idempotency_key,
    created_at: doc.created_at.toISOString(),
  };
}

export async function loadEvent(db: Db, eventId: string): Promise<DomainEvent | null> {
  const doc = await events(db).findOne({ _id: new ObjectId(eventId) });
  return doc ? present(doc) : null;
}

/** The event and whether webhook fan-out has handled it (one read for both). */
export async function loadEventForFanOut(db: Db, eventId: string): Promise<{ event: DomainEvent; fannedOut: boolean } | null> {
  const doc = await events(db).findOne({ _id: new ObjectId(eventId) });
  return doc ? { event: present(doc), fannedOut: Boolean(doc.fanned_out_at) } : null;
}

/** Ids of events recorded before `before` that fan-out has not handled yet, oldest first. */
export async function findEventsNotFannedOut(db: Db, before: Date, limit: number): Promise<string[]> {
  const docs = await events(db)
    .find({ fanned_out_at: null, created_at: { $lte: before } }, { projection: { _id: 1 } })
    .sort({ _id: 1 })
    .limit(limit)
    .toArray();
  return docs.map((d) => d._id.toHexString());
}

export async function markFannedOut(db: Db, eventId: string, at: Date): Promise<void> {
  await events(db).updateOne({ _id: new ObjectId(eventId) }, { $set: { fanned_out_at: at } });
}
