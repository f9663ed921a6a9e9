import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../db.js';

export const SUBSCRIPTIONS = 'webhook_subscriptions';
export const DELIVERIES = 'webhook_deliveries';

/** A signing secret kept encrypted (encryptSecret, purpose `webhooks.signing_secret`). */
export type StoredSecret = { ciphertext: string; created_at: Date };

export type SubscriptionDocument = {
  _id: ObjectId;
  store_id: ObjectId;
  /** Who the subscription belongs to: the merchant (API), or an app installation (later). */
  owner: { type: 'merchant' | 'app_installation'; id: ObjectId };
  target_url: string;
  event_types: string[];
  description: string | null;
  active: boolean;
  /** Why the platform disabled it (`gone` on a 410, `failing` after repeated exhausted deliveries), or null. */
  disabled_reason: 'gone' | 'failing' | null;
  disabled_at: Date | null;
  /** Deliveries in a row that ended `failed`; reset by a success. */
  consecutive_failed_deliveries: number;
  secret: StoredSecret;
  /** After a rotation, the previous secret also signs until `expires_at`. */
  previous_secret: (StoredSecret & { expires_at: Date }) | null;
  version: number;
  created_at: Date;
  updated_at: Date;
};

export type AttemptDocument = {
  /** The attempt series: 1, and one more for each redelivery. */
  series: number;
  number: number;
  request_id: string;
  started_at: Date;
  duration_ms: number;
  /** HTTP status, or null for a network failure or timeout. */
  status: number | null;
  error: string | null;
  response_preview: string | null;
};

export type DeliveryStatus = 'queued' | 'successful' | 'failed';

/** One (event, subscription) pair. The source of truth; Agenda jobs only drive it. */
export type DeliveryDocument = {
  _id: ObjectId;
  store_id: ObjectId;
  event_id: ObjectId;
  subscription_id: ObjectId;
  event_type: string;
  status: DeliveryStatus;
  /** The next attempt's number (0 to 8): attempts so far in the current series. */
  next_attempt: number;
  next_attempt_at: Date | null;
  /** A claim: the worker holding it sends; when it expires (a crash) the delivery is due again. */
  lease_until: Date | null;
  lease_owner: string | null;
  attempts: AttemptDocument[];
  completed_at: Date | null;
  /** Incremented by a redelivery, which starts a new attempt series. */
  series: number;
  created_at: Date;
  updated_at: Date;
};

export const webhookIndexes: IndexDeclaration[] = [
  {
    collection: SUBSCRIPTIONS,
    indexes: [
      { key: { store_id: 1, _id: 1 }, name: 'store_id_id' },
      { key: { store_id: 1, active: 1 }, name: 'store_id_active' },
    ],
  },
  {
    collection: DELIVERIES,
    indexes: [
      { key: { event_id: 1, subscription_id: 1 }, name: 'event_id_subscription_id_unique', unique: true },
      { key: { store_id: 1, _id: 1 }, name: 'store_id_id' },
      { key: { store_id: 1, status: 1, _id: 1 }, name: 'store_id_status_id' },
      { key: { status: 1, next_attempt_at: 1 }, name: 'status_next_attempt_at' },
    ],
  },
];

export const subscriptions = (db: Db) => db.collection<SubscriptionDocument>(SUBSCRIPTIONS);
export const deliveries = (db: Db) => db.collection<DeliveryDocument>(DELIVERIES);
