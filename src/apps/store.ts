import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../db.js';
import type { CarriesEvents } from '../events/index.js';
import type { AppManifest, BridgeCapability } from './manifest-types.js';

export const DEVELOPERS = 'developers';
export const APPS = 'apps';
export const APP_VERSIONS = 'app_versions';
export const INSTALLATIONS = 'app_installations';
export const OAUTH_CODES = 'oauth_codes';
export const OAUTH_TOKENS = 'oauth_tokens';
export const SIGNING_KEYS = 'signing_keys';
export const APP_CATALOG_REVIEWS = 'app_catalog_reviews';
export const SESSION_TOKEN_USES = 'app_session_token_uses';

/** A partner's developer profile: one per merchant account (docs/apps.md, Partners). */
export type DeveloperDocument = {
  _id: ObjectId;
  merchant_id: ObjectId;
  name: string;
  contact_email: string;
  website_url: string | null;
  support_url: string;
  privacy_policy_url: string;
  created_at: Date;
  updated_at: Date;
};

/**
 * What is kept of a show-once secret (spec 2.2, 5): the SHA-256 of the secret (the secrets are
 * 256-bit random, so a fast hash is enough and stays indexable), the algorithm's name, a short
 * prefix for display, and when it was made. Never the plaintext.
 */
export type HashedSecret = { algorithm: 'sha256'; hash: string; prefix: string; created_at: Date };

/**
 * An app: `submitted` until an operator first approves a version (→ `published`), `rejected`
 * when its only versions were rejected. A published app keeps serving its published version while
 * a newer one is in review.
 */
export type AppStatus = 'submitted' | 'published' | 'rejected';

export type AppDocument = {
  _id: ObjectId;
  developer_id: ObjectId;
  /** The merchant account that owns the developer profile. */
  merchant_id: ObjectId;
  handle: string;
  /** The name of the latest submitted version (the published one is `published.name`). */
  name: string;
  status: AppStatus;
  /** Public OAuth client identifier (`emp_ci_…`), unique. */
  client_id: string;
  client_secret: HashedSecret;
  api_key: HashedSecret;
  /** The version that serves installs and the catalog, and its manifest (a copy), or null before the first approval. */
  published_version_id: ObjectId | null;
  published: AppManifest | null;
  published_at: Date | null;
  latest_version_id: ObjectId;
  version_count: number;
  /** Installations now (install-stats.ts): absent until the first install. */
  install_counts?: { active: number; uninstalled: number };
  /** Catalog reviews, counted as they are written (catalog-reviews.ts); absent until the first review. */
  rating_summary?: RatingSummary;
  created_at: Date;
  updated_at: Date;
};

export type RatingKey = '1' | '2' | '3' | '4' | '5';

/** How many catalog reviews an app has, the sum of their ratings and how many of each rating. */
export type RatingSummary = { count: number; sum: number; distribution: Partial<Record<RatingKey, number>> };

export type AppVersionStatus = 'submitted' | 'approved' | 'rejected' | 'superseded';

/** One submitted manifest of an app, and its review. */
export type AppVersionDocument = {
  _id: ObjectId;
  app_id: ObjectId;
  developer_id: ObjectId;
  /** 1, 2, … per app. */
  number: number;
  manifest: AppManifest;
  status: AppVersionStatus;
  /** An operator's reasons for a rejection (empty otherwise). */
  reasons: string[];
  submitted_at: Date;
  reviewed_at: Date | null;
  reviewed_by: ObjectId | null;
};

export type InstallationStatus = 'active' | 'uninstalled';

/**
 * One app in one store (unique per app and store). Each install (the first, or one after an
 * uninstall) starts a new `grant_id`: every code and token carries the grant it was issued
 * under, and only the current grant of an active installation is honoured, so an uninstall
 * kills every token at once and a re-install never revives an old one.
 */
