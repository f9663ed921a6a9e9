import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../../db.js';

/** Webhook deliveries: one per (event, subscription), with their attempts. */
export const DELIVERIES = 'webhook_deliveries';

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

export const deliveryIndexes: IndexDeclaration[] = [
  {
    collection: DELIVERIES,
    indexes: [
      { key: { event_id: 1, subscription_id: 1 }, name: 'event_id_subscription_id_unique', unique: true },
      { key: { store_id: 1, _id: 1 }, name: 'store_id_id' },
      { key: { store_id: 1, status: 1, _id: 1 }, name: 'store_id_status_id' },
      { key: { status: 1, next_attempt_at: 1 }, name: 'status_next_attempt_at' },
      // The operator console's list of every store's deliveries by status (docs/console.md).
      { key: { status: 1, _id: 1 }, name: 'status_id' },
      { key: { app_id: 1, _id: 1 }, name: 'app_id_id' },
    ],
  },
];

export const deliveries = (db: Db) => db.collection<DeliveryDocument>(DELIVERIES);

/** Delivery figures of app webhooks per app and UTC day (app-stats.ts). */
export const APP_WEBHOOK_DAYS = 'app_webhook_days';

export type AppWebhookDayDocument = { _id: string; app_id: ObjectId; day: string; successful: number; failed: number; retried: number };

export const appWebhookStatsIndexes: IndexDeclaration[] = [{ collection: APP_WEBHOOK_DAYS, indexes: [{ key: { app_id: 1, day: 1 }, name: 'app_id_day' }] }];

export const appWebhookDays = (db: Db) => db.collection<AppWebhookDayDocument>(APP_WEBHOOK_DAYS);
