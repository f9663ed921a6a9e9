import { ObjectId, type Collection, type Db, type Document, type OptionalUnlessRequiredId } from 'mongodb';
import type { Clock } from '../clock.js';
import { insertEach } from '../db.js';
import { groupCommit } from '../group-commit.js';
import type { Log } from '../log.js';
import type { EventType } from './types.js';
import { carried, PENDING_EVENTS, PENDING_SINCE, type CarriesEvents, type PendingEvent } from './outbox.js';
import { EVENT_INTENTS, eventIntents, events, type EventDocument, type EventRecipient } from './models.js';

export type DomainEvent = {
  id: string;
  type: string;
  store_id: string | null;
  /** The one subscriber an addressed event is for (EventDocument.recipient), or null. */
  recipient: { type: EventRecipient['type']; id: string; exclusive: boolean } | null;
  payload: Record<string, unknown>;
  idempotency_key: string;
  created_at: string;
};

/** Options of an event: `recipient` addresses it to one subscriber (EventDocument.recipient). */
export type EventOptionsOf = { recipient?: EventRecipient };

export type Events = {
  /**
   * Record one domain event. Idempotent on the key: a second emit with the same key
   * returns the event recorded first and writes nothing.
   */
  emit(type: EventType, storeId: string | ObjectId | null, payload: Record<string, unknown>, idempotencyKey: string): Promise<DomainEvent>;
  /**
   * An event to be carried by the write that makes its change (docs/events.md, "Every
   * committed change, once"): put it on the document with `carried` (an insert) or `carrying`
   * (an update), write, then `settle`. Nothing is recorded yet.
   */
  pending(type: EventType, storeId: string | ObjectId | null, payload: Record<string, unknown>, idempotencyKey: string, options?: EventOptionsOf): PendingEvent;
  /**
   * After the write that carried `pending` committed: record the events and take them off the
   * document. Never throws: whatever it cannot finish stays on the document, and the
   * `maintenance.settle-events` sweep records it (same keys, so once).
   */
  settle<T extends Document>(collection: Collection<T>, id: ObjectId, pending: readonly PendingEvent[]): Promise<void>;
  /**
   * The whole of an insert that reports events: `doc` carrying `pending` (`carried`), then
   * `settle`. An insert that fails (a unique index refusing it) throws as the driver does, and
   * nothing is recorded.
   */
  insert<T extends Document & CarriesEvents>(
    collection: Collection<T>,
    doc: OptionalUnlessRequiredId<T> & { _id: ObjectId },
    pending: readonly PendingEvent[],
  ): Promise<void>;
  /**
   * A delete that reports an event: the intent (the events, naming the document) is written
   * first, then `remove` runs; when it removed the document the events are recorded, when it
   * removed nothing the intent is dropped. If the process stops between, the sweep records the
   * events if and only if the document is gone. Returns what `remove` returned.
   */
  deleting(collection: string, id: ObjectId, pending: readonly PendingEvent[], remove: () => Promise<boolean>): Promise<boolean>;
  /** The sweep: events left pending on documents (and delete intents) older than `before`. Returns how many it recorded. */
  settleLeftBehind(before: Date, limit?: number): Promise<number>;
  /**
   * The outbox's backlog (operations): per carrying collection, and for delete intents, how many
   * documents have carried events since `before` or earlier, and since when the oldest has; counted
   * up to `limit` each (the `events_pending_since` and `created_at` indexes: no collection scan).
   */
  backlog(before: Date, limit?: number): Promise<{ collection: string; count: number; capped: boolean; oldest: Date | null }[]>;
  /** Every event type the platform's modules record, sorted. */
  readonly types: readonly string[];
  /** A subscription pattern: a known type, `<family>.*` for a known family, or `*`. */
  isPattern(pattern: string): boolean;
};

const EVENT_TYPE = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;

/** Called after an event is recorded (not for a repeated key) that something wants: how webhook fan-out hears of it. */
export type AfterRecord = (event: DomainEvent) => Promise<void>;

/**
 * Which of the events about to be recorded anything consumes (one answer per event, in
 * order; one read for the batch): whether an active webhook subscription of the event's store
 * matches its type, or whether a module hears it (a webhook subscription's health notice). An event nothing wants is recorded as already fanned out and not
 * announced, so it costs no wake-up, job or fan-out read.
 */
export type Wanted = (events: readonly Pick<EventDocument, 'type' | 'store_id' | 'recipient' | 'payload'>[]) => Promise<boolean[]>;

export type EventHooks = { wanted?: Wanted; afterRecord?: AfterRecord };

export type EventOptions = EventHooks & {
  /** Collections whose documents carry pending events (modules' `eventCarriers`): what the sweep reads. */
  carriers?: readonly string[];
  log?: Log;
};

/** Events recorded in one command at most (group commit, see createEvents). */
const EMIT_BATCH = 200;

