import type { AppManifest } from './manifest-types.js';
import { SCOPES, isScope } from './scopes.js';
import type {
  AppDocument,
  AppStatus,
  AppVersionDocument,
  AppVersionStatus,
  CatalogReviewDocument,
  DeveloperDocument,
  HashedSecret,
  RatingKey,
  RatingSummary,
} from './store.js';

/**
 * Documents → API shapes, by allow-list: a credential's hash and the owner's merchant id are in
 * no view (spec 5: only hash metadata is stored, and none of it but the display prefix is shown).
 */

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export type DeveloperView = {
  id: string;
  name: string;
  contact_email: string;
  website_url: string | null;
  support_url: string;
  privacy_policy_url: string;
  created_at: string;
  updated_at: string;
};

export const presentDeveloper = (d: DeveloperDocument): DeveloperView => ({
  id: d._id.toHexString(),
  name: d.name,
  contact_email: d.contact_email,
  website_url: d.website_url,
  support_url: d.support_url,
  privacy_policy_url: d.privacy_policy_url,
  created_at: d.created_at.toISOString(),
  updated_at: d.updated_at.toISOString(),
});

/** What a partner sees of a stored secret: its display prefix and age, never the hash. */
export type SecretMetaView = { prefix: string; created_at: string };
const presentSecretMeta = (s: HashedSecret): SecretMetaView => ({ prefix: s.prefix, created_at: s.created_at.toISOString() });

export type VersionView = {
  id: string;
  number: number;
  status: AppVersionStatus;
  reasons: string[];
  submitted_at: string;
  reviewed_at: string | null;
  manifest: AppManifest;
};

export const presentVersion = (v: AppVersionDocument): VersionView => ({
  id: v._id.toHexString(),
  number: v.number,
  status: v.status,
  reasons: v.reasons,
  submitted_at: v.submitted_at.toISOString(),
  reviewed_at: iso(v.reviewed_at),
  manifest: v.manifest,
});

/** An app as its partner sees it (their own apps only). */
export type DeveloperAppView = {
  id: string;
  handle: string;
  name: string;
  status: AppStatus;
  client_id: string;
  secrets: { client_secret: SecretMetaView; api_key: SecretMetaView };
  version_count: number;
  /** The newest submitted version and its review (null only if its write was lost: submit a new version). */
  latest_version: VersionView | null;
  published_version_id: string | null;
  published_at: string | null;
  /** The manifest that serves installs and the catalog. */
  published: AppManifest | null;
  created_at: string;
  updated_at: string;
};

export const presentDeveloperApp = (a: AppDocument, latest: AppVersionDocument | null): DeveloperAppView => ({
  id: a._id.toHexString(),
  handle: a.handle,
  name: a.name,
  status: a.status,
  client_id: a.client_id,
  secrets: { client_secret: presentSecretMeta(a.client_secret), api_key: presentSecretMeta(a.api_key) },
  version_count: a.version_count,
  latest_version: latest ? presentVersion(latest) : null,
  published_version_id: a.published_version_id?.toHexString() ?? null,
  published_at: iso(a.published_at),
  published: a.published,
  created_at: a.created_at.toISOString(),
  updated_at: a.updated_at.toISOString(),
});

/** Submission's answer: the app and its show-once credentials (spec 2.2). */
/** The submission's answer: the app, its credentials and its webhook signing secret, the secrets shown this once. */
export type SubmissionView = {
  app: DeveloperAppView;
  credentials: { oauth_client_id: string; client_secret: string; api_key: string };
  webhook_signing_secret: string;
};

/** The scopes an app asks for, with what each lets it do (the registry's words). */
export const presentScopes = (scopes: readonly string[]) => scopes.map((name) => ({ name, description: isScope(name) ? SCOPES[name] : name }));

/** A published app in the public catalog: its published version only. */
export type CatalogAppView = {
  id: string;
  handle: string;
  name: string;
  description: string;
  version: string;
  app_url: string;
  scopes: { name: string; description: string }[];
  privacy_policy_url: string;
  support_url: string | null;
  embedded: boolean;
  extension_kinds: string[];
  developer: { name: string; website_url: string | null };
  rating: RatingView;
  published_at: string;
};

