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

export function createEvents(db: Db, clock: Clock): Events {
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
        return present(doc);
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