export type InstallationDocument = {
  _id: ObjectId;
  app_id: ObjectId;
  store_id: ObjectId;
  status: InstallationStatus;
  grant_id: ObjectId;
  /** Granted scopes (normalised: sorted, deduplicated, each write scope with its read). */
  scopes: string[];
  webhook_url: string;
  /** The merchant account that authorized the current grant. */
  installed_by: ObjectId;
  /** The app's own JSON object for this store (`/v1/app/installation/metadata`). */
  metadata: Record<string, unknown>;
  metadata_version: number;
  version: number;
  installed_at: Date;
  uninstalled_at: Date | null;
  /**
   * After an uninstall: when the app is due `shop.redact` (uninstalled_at plus
   * APP_SHOP_REDACT_DELAY_SECONDS); unset once it is sent, or by a re-install first.
   */
  shop_redact_due_at?: Date | null;
  /** When `shop.redact` was recorded for the last uninstall. */
  shop_redacted_at?: Date | null;
  created_at: Date;
  updated_at: Date;
  /**
   * The merchant's bridge capability settings for this store (embedding.ts), one entry per
   * capability set. A list, not a map: capability names contain `.`, which a field name must not.
   */
  bridge_capabilities?: BridgeCapabilitySetting[];
  /** The install config of the admin embed: the merchant's embed URL, first in the URL's resolution (embedding.ts). */
  embed?: { url: string } | null;
} & CarriesEvents;

export type BridgeCapabilitySetting = { capability: BridgeCapability; enabled: boolean };

/** An authorization code (RFC 6749 4.1.2): single use, bound to its client, grant, redirect URI and PKCE challenge. */
export type CodeDocument = {
  _id: ObjectId;
  code_hash: string;
  app_id: ObjectId;
  installation_id: ObjectId;
  grant_id: ObjectId;
  store_id: ObjectId;
  merchant_id: ObjectId;
  redirect_uri: string;
  code_challenge: string;
  scopes: string[];
  expires_at: Date;
  /** Set by the one exchange that may use it; a second use revokes every token issued from it. */
  used_at: Date | null;
  created_at: Date;
};

export type TokenKind = 'access' | 'refresh';
export type AccessMode = 'offline' | 'online';

/**
 * An access or refresh token (opaque, `emp_at_…` / `emp_rt_…`; only the SHA-256 is stored).
 * `family_id`: every token descending from one authorization (code or token exchange), so a
 * replayed refresh token revokes them all (RFC 9700 4.14). `code_id`: the code they came
 * from, so a replayed code revokes them all (RFC 6749 4.1.2).
 */
export type TokenDocument = {
  _id: ObjectId;
  kind: TokenKind;
  token_hash: string;
  app_id: ObjectId;
  installation_id: ObjectId;
  grant_id: ObjectId;
  store_id: ObjectId;
  scopes: string[];
  access_mode: AccessMode;
  /** Online tokens: the merchant user and session they act for (they die with the session). */
  merchant_id: ObjectId | null;
  session_id: ObjectId | null;
  family_id: ObjectId;
  code_id: ObjectId | null;
  /** The refresh token whose use issued this one (null for the first of a family). */
  parent_id: ObjectId | null;
  /** Refresh tokens: when it was used (rotated); a later use is a replay, but for one retry (below). */
  used_at: Date | null;
  /**
   * Refresh tokens, for the one retry of a rotation whose response was lost (oauth.ts): the
   * rotation's answer, encrypted (SECRETS_KEYS, purpose `oauth.refresh_retry`), kept until
   * `retry_until` (the grace after the rotation), then cleared by the retry or the OAuth sweep.
   */
  rotation_answer?: string | null;
  retry_until?: Date | null;
  /** When the one retry was answered. */
  retried_at?: Date | null;
  revoked_at: Date | null;
  expires_at: Date;
  created_at: Date;
};

/** A partner's answer to a catalog review: one per review, editable. */
export type CatalogReviewReply = { body: string; developer_id: ObjectId; created_at: Date; updated_at: Date };

/**
 * A merchant's review of an app in the catalog, for one store (unique per app and store): the
 * store has or had the app installed. `merchant_id` is the author (any merchant with access to
 * the store may edit it).
 */
export type CatalogReviewDocument = {
  _id: ObjectId;
  app_id: ObjectId;
  store_id: ObjectId;
  merchant_id: ObjectId;
  rating: number;
  title: string | null;
  body: string;
  reply: CatalogReviewReply | null;
  version: number;
  created_at: Date;
  updated_at: Date;
};

/**
 * A platform signing key (ES256) for session tokens and install links (keys.ts); the private key
 * encrypted with SECRETS_KEYS. The newest (`created_at`, then `_id`) signs; one replaced by a
 * rotation has `retired_at` and stays published for verification for a grace period.
 */
