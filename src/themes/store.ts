import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../db.js';
import type { CarriesEvents } from '../events/index.js';
import type { Template, TemplateKey, ThemeBundle } from './bundle-types.js';

export const THEME_PACKAGES = 'theme_packages';
export const THEME_VERSIONS = 'theme_versions';
export const THEME_REVIEWS = 'theme_reviews';
export const STORE_THEMES = 'store_themes';
export const THEME_DRAFTS = 'theme_drafts';
export const THEME_RELEASES = 'theme_releases';
export const THEME_PREVIEW_SESSIONS = 'theme_preview_sessions';

/** The draft key of the theme settings (`config.settings_data`): every other draft key is a template key. */
export const SETTINGS_DATA_KEY = 'settings_data';
export type DraftKey = TemplateKey | typeof SETTINGS_DATA_KEY;
export type SettingsData = ThemeBundle['config']['settings_data'];
export type Templates = Partial<Record<TemplateKey, Template>>;

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
  settings_data: SettingsData;
  /**
   * The store's published templates (the bundle's at install; each publish or rollback replaces
   * them). Absent on a theme installed before the editor: the bundle's templates are its copy.
   */
  templates?: Templates;
  /** The number of the last release (0, or absent: none since install); publish and rollback move it by one, conditionally. */
  release_number?: number;
  /** The last release's record (without its snapshot, which is `templates` and `settings_data`), so a release whose history row was never written is written later. */
  last_release?: ReleaseRecord;
  installed_by: ObjectId;
  version_counter: number;
  created_at: Date;
  updated_at: Date;
} & CarriesEvents;

/** One template's (or the settings') draft of a store's theme. `content: null`: no draft (discarded or published); `version` never goes back. */
export type ThemeDraftDocument = {
  _id: ObjectId;
  store_theme_id: ObjectId;
  store_id: ObjectId;
  template_key: DraftKey;
  content: Template | SettingsData | null;
  version: number;
  updated_by: ObjectId;
  updated_at: Date;
  created_at: Date;
};

export type ReleaseRecord = {
  number: number;
  kind: 'publish' | 'rollback';
  published_by: ObjectId;
  published_at: Date;
  /** The draft keys a publish applied; a rollback's: every template of the snapshot and settings_data. */
  template_keys: DraftKey[];
  /** The draft versions a publish applied, by key. */
  draft_versions: Partial<Record<DraftKey, number>>;
  rolled_back_to: number | null;
};

/** A release of a store theme: who published what when, and the live content it made (history is only ever added to). */
export type ThemeReleaseDocument = ReleaseRecord & {
  _id: ObjectId;
  store_theme_id: ObjectId;
  store_id: ObjectId;
  snapshot: { templates: Templates; settings_data: SettingsData };
};

/** A preview session: the SHA-256 of its token only, bound to one store and store theme and optionally one draft key. */
export type ThemePreviewSessionDocument = {
  _id: ObjectId;
  token_hash: string;
  store_id: ObjectId;
  store_theme_id: ObjectId;
  template_key: DraftKey | null;
  created_by: ObjectId;
  created_at: Date;
  expires_at: Date;
};

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
      { key: { store_id: 1, slug: 1, _id: -1 }, name: 'store_id_slug_id' },
    ],
  },
  {
    collection: THEME_DRAFTS,
    indexes: [{ key: { store_theme_id: 1, template_key: 1 }, name: 'store_theme_id_template_key_unique', unique: true }],
  },
  {
    collection: THEME_RELEASES,
    indexes: [
      { key: { store_theme_id: 1, number: 1 }, name: 'store_theme_id_number_unique', unique: true },
      { key: { store_theme_id: 1, _id: 1 }, name: 'store_theme_id_id' },
    ],
  },
  {
    collection: THEME_PREVIEW_SESSIONS,
    indexes: [
      { key: { token_hash: 1 }, name: 'token_hash_unique', unique: true },
      { key: { expires_at: 1 }, name: 'expires_at' },
    ],
  },
];

export const themePackages = (db: Db) => db.collection<ThemePackageDocument>(THEME_PACKAGES);
export const themeVersions = (db: Db) => db.collection<ThemeVersionDocument>(THEME_VERSIONS);
export const themeReviews = (db: Db) => db.collection<ThemeReviewDocument>(THEME_REVIEWS);
export const storeThemes = (db: Db) => db.collection<StoreThemeDocument>(STORE_THEMES);
export const themeDrafts = (db: Db) => db.collection<ThemeDraftDocument>(THEME_DRAFTS);
export const themeReleases = (db: Db) => db.collection<ThemeReleaseDocument>(THEME_RELEASES);
export const themePreviewSessions = (db: Db) => db.collection<ThemePreviewSessionDocument>(THEME_PREVIEW_SESSIONS);

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