/** An app's catalog reviews at a glance: the average to one decimal (null without reviews), how many, how many of each rating. */
export type RatingView = { average: number | null; count: number; distribution: Record<RatingKey, number> };

const RATING_KEYS: readonly RatingKey[] = ['1', '2', '3', '4', '5'];

export function presentRating(summary: RatingSummary | undefined): RatingView {
  const count = summary?.count ?? 0;
  const sum = summary?.sum ?? 0;
  const distribution = Object.fromEntries(RATING_KEYS.map((k) => [k, summary?.distribution[k] ?? 0])) as Record<RatingKey, number>;
  // round(sum / count, 1) half up, in integers: floor((20·sum + count) / (2·count)) tenths.
  return { average: count > 0 ? Math.floor((20 * sum + count) / (2 * count)) / 10 : null, count, distribution };
}

export function presentCatalogApp(a: AppDocument & { published: AppManifest; published_at: Date }, developer: DeveloperDocument | null): CatalogAppView {
  const m = a.published;
  return {
    id: a._id.toHexString(),
    handle: m.handle,
    name: m.name,
    description: m.description,
    version: m.version,
    app_url: m.app_url,
    scopes: presentScopes(m.scopes),
    privacy_policy_url: m.privacy_policy_url,
    support_url: m.support_url,
    embedded: m.embedded.enabled,
    extension_kinds: [...new Set(m.extensions.map((e) => e.kind))].sort(),
    developer: { name: developer?.name ?? '', website_url: developer?.website_url ?? null },
    rating: presentRating(a.rating_summary),
    published_at: a.published_at.toISOString(),
  };
}

/** A version in the operators' review queue, with its app and partner (`manifest` on a single review). */
export type ReviewView = Omit<VersionView, 'manifest'> & {
  manifest?: AppManifest;
  app: { id: string; handle: string; name: string; status: AppStatus; published_version_id: string | null; published_at: string | null };
  developer: { id: string; name: string; contact_email: string; website_url: string | null; support_url: string; privacy_policy_url: string } | null;
};

export function presentReview(v: AppVersionDocument, a: AppDocument, d: DeveloperDocument | null, withManifest: boolean): ReviewView {
  const { manifest, ...version } = presentVersion(v);
  return {
    ...version,
    ...(withManifest ? { manifest } : {}),
    app: {
      id: a._id.toHexString(),
      handle: a.handle,
      name: a.name,
      status: a.status,
      published_version_id: a.published_version_id?.toHexString() ?? null,
      published_at: iso(a.published_at),
    },
    developer: d
      ? {
          id: d._id.toHexString(),
          name: d.name,
          contact_email: d.contact_email,
          website_url: d.website_url,
          support_url: d.support_url,
          privacy_policy_url: d.privacy_policy_url,
        }
      : null,
  };
}

/**
 * A catalog review as anyone sees it: never its author or store (the author's own answers add
 * `store_id`, which they gave), nor who at the partner wrote the reply.
 */
export type CatalogReviewView = {
  id: string;
  rating: number;
  title: string | null;
  body: string;
  reply: { body: string; created_at: string; updated_at: string } | null;
  created_at: string;
  updated_at: string;
};

export const presentCatalogReview = (r: CatalogReviewDocument): CatalogReviewView => ({
  id: r._id.toHexString(),
  rating: r.rating,
  title: r.title,
  body: r.body,
  reply: r.reply ? { body: r.reply.body, created_at: r.reply.created_at.toISOString(), updated_at: r.reply.updated_at.toISOString() } : null,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
});

/** The author's view of their review (create, edit): the public view and the store it is for. */
export type OwnCatalogReviewView = CatalogReviewView & { store_id: string };

export const presentOwnCatalogReview = (r: CatalogReviewDocument): OwnCatalogReviewView => ({ ...presentCatalogReview(r), store_id: r.store_id.toHexString() });