export type SigningKeyDocument = {
  _id: string;
  alg: 'ES256';
  public_jwk: Record<string, unknown>;
  private_jwk_encrypted: string;
  created_at: Date;
  retired_at: Date | null;
};

/**
 * A session token exchanged at the token endpoint (token exchange, oauth.ts), by its `jti`: the
 * insert of this document is what allows the exchange, and `_id` is unique, so a session token is
 * exchanged at most once however many requests present it. Kept until the token could no longer
 * verify anyway (`exp` and the clock tolerance), then swept.
 */
export type SessionTokenUseDocument = {
  /** The token's `jti` (128 random bits of the platform's). */
  _id: string;
  app_id: ObjectId;
  installation_id: ObjectId;
  exchanged_at: Date;
  expires_at: Date;
};

export const appIndexes: IndexDeclaration[] = [
  { collection: DEVELOPERS, indexes: [{ key: { merchant_id: 1 }, name: 'merchant_id_unique', unique: true }] },
  {
    collection: APPS,
    indexes: [
      { key: { handle: 1 }, name: 'handle_unique', unique: true },
      { key: { client_id: 1 }, name: 'client_id_unique', unique: true },
      { key: { 'api_key.hash': 1 }, name: 'api_key_hash' },
      { key: { developer_id: 1, _id: 1 }, name: 'developer_id_id' },
      { key: { status: 1, _id: 1 }, name: 'status_id' },
    ],
  },
  {
    collection: APP_VERSIONS,
    indexes: [
      { key: { app_id: 1, number: 1 }, name: 'app_id_number_unique', unique: true },
      { key: { status: 1, _id: 1 }, name: 'status_id' },
    ],
  },
  {
    collection: INSTALLATIONS,
    indexes: [
      { key: { app_id: 1, store_id: 1 }, name: 'app_id_store_id_unique', unique: true },
      { key: { store_id: 1, _id: 1 }, name: 'store_id_id' },
      { key: { shop_redact_due_at: 1 }, name: 'shop_redact_due_at' },
    ],
  },
  {
    collection: OAUTH_CODES,
    indexes: [
      { key: { code_hash: 1 }, name: 'code_hash_unique', unique: true },
      { key: { expires_at: 1 }, name: 'expires_at' },
    ],
  },
  {
    collection: OAUTH_TOKENS,
    indexes: [
      { key: { token_hash: 1 }, name: 'token_hash_unique', unique: true },
      { key: { family_id: 1 }, name: 'family_id' },
      { key: { code_id: 1 }, name: 'code_id' },
      { key: { installation_id: 1 }, name: 'installation_id' },
      { key: { parent_id: 1 }, name: 'parent_id' },
      { key: { expires_at: 1 }, name: 'expires_at' },
      { key: { retry_until: 1 }, name: 'retry_until' },
    ],
  },
  { collection: SESSION_TOKEN_USES, indexes: [{ key: { expires_at: 1 }, name: 'expires_at' }] },
  {
    collection: APP_CATALOG_REVIEWS,
    indexes: [
      { key: { app_id: 1, store_id: 1 }, name: 'app_id_store_id_unique', unique: true },
      { key: { app_id: 1, _id: 1 }, name: 'app_id_id' },
      { key: { app_id: 1, rating: 1, _id: 1 }, name: 'app_id_rating_id' },
    ],
  },
];

export const developers = (db: Db) => db.collection<DeveloperDocument>(DEVELOPERS);
export const apps = (db: Db) => db.collection<AppDocument>(APPS);
export const appVersions = (db: Db) => db.collection<AppVersionDocument>(APP_VERSIONS);
export const installations = (db: Db) => db.collection<InstallationDocument>(INSTALLATIONS);
export const oauthCodes = (db: Db) => db.collection<CodeDocument>(OAUTH_CODES);
export const oauthTokens = (db: Db) => db.collection<TokenDocument>(OAUTH_TOKENS);
export const catalogReviews = (db: Db) => db.collection<CatalogReviewDocument>(APP_CATALOG_REVIEWS);
export const signingKeys = (db: Db) => db.collection<SigningKeyDocument>(SIGNING_KEYS);
export const sessionTokenUses = (db: Db) => db.collection<SessionTokenUseDocument>(SESSION_TOKEN_USES);
