import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../../db.js';
import type { CarriesEvents } from '../../events/index.js';
import type { PackageMeta, ThemeBundle } from '../bundle/types.js';

export const THEME_PACKAGES = 'theme_packages';
export const THEME_VERSIONS = 'theme_versions';

/** spec 3: a marketplace upload creates package and version `draft`; approval makes them `active` / `published`. */
export type PackageStatus = 'draft' | 'active' | 'rejected';
export type VersionStatus = 'draft' | 'in_review' | 'published' | 'rejected' | 'superseded' | 'private';
export type SubmissionMode = 'marketplace' | 'private_install';

/** What a theme's manifest says of it in the marketplace: a package shows its latest upload's, the catalog its published version's. */
export type ListingFields = {
  name: string;
  author_name: string;
  site_types: string[];
  pricing_type: string;
  price: number;
  currency: string;
};

/** A manifest's (or a package's) listing fields, each named: what a package keeps, and what its author's pages show. */
export const listingFields = (p: PackageMeta | ListingFields): ListingFields => ({
  name: p.name,
  author_name: p.author_name,
  site_types: p.site_types,
  pricing_type: p.pricing_type,
  price: p.price,
  currency: p.currency,
});

export type CatalogMeta = ListingFields & {
  version: string;
  version_number: number;
  engine: string;
  templates: string[];
  published_at: Date;
};

/** One slug: its author, and the version that serves the catalog and installs. */
export type ThemePackageDocument = ListingFields & {
  _id: ObjectId;
  slug: string;
  /** The merchant account that uploaded it first: only it may upload new versions. */
  author_id: ObjectId;
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

export const packageIndexes: IndexDeclaration[] = [
  {
    collection: THEME_PACKAGES,
    indexes: [
      { key: { slug: 1 }, name: 'slug_unique', unique: true },
      { key: { status: 1, visibility: 1, _id: 1 }, name: 'status_visibility_id' },
      // An author's own packages, newest first (the merchant admin's uploads).
      { key: { author_id: 1, _id: 1 }, name: 'author_id_id' },
    ],
  },
  {
    collection: THEME_VERSIONS,
    indexes: [
      { key: { package_id: 1, version_number: 1 }, name: 'package_id_version_number_unique', unique: true },
      { key: { package_id: 1, bundle_sha256: 1 }, name: 'package_id_bundle_sha256' },
    ],
  },
];

export const themePackages = (db: Db) => db.collection<ThemePackageDocument>(THEME_PACKAGES);
export const themeVersions = (db: Db) => db.collection<ThemeVersionDocument>(THEME_VERSIONS);
