import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../../db.js';
import type { AppManifest } from '../manifest/types.js';
import type { RatingSummary } from '../ratings/models.js';

/** The partners' collections: developer profiles, their apps and each app's submitted versions. */
export const DEVELOPERS = 'developers';
export const APPS = 'apps';
export const APP_VERSIONS = 'app_versions';

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
  /** Installations now (stats/installs.ts): absent until the first install. */
  install_counts?: { active: number; uninstalled: number };
  /** Catalog reviews, counted as they are written (ratings/service.ts); absent until the first review. */
  rating_summary?: RatingSummary;
  created_at: Date;
  updated_at: Date;
};

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

export const partnerIndexes: IndexDeclaration[] = [
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
];

export const developers = (db: Db) => db.collection<DeveloperDocument>(DEVELOPERS);
export const apps = (db: Db) => db.collection<AppDocument>(APPS);
export const appVersions = (db: Db) => db.collection<AppVersionDocument>(APP_VERSIONS);
