import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../db.js';
import type { CarriesEvents } from '../events/index.js';

export const SUBSCRIPTIONS = 'webhook_subscriptions';
export const DELIVERIES = 'webhook_deliveries';
/** Apps' webhook signing secrets, by app id (app-subscriptions.ts). */
export const APP_SECRETS = 'app_webhook_secrets';

/** A signing secret kept encrypted (encryptSecret, purpose `webhooks.signing_secret`). */
export type StoredSecret = { ciphertext: string; created_at: Date };
/** A secret replaced by a rotation, still signing until `expires_at`. */
export type RotatedSecret = StoredSecret & { expires_at: Date };

/** An app's webhook signing secret (its `_id` is the app's): what signs every delivery to its installations. */
export type AppSecretDocument = {
  _id: ObjectId;
  secret: StoredSecret;
  previous_secret: RotatedSecret | null;
  version: number;
  created_at: Date;
  updated_at: Date;
};

export type SubscriptionDocument = {
  _id: ObjectId;
  store_id: ObjectId;
  /**
   * Who the subscription belongs to: the merchant (the operations API), or an app installation
   * (made by the install; its `_id` is the installation's, so there is one per installation).
   */
  owner: { type: 'merchant' | 'app_installation'; id: ObjectId };
  /** An app installation's subscription: the app, whose signing secret (APP_SECRETS) signs its deliveries. */
  app_id?: ObjectId;
  target_url: string;
  event_types: string[];
  description: string | null;
  active: boolean;
  /**
   * Why the platform disabled it, after deliveries kept ending `failed` (delivery.ts,
   * DISABLE_AFTER_FAILED_DELIVERIES): `gone` when each of them ended on a 410, `failing`
   * otherwise. Null when active or paused by the merchant.
   */
  disabled_reason: 'gone' | 'failing' | null;
  disabled_at: Date | null;
  /** Deliveries in a row that ended `failed`; reset by a success. */
  consecutive_failed_deliveries: number;
  /** Of those, the ones in a row whose last attempt answered 410 (absent on subscriptions older than issue 10: 0). */
  consecutive_gone_deliveries?: number;
  /** The subscription's own signing secret (a merchant's subscription; an app's signs with the app's, `app_id`). */
  secret?: StoredSecret;
  /** After a rotation, the previous secret also signs until `expires_at`. */
  previous_secret?: RotatedSecret | null;
  version: number;
  /**
   * A catch-up window, open after a change that lets the subscription want more events (see
   * interest.ts): the sweeper fans out to it the events recorded since `catch_up_from` once
   * `catch_up_due` has passed, then removes both. Absent when none is open.
   */
  catch_up_from?: Date;
  catch_up_due?: Date;
  created_at: Date;
  updated_at: Date;
} & CarriesEvents;

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
  /**
   * After a failed attempt that is retried: the delay chosen, in seconds (spec 6.1 rule 8); the
   * delivery's `next_attempt_at` is the time it led to. Null after a success or a last failure
   * (absent on attempts recorded before issue 10).
   */
  retry_seconds?: number | null;
};

export type DeliveryStatus = 'queued' | 'successful' | 'failed';

/** One (event, subscription) pair. The source of truth; Agenda jobs only drive it. */
export type DeliveryDocument = {
  _id: ObjectId;
  store_id: ObjectId;
  event_id: ObjectId;
  subscription_id: ObjectId;
  /** A delivery to an app installation's subscription: the app (its partner's deliveries log reads by it). */
  app_id?: ObjectId;
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
      { key: { catch_up_due: 1 }, name: 'catch_up_due' },
      { key: { app_id: 1, consecutive_failed_deliveries: 1 }, name: 'app_id_consecutive_failed_deliveries' },
      { key: { app_id: 1, _id: 1 }, name: 'app_id_id' },
    ],
  },
  {
    collection: DELIVERIES,
    indexes: [
      { key: { event_id: 1, subscription_id: 1 }, name: 'event_id_subscription_id_unique', unique: true },
      { key: { store_id: 1, _id: 1 }, name: 'store_id_id' },
      { key: { store_id: 1, status: 1, _id: 1 }, name: 'store_id_status_id' },
      { key: { status: 1, next_attempt_at: 1 }, name: 'status_next_attempt_at' },
      { key: { app_id: 1, _id: 1 }, name: 'app_id_id' },
    ],
  },
];

export const subscriptions = (db: Db) => db.collection<SubscriptionDocument>(SUBSCRIPTIONS);
export const appSecrets = (db: Db) => db.collection<AppSecretDocument>(APP_SECRETS);
export const deliveries = (db: Db) => db.collection<DeliveryDocument>(DELIVERIES);

/** Delivery figures of app webhooks per app and UTC day (app-stats.ts). */
export const APP_WEBHOOK_DAYS = 'app_webhook_days';

export type AppWebhookDayDocument = { _id: string; app_id: ObjectId; day: string; successful: number; failed: number; retried: number };

export const appWebhookStatsIndexes: IndexDeclaration[] = [{ collection: APP_WEBHOOK_DAYS, indexes: [{ key: { app_id: 1, day: 1 }, name: 'app_id_day' }] }];

export const appWebhookDays = (db: Db) => db.collection<AppWebhookDayDocument>(APP_WEBHOOK_DAYS);
