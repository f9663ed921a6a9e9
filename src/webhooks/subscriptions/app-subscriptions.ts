import { ObjectId } from 'mongodb';
import { isDuplicateKeyError } from '../../db.js';
import { PlatformError } from '../../errors.js';
import { afterCursor, type Page, findPage } from '../../pagination.js';
import type { Platform } from '../../platform.js';
import { FRESH_HEALTH } from './health.js';
import { catchUpWindow, forgetStoreInterest } from './interest.js';
import { presentAppSubscription, type AppSubscriptionView } from './present.js';
import { generateSigningSecret, sealSecret } from './signing.js';
import { rotatedOut } from './service.js';
import { appSecrets, subscriptions, type AppSecretDocument, type RotatedSecret, type StoredSecret, type SubscriptionDocument } from './models.js';

/**
 * App webhooks (docs/apps.md, App webhooks): the webhook side of the app platform.
 *
 * - An app has one signing secret (APP_SECRETS, `_id` = the app's id), made at submission and
 *   shown once, stored encrypted like a subscription's (the platform signs with it), rotated
 *   with the same grace rule. It signs every delivery to the app's installations.
 * - An installation has one subscription (owner `app_installation`, `_id` = the installation's
 *   id, `app_id` set, no secret of its own) targeting the `webhook_url` of its authorization.
 *   Events addressed to the installation (its lifecycle, compliance notices) always reach it
 *   (interest.ts, wants); its `event_types` are the lifecycle and compliance topics and, while
 *   installed, the store topics of the app's manifest.
 *
 * The engine (fan-out, signing, retries, 410s, the deliveries log, redelivery) is the one of
 * every subscription; deliveries to an app's subscription carry its `app_id`.
 */

/** A change of an app's secret retries this often when a concurrent change got there first. */
const CHANGE_ATTEMPTS = 5;

/** A new app's signing secret: stored sealed, returned in plaintext this once (the submission's answer). */
export async function createAppSigningSecret(platform: Platform, appId: ObjectId): Promise<string> {
  const now = platform.clock.now();
  const secret = generateSigningSecret();
  await appSecrets(platform.db).insertOne({
    _id: appId,
    secret: sealSecret(platform.config.secretsKeys, secret, now),
    previous_secret: null,
    version: 1,
    created_at: now,
    updated_at: now,
  });
  return secret;
}

export type AppSecretView = { secret_rotated_at: string; previous_secret_expires_at: string | null };

const presentAppSecret = (doc: Pick<AppSecretDocument, 'secret' | 'previous_secret'>): AppSecretView => ({
  secret_rotated_at: doc.secret.created_at.toISOString(),
  previous_secret_expires_at: doc.previous_secret?.expires_at.toISOString() ?? null,
});

/**
 * A new signing secret for the app, in this answer only. The one it replaces keeps signing
 * (in `X-Platform-Hmac-SHA256-Previous`) for `graceSeconds`; 0 drops it at once. An app
 * without a secret (submitted before app webhooks) gets its first one.
 */
export async function rotateAppSigningSecret(platform: Platform, appId: ObjectId, graceSeconds: number): Promise<AppSecretView & { secret: string }> {
  const coll = appSecrets(platform.db);
  for (let attempt = 1; attempt <= CHANGE_ATTEMPTS; attempt++) {
    const current = await coll.findOne({ _id: appId });
    const now = platform.clock.now();
    const secret = generateSigningSecret();
    const sealed = sealSecret(platform.config.secretsKeys, secret, now);
    if (!current) {
      try {
        await coll.insertOne({ _id: appId, secret: sealed, previous_secret: null, version: 1, created_at: now, updated_at: now });
      } catch (err) {
        if (isDuplicateKeyError(err)) continue;
        throw err;
      }
      return { ...presentAppSecret({ secret: sealed, previous_secret: null }), secret };
    }
    const previous = rotatedOut(current.secret, graceSeconds, now);
    const written = await coll.updateOne(
      { _id: appId, version: current.version },
      { $set: { secret: sealed, previous_secret: previous, updated_at: now }, $inc: { version: 1 } },
    );
    if (written.matchedCount === 1) return { ...presentAppSecret({ secret: sealed, previous_secret: previous }), secret };
  }
  throw new PlatformError('conflict', 'app_secret_busy', "The app's signing secret kept changing while it was being rotated; try again");
}

/**
 * The secrets that sign a delivery to this subscription: its own, or its app's. `current` is
 * null when an app has no secret (an app submitted before app webhooks, until it rotates one).
 */
export async function signingSecretsOf(
  platform: Platform,
  sub: SubscriptionDocument,
): Promise<{ current: StoredSecret | null; previous: RotatedSecret | null }> {
  if (!sub.app_id) return { current: sub.secret ?? null, previous: sub.previous_secret ?? null };
  const doc = await appSecrets(platform.db).findOne({ _id: sub.app_id });
  return { current: doc?.secret ?? null, previous: doc?.previous_secret ?? null };
}

