import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../../db.js';
import type { CarriesEvents } from '../../events/index.js';

/** Webhook subscriptions, merchants' and apps', and apps' signing secrets. */
export const SUBSCRIPTIONS = 'webhook_subscriptions';
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

export type SubscriptionHealth = 'healthy' | 'failing' | 'disabled';
export type LastSendError = { status: number | null; message: string; at: Date };

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
  /**
   * Its health (health.ts), kept as deliveries finish attempts: `failing` once the attempts that
   * failed in a row reach FAILING_AFTER_FAILED_ATTEMPTS, `disabled` when the platform disabled it,
   * `healthy` again after a success or a re-enable. The health fields are absent on subscriptions
   * older than issue 26 (read as healthy, or disabled when `disabled_reason` is set).
   */
  health?: SubscriptionHealth;
  /** Attempts in a row that failed (any subscription's delivery); reset by a successful attempt. */
  failure_streak?: number;
  /** The first failed attempt of the streak; absent while the streak is 0 (so `$min` sets it). */
  failing_since?: Date;
  /** The latest failed attempt: its status (null for a network failure), error (truncated) and when it was recorded. Kept after a success. */
  last_error?: LastSendError | null;
  /** The latest successful attempt (written at most once a second while nothing else changes). */
  last_success_at?: Date | null;
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

export const subscriptionIndexes: IndexDeclaration[] = [
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
];

export const subscriptions = (db: Db) => db.collection<SubscriptionDocument>(SUBSCRIPTIONS);
export const appSecrets = (db: Db) => db.collection<AppSecretDocument>(APP_SECRETS);