/**
 * The platform's events. `types`: every type the modules declare, which webhook subscriptions
 * may name (each listed in its domain's events.ts; emit and pending take only a listed type).
 */
export function createEvents(db: Db, clock: Clock, types: readonly string[], { wanted, afterRecord, carriers = [], log }: EventOptions = {}): Events {
  const known = new Set(types);
  const families = new Set(types.map((t) => t.split('.')[0]!));
  // Emits made while one insert is out are written together by the next (one command for a
  // burst, and one read of who wants them); each caller still waits for its own event's outcome.
  const record = groupCommit(
    async (docs: EventDocument[]) => {
      const answers = wanted ? await wanted(docs) : docs.map(() => true);
      docs.forEach((doc, i) => {
        if (!answers[i]) doc.fanned_out_at = doc.created_at;
      });
      return insertEach(events(db), docs);
    },
    { maxBatch: EMIT_BATCH },
  );
  const build = (
    type: string,
    storeId: string | ObjectId | null,
    payload: Record<string, unknown>,
    idempotencyKey: string,
    options: EventOptionsOf = {},
  ): EventDocument => {
    if (!EVENT_TYPE.test(type)) throw new Error(`event type must be lower-case and dotted: ${type}`);
    if (!idempotencyKey) throw new Error('an event needs an idempotency key');
    return {
      _id: new ObjectId(),
      type,
      store_id: typeof storeId === 'string' ? new ObjectId(storeId) : storeId,
      payload,
      ...(options.recipient ? { recipient: options.recipient } : {}),
      idempotency_key: idempotencyKey,
      created_at: clock.now(),
    };
  };
  /** Record one event document; a repeated key answers the event recorded first. */
  const recordOne = async (doc: EventDocument): Promise<DomainEvent> => {
    const outcome = await record(doc);
    if (outcome === 'inserted') {
      const event = present(doc);
      if (!doc.fanned_out_at) await afterRecord?.(event);
      return event;
    }
    if (outcome instanceof Error) throw outcome;
    const first = await events(db).findOne({ idempotency_key: doc.idempotency_key });
    if (!first) throw new Error(`event ${doc.idempotency_key}: refused as a duplicate, but no event has that key`);
    return present(first);
  };
  const recordPending = (pending: readonly PendingEvent[]) => Promise.all(pending.map((p) => recordOne({ ...p })));
  const anyCollection = <T extends Document>(c: Collection<T>) => c as unknown as Collection<Document>;

  /** Record what the document carries and take it off, if it still carries exactly that (at most `tries` reads). */
  const settleDocument = async (collection: Collection<Document>, id: ObjectId, known: readonly PendingEvent[] | null, tries: number): Promise<number> => {
    let carried = known;
    let recorded = 0;
    for (let i = 0; i < tries; i++) {
      if (!carried) {
        const doc = await collection.findOne({ _id: id }, { projection: { [PENDING_EVENTS]: 1, [PENDING_SINCE]: 1 } });
        if (!doc) return recorded;
        carried = (doc[PENDING_EVENTS] as PendingEvent[] | undefined) ?? [];
        if (carried.length === 0) {
          if (doc[PENDING_SINCE]) await collection.updateOne({ _id: id, [PENDING_EVENTS]: { $exists: false } }, { $unset: { [PENDING_SINCE]: '' } });
          return recorded;
        }
      }
      await recordPending(carried);
      recorded += carried.length;
      // Equality on the whole array: taken off only if nothing was added meanwhile.
      const cleared = await collection.updateOne({ _id: id, [PENDING_EVENTS]: carried }, { $unset: { [PENDING_EVENTS]: '', [PENDING_SINCE]: '' } });
      if (cleared.matchedCount === 1) return recorded;
      carried = null;
    }
    return recorded;
  };

  const service: Events = {
    // async: a refused type or key is a rejected promise, like every other failure of emit.
    emit: async (type, storeId, payload, idempotencyKey) => recordOne(build(type, storeId, payload, idempotencyKey)),
    pending: (type, storeId, payload, idempotencyKey, options) => build(type, storeId, payload, idempotencyKey, options),
    async settle(collection, id, pending) {
      try {
        await settleDocument(anyCollection(collection), id, pending, 3);
      } catch (err) {
        log?.warn({ err, collection: anyCollection(collection).collectionName, id: id.toHexString() }, 'events left pending for the sweep');
      }
    },
    async insert(collection, doc, pending) {
      await collection.insertOne({ ...doc, ...carried(pending) });
      // The service's settle as it is now (a test stops the process there by replacing it).
      await service.settle(collection, doc._id, pending);
    },
    async deleting(collection, id, pending, remove) {
      // Events the document still carries (a writer that stopped before settling) go with the intent, or the delete would lose them.
      const carrying = await db.collection(collection).findOne({ _id: id }, { projection: { [PENDING_EVENTS]: 1 } });
      const keys = new Set(pending.map((p) => p.idempotency_key));
      const leftOver = ((carrying?.[PENDING_EVENTS] as PendingEvent[] | undefined) ?? []).filter((p) => !keys.has(p.idempotency_key));
      pending = [...leftOver, ...pending];
      const intent = { _id: new ObjectId(), collection, entity_id: id, events: [...pending], created_at: clock.now() };
      await eventIntents(db).insertOne(intent);
      // If remove throws, whether the delete happened is unknown: the sweep looks later.
      const removed = await remove();
      try {
        if (removed) await recordPending(pending);
        await eventIntents(db).deleteOne({ _id: intent._id });
      } catch (err) {
        log?.warn({ err, collection, id: id.toHexString() }, 'delete events left to the sweep');
      }
      return removed;
    },
    async settleLeftBehind(before, limit = 200) {
      let recorded = 0;
      for (const name of carriers) {
        const collection = db.collection(name);
        const docs = await collection
          .find({ [PENDING_SINCE]: { $lte: before } }, { projection: { _id: 1 } })
          .limit(limit)
          .toArray();
        for (const doc of docs) recorded += await settleDocument(collection, doc._id as ObjectId, null, 3);
      }
      const intents = await eventIntents(db)
        .find({ created_at: { $lte: before } })
        .sort({ created_at: 1 })
        .limit(limit)
        .toArray();
      for (const intent of intents) {
        const still = await db.collection(intent.collection).findOne({ _id: intent.entity_id }, { projection: { _id: 1 } });
        if (!still) {
          await recordPending(intent.events);
          recorded += intent.events.length;
        }
        await eventIntents(db).deleteOne({ _id: intent._id });
      }
      return recorded;
    },
    async backlog(before, limit = 10_000) {
      const sources: [string, typeof PENDING_SINCE | 'created_at'][] = [
        ...carriers.map((name): [string, typeof PENDING_SINCE] => [name, PENDING_SINCE]),
        [EVENT_INTENTS, 'created_at'],
      ];
      return Promise.all(
        sources.map(async ([name, field]) => {
          const collection = db.collection(name);
          const filter = { [field]: { $lte: before } };
          // Most collections have no backlog: the oldest says so, and spares the count.
          const oldest = await collection.findOne(filter, { sort: { [field]: 1 }, projection: { [field]: 1 } });
          const count = oldest ? await collection.countDocuments(filter, { limit }) : 0;
          const since = oldest as { [PENDING_SINCE]?: Date; created_at?: Date } | null;
          return { collection: name, count, capped: count >= limit, oldest: (since?.[field] as Date | undefined) ?? null };
        }),
      );
    },
    types: [...known].sort(),
    isPattern(pattern) {
      if (pattern === '*') return true;
      if (pattern.endsWith('.*')) return families.has(pattern.slice(0, -2));
      return known.has(pattern);
    },
  };
  return service;
}

