import type { AppManifest } from '../manifest/types.js';
import type { AppDocument, AppStatus, AppVersionDocument, AppVersionStatus, DeveloperDocument, HashedSecret } from './models.js';
import { stamps } from '../../allow-list.js';

/**
 * Documents → API shapes, by allow-list: a credential's hash and the owner's merchant id are in
 * no view (spec 5: only hash metadata is stored, and none of it but the display prefix is shown).
 */

export const iso = (d: Date | null) => (d ? d.toISOString() : null);

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
  ...stamps(d),
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
  ...stamps(a),
});

/** Submission's answer: the app and its show-once credentials (spec 2.2). */
/** The submission's answer: the app, its credentials and its webhook signing secret, the secrets shown this once. */
export type SubmissionView = {
  app: DeveloperAppView;
  credentials: { oauth_client_id: string; client_secret: string; api_key: string };
  webhook_signing_secret: string;
};
