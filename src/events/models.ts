import { ObjectId, type Db } from 'mongodb';
import type { IndexDeclaration } from '../db.js';

export const EVENTS = 'events';

/**
 * Who an addressed event is for: an app installation (its lifecycle, a compliance notice, its
 * bulk operation finishing), or a merchant (its bulk operation finishing: for the store's
 * subscriptions of that type, and never for an app's).
 */
export type EventRecipient = {
  type: 'app_installation' | 'merchant';
  id: ObjectId;
  /** Only the recipient receives it (the compliance topics); otherwise subscriptions of the store that match its type do too. */
  exclusive?: boolean;
};

export type EventDocument = {
  _id: ObjectId;
  type: string;
  /** The store it happened in; null for an event of no store (a theme uploaded by an author who owns none): no subscription receives it. */
  store_id: ObjectId | null;
  payload: Record<string, unknown>;
  /**
   * One subscriber the event is for (docs/apps.md, App webhooks): an app installation's
   * lifecycle and compliance events go to that installation's subscription and no other app's.
   * Absent or null for an event of the store as a whole.
   */
  recipient?: EventRecipient | null;
  idempotency_key: string;
  created_at: Date;
  /** Set once webhook fan-out has created this event's deliveries (absent or null before). */
  fanned_out_at?: Date | null;
};

export const eventIndexes: IndexDeclaration[] = [
  {
    collection: EVENTS,
    indexes: [
      { key: { idempotency_key: 1 }, name: 'idempotency_key_unique', unique: true },
      { key: { store_id: 1, _id: 1 }, name: 'store_id_id' },
      { key: { fanned_out_at: 1, _id: 1 }, name: 'fanned_out_at_id' },
    ],
  },
];

export const events = (db: Db) => db.collection<EventDocument>(EVENTS);

/** Delete intents: what a delete is about to remove and the events it carries (written first; events.deleting). */
export const EVENT_INTENTS = 'event_intents';

export type EventIntent = {
  _id: ObjectId;
  /** The collection and document a delete is about to remove. */
  collection: string;
  entity_id: ObjectId;
  events: Omit<EventDocument, 'fanned_out_at'>[];
  created_at: Date;
};

export const eventIntents = (db: Db) => db.collection<EventIntent>(EVENT_INTENTS);

export const intentIndexes: IndexDeclaration[] = [{ collection: EVENT_INTENTS, indexes: [{ key: { created_at: 1 }, name: 'created_at' }] }];
