import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../db.js';
import type { CarriesEvents } from '../events/index.js';
import type { ThemeBundle } from './bundle-types.js';

export const THEME_PACKAGES = 'theme_packages';
export const THEME_VERSIONS = 'theme_versions';
export const THEME_REVIEWS = 'theme_reviews';
export const STORE_THEMES = 'store_themes';

/** spec 3: a marketplace upload creates package and version `draft`; approval makes them `active` / `published`. */
export type PackageStatus = 'draft' | 'active' | 'rejected';
export type VersionStatus = 'draft' | 'in_review' | 'published' | 'rejected' | 'superseded' | 'private';
export type SubmissionMode = 'marketplace' | 'private_install';

export type CatalogMeta = {
  name: string;
  author_name: string;
  site_types: string[];
  pricing_type: string;
  price: number;
  currency: string;
  version: string;
  version_number: number;
  engine: string;
  templates: string[];
  published_at: Date;
};

/** One slug: its author, and the version that serves the catalog and installs. */
export type ThemePackageDocument = {
  _id: ObjectId;
  slug: string;
  /** The merchant account that uploaded it first: only it may upload new versions. */
  author_id: ObjectId;
  name: string;
  author_name: string;
  site_types: string[];
  pricing_type: string;
  price: number;
  currency: string;
  status: PackageStatus;
  /** Private packages are installable only into the author's own stores and never listed. */
  visibility: 'marketplace' | 'private';
  published_version_id: ObjectId | null;
  /** What the catalog shows of the published version (copied when it is published), or null before. */
  catalog: CatalogMeta | null;
  latest_version_number: number;
  created_at: Date;
  updated_at: Date;
} & CarriesEvents;

export type ThemeVersionDocument = {
  _id: ObjectId;
  package_id: ObjectId;
  slug: string;
  version: string;
  version_number: number;
  status: VersionStatus;
  submission_mode: SubmissionMode;
  /** The normalised bundle, and the SHA-256 of its canonical JSON (what persistence checks read back). */
  bundle: ThemeBundle;
  bundle_sha256: string;
  uploaded_by: ObjectId;
  created_at: Date;
  updated_at: Date;
} & CarriesEvents;

export type CheckStatus = 'pending' | 'passed' | 'failed' | 'warning';
export type ReviewCheck = { name: string; status: CheckStatus; details: string[]; ran_at: Date | null };
export type ReviewStatus = 'pending_checks' | 'checks_failed' | 'awaiting_review' | 'approved' | 'rejected';

export type ThemeReviewDocument = {
  _id: ObjectId;
  submission_type: 'theme_version';
  /** The theme version under review. */
  resource_id: ObjectId;
  package_id: ObjectId;
  status: ReviewStatus;
  checks: ReviewCheck[];
  schema_manifest_version: string;
  renderer_version: string;
  reasons: string[];
  reviewed_by: ObjectId | null;
  reviewed_at: Date | null;
  /** The store the review's events are recorded in (the uploader's; null when they own none). */
  event_store_id: ObjectId | null;
  /** The themes worker running the checks holds the review for a while (src/work/lease.ts); a dead worker's review is taken again. */
  lease_until: Date | null;
  lease_owner: string | null;
  check_runs: number;
  created_at: Date;
  updated_at: Date;
} & CarriesEvents;

/** A theme installed in a store: its own copy of the version's bundle pieces and its own settings. */
export type StoreThemeDocument = {
  _id: ObjectId;
  store_id: ObjectId;
  package_id: ObjectId;
  version_id: ObjectId;
  slug: string;
  version: string;
  role: 'live' | 'unpublished';
  settings_data: ThemeBundle['config']['settings_data'];
  installed_by: ObjectId;
  version_counter: number;
  created_at: Date;
  updated_at: Date;
} & CarriesEvents;

export const themeIndexes: IndexDeclaration[] = [
  {
    collection: THEME_PACKAGES,
    indexes: [
      { key: { slug: 1 }, name: 'slug_unique', unique: true },
      { key: { status: 1, visibility: 1, _id: 1 }, name: 'status_visibility_id' },
    ],
  },
  {
    collection: THEME_VERSIONS,
    indexes: [
      { key: { package_id: 1, version_number: 1 }, name: 'package_id_version_number_unique', unique: true },
      { key: { package_id: 1, bundle_sha256: 1 }, name: 'package_id_bundle_sha256' },
    ],
  },
  {
    collection: THEME_REVIEWS,
    indexes: [
      { key: { resource_id: 1 }, name: 'resource_id_unique', unique: true },
      { key: { status: 1, _id: 1 }, name: 'status_id' },
      { key: { status: 1, lease_until: 1 }, name: 'status_lease_until' },
    ],
  },
  {
    collection: STORE_THEMES,
    indexes: [
      { key: { store_id: 1, _id: 1 }, name: 'store_id_id' },
      { key: { store_id: 1, package_id: 1 }, name: 'store_id_package_id' },
      { key: { store_id: 1, role: 1 }, name: 'store_id_role' },
    ],
  },
];

export const themePackages = (db: Db) => db.collection<ThemePackageDocument>(THEME_PACKAGES);
export const themeVersions = (db: Db) => db.collection<ThemeVersionDocument>(THEME_VERSIONS);
export const themeReviews = (db: Db) => db.collection<ThemeReviewDocument>(THEME_REVIEWS);
export const storeThemes = (db: Db) => db.collection<StoreThemeDocument>(STORE_THEMES);

export const THEME_PURCHASES = 'theme_purchases';

/**
 * A store's purchase of a paid marketplace theme (docs/themes.md, Purchases): one per store and
 * package, paid to the platform through a provider order. `pending` until the provider's signed
 * payment is verified, then `paid` with the provider's payment id, once.
 */
export type ThemePurchaseDocument = {
  _id: ObjectId;
  package_id: ObjectId;
  slug: string;
  store_id: ObjectId;
  merchant_id: ObjectId;
  /** The theme's price when the purchase was made (the catalog's units, e.g. 49.99) and its currency. */
  amount: number;
  currency: string;
  provider: 'sandbox';
  provider_order_id: string;
  provider_payment_id: string | null;
  status: 'pending' | 'paid';
  created_at: Date;
  paid_at: Date | null;
} & CarriesEvents;

export const themePurchaseIndexes: IndexDeclaration[] = [
  {
    collection: THEME_PURCHASES,
    indexes: [
      // One purchase per store and package: a pending one is reused, a paid one is final.
      { key: { store_id: 1, package_id: 1 }, name: 'store_id_package_id_unique', unique: true },
      { key: { provider_order_id: 1 }, name: 'provider_order_id_unique', unique: true },
    ],
  },
];

export const themePurchases = (db: Db) => db.collection<ThemePurchaseDocument>(THEME_PURCHASES);