function present(doc: EventDocument): DomainEvent {
  return {
    id: doc._id.toHexString(),
    type: doc.type,
    store_id: doc.store_id?.toHexString() ?? null,
    recipient: doc.recipient ? { type: doc.recipient.type, id: doc.recipient.id.toHexString(), exclusive: doc.recipient.exclusive === true } : null,
    payload: doc.payload,
    idempotency_key: doc.idempotency_key,
    created_at: doc.created_at.toISOString(),
  };
}

export async function loadEvent(db: Db, eventId: string): Promise<DomainEvent | null> {
  const doc = await events(db).findOne({ _id: new ObjectId(eventId) });
  return doc ? present(doc) : null;
}

/** Of the given events, those webhook fan-out has not handled yet (one read), in the order given. */
export async function loadEventsNotFannedOut(db: Db, eventIds: readonly string[]): Promise<DomainEvent[]> {
  if (eventIds.length === 0) return [];
  const docs = await events(db)
    .find({ _id: { $in: eventIds.map((id) => new ObjectId(id)) } })
    .toArray();
  const byId = new Map(docs.filter((d) => !d.fanned_out_at).map((d) => [d._id.toHexString(), present(d)]));
  return [...new Set(eventIds)].flatMap((id) => byId.get(id) ?? []);
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

/**
 * A store's events recorded at or after `since`, oldest first, at most `limit` (a range of the
 * store's `_id` index: an ObjectId starts with its creation second).
 */
export async function findStoreEventsSince(db: Db, storeId: ObjectId, since: Date, limit: number): Promise<DomainEvent[]> {
  const docs = await events(db)
    .find({ store_id: storeId, _id: { $gte: ObjectId.createFromTime(Math.floor(since.getTime() / 1000)) }, created_at: { $gte: since } })
    .sort({ _id: 1 })
    .limit(limit)
    .toArray();
  return docs.map(present);
}

export async function markFannedOut(db: Db, eventIds: readonly string[], at: Date): Promise<void> {
  if (eventIds.length === 0) return;
  await events(db).updateMany({ _id: { $in: eventIds.map((id) => new ObjectId(id)) } }, { $set: { fanned_out_at: at } });
}