export type AppSubscriptionSpec = {
  installationId: ObjectId;
  appId: ObjectId;
  storeId: ObjectId;
  targetUrl: string;
  /** The lifecycle and compliance topics, and the manifest's store topics the granted scopes allow. */
  eventTypes: string[];
};

/**
 * Make the installation's subscription active with this target and these topics (an install,
 * a re-install, a re-authorization): created the first time, updated after. Re-enables one the
 * platform disabled after failing deliveries (a re-authorization is the partner's fix), and
 * starts a new health episode (health.ts) like every reset of the failure counts. Opens a
 * catch-up window (interest.ts) since it may now want events other processes recorded as
 * unwanted a moment ago.
 */
export async function openAppSubscription(platform: Platform, spec: AppSubscriptionSpec): Promise<void> {
  const coll = subscriptions(platform.db);
  const now = platform.clock.now();
  const window = catchUpWindow(platform);
  const set = {
    target_url: spec.targetUrl,
    event_types: spec.eventTypes,
    active: true,
    disabled_reason: null,
    disabled_at: null,
    consecutive_failed_deliveries: 0,
    consecutive_gone_deliveries: 0,
    ...FRESH_HEALTH,
    updated_at: now,
  };
  for (let attempt = 1; attempt <= 2; attempt++) {
    try {
      await coll.updateOne(
        { _id: spec.installationId, store_id: spec.storeId },
        {
          $set: set,
          $unset: { failing_since: '' },
          $inc: { version: 1 },
          $min: { catch_up_from: window.catch_up_from },
          $max: { catch_up_due: window.catch_up_due },
          $setOnInsert: { owner: { type: 'app_installation', id: spec.installationId }, app_id: spec.appId, description: null, created_at: now },
        },
        { upsert: true },
      );
      break;
    } catch (err) {
      if (!isDuplicateKeyError(err) || attempt === 2) throw err; // two upserts at once: the second updates
    }
  }
  forgetStoreInterest(platform.db, spec.storeId);
}

/**
 * After an uninstall: the subscription keeps only the topics addressed to the installation
 * (`app.uninstalled` now, `shop.redact` later), none of the store's.
 */
export async function narrowAppSubscription(platform: Platform, installationId: ObjectId, storeId: ObjectId, eventTypes: string[]): Promise<void> {
  await subscriptions(platform.db).updateOne(
    { _id: installationId, store_id: storeId },
    { $set: { event_types: eventTypes, updated_at: platform.clock.now() }, $inc: { version: 1 } },
  );
  forgetStoreInterest(platform.db, storeId);
}

/** The subscriptions of the app's installations, in every store, oldest first (the partner's view). */
export async function listAppSubscriptions(
  platform: Platform,
  appId: ObjectId,
  page: Page,
): Promise<{ items: AppSubscriptionView[]; nextCursor: string | null }> {
  const { items, nextCursor } = await findPage(subscriptions(platform.db), { app_id: appId, ...afterCursor(page) }, page.limit);
  return { items: items.map(presentAppSubscription), nextCursor };
}

/** Whether an installation can be told something: its subscription is active and its app has a signing secret. */
export type DeliveryReadiness = {
  installation_id: string;
  ready: boolean;
  reason: 'no_subscription' | 'subscription_disabled' | 'no_signing_secret' | null;
  target_url: string | null;
};

/** The delivery configuration of each installation (two reads whatever their number). */
export async function appDeliveryReadiness(
  platform: Platform,
  installs: readonly { installationId: ObjectId; appId: ObjectId }[],
): Promise<DeliveryReadiness[]> {
  if (installs.length === 0) return [];
  const subs = await subscriptions(platform.db)
    .find({ _id: { $in: installs.map((i) => i.installationId) } }, { projection: { _id: 1, active: 1, target_url: 1 } })
    .toArray();
  const secrets = await appSecrets(platform.db)
    .find({ _id: { $in: [...new Set(installs.map((i) => i.appId.toHexString()))].map((id) => new ObjectId(id)) } }, { projection: { _id: 1 } })
    .toArray();
  const subById = new Map(subs.map((s) => [s._id.toHexString(), s]));
  const withSecret = new Set(secrets.map((s) => s._id.toHexString()));
  return installs.map(({ installationId, appId }) => {
    const sub = subById.get(installationId.toHexString());
    const reason = !sub ? 'no_subscription' : !sub.active ? 'subscription_disabled' : !withSecret.has(appId.toHexString()) ? 'no_signing_secret' : null;
    return { installation_id: installationId.toHexString(), ready: reason === null, reason, target_url: sub?.target_url ?? null };
  });
}
