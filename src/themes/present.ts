import { BUNDLE_SCHEMA_VERSION, RENDERER_VERSION } from './bundle/types.js';
import type { CatalogMeta, ThemePackageDocument, ThemeVersionDocument } from './packages/models.js';
import type { DraftKey, ReleaseRecord, ThemeDraftDocument, ThemeReleaseDocument } from './editor/models.js';
import type { StoreThemeDocument } from './installs/models.js';
import type { ThemePreviewSessionDocument } from './previews/models.js';
import type { ThemeReviewDocument } from './review/models.js';
import { stamps } from '../allow-list.js';

export type ReviewView = {
  id: string;
  submission_type: 'theme_version';
  resource_id: string;
  package_id: string;
  status: ThemeReviewDocument['status'];
  checks: { name: string; status: string; details: string[]; ran_at: string | null }[];
  schema_manifest_version: string;
  renderer_version: string;
  reasons: string[];
  reviewed_at: string | null;
  created_at: string;
  updated_at: string;
};

export const presentReview = (r: ThemeReviewDocument): ReviewView => ({
  id: r._id.toHexString(),
  submission_type: r.submission_type,
  resource_id: r.resource_id.toHexString(),
  package_id: r.package_id.toHexString(),
  status: r.status,
  checks: r.checks.map((c) => ({ name: c.name, status: c.status, details: c.details, ran_at: c.ran_at?.toISOString() ?? null })),
  schema_manifest_version: r.schema_manifest_version,
  renderer_version: r.renderer_version,
  reasons: r.reasons,
  reviewed_at: r.reviewed_at?.toISOString() ?? null,
  ...stamps(r),
});

/** spec 2.6: installable only when the package is active and the version published. */
export const isInstallable = (p: Pick<ThemePackageDocument, 'status'>, v: Pick<ThemeVersionDocument, 'status'>) =>
  p.status === 'active' && v.status === 'published';

export type VersionView = {
  id: string;
  version: string;
  version_number: number;
  status: ThemeVersionDocument['status'];
  submission_mode: string;
  created_at: string;
};

export const presentVersion = (v: ThemeVersionDocument): VersionView => ({
  id: v._id.toHexString(),
  version: v.version,
  version_number: v.version_number,
  status: v.status,
  submission_mode: v.submission_mode,
  created_at: v.created_at.toISOString(),
});

/** spec 4.6: the upload result. `theme.id` is the uploaded theme build (this version). */
export type UploadResult = {
  theme: { id: string };
  package: { id: string; slug: string; status: string };
  version: VersionView;
  schema_manifest_version: string;
  renderer_version: string;
  installable: boolean;
  review_record: ReviewView | null;
};

export const presentUpload = (p: ThemePackageDocument, v: ThemeVersionDocument, review: ThemeReviewDocument | null): UploadResult => ({
  theme: { id: v._id.toHexString() },
  package: { id: p._id.toHexString(), slug: p.slug, status: p.status },
  version: presentVersion(v),
  schema_manifest_version: v.bundle.schema_version ?? BUNDLE_SCHEMA_VERSION,
  renderer_version: v.bundle.renderer.renderer_version ?? RENDERER_VERSION,
  installable: isInstallable(p, v),
  review_record: review ? presentReview(review) : null,
});

/** A published theme in the catalog: what the package keeps of its published version, with ids and installability. */
export type CatalogThemeView = Omit<CatalogMeta, 'published_at'> & { slug: string; package_id: string; installable: boolean; published_at: string };

export const presentCatalogTheme = (p: ThemePackageDocument & { catalog: CatalogMeta }): CatalogThemeView => ({
  ...p.catalog,
  slug: p.slug,
  package_id: p._id.toHexString(),
  installable: p.status === 'active',
  published_at: p.catalog.published_at.toISOString(),
});

export type StoreThemeView = {
  id: string;
  store_id: string;
  slug: string;
  package_id: string;
  version_id: string;
  version: string;
  role: StoreThemeDocument['role'];
  settings_data: StoreThemeDocument['settings_data'];
  created_at: string;
  updated_at: string;
};

export const presentStoreTheme = (t: StoreThemeDocument): StoreThemeView => ({
  id: t._id.toHexString(),
  store_id: t.store_id.toHexString(),
  slug: t.slug,
  package_id: t.package_id.toHexString(),
  version_id: t.version_id.toHexString(),
  version: t.version,
  role: t.role,
  settings_data: t.settings_data,
  ...stamps(t),
});

/** One key's draft as the editor sees it: `version` is what the next save sends back (0: never drafted). */
export type DraftView = { has_draft: boolean; draft: ThemeDraftDocument['content']; version: number; updated_by: string | null; updated_at: string | null };

export const presentDraft = (d: ThemeDraftDocument | undefined): DraftView => ({
  has_draft: d !== undefined && d.content !== null,
  draft: d?.content ?? null,
  version: d?.version ?? 0,
  updated_by: d ? d.updated_by.toHexString() : null,
  updated_at: d ? d.updated_at.toISOString() : null,
});

export type ReleaseView = {
  number: number;
  kind: ReleaseRecord['kind'];
  published_by: string;
  published_at: string;
  template_keys: DraftKey[];
  draft_versions: ReleaseRecord['draft_versions'];
  rolled_back_to: number | null;
};

export const presentReleaseRecord = (r: ReleaseRecord): ReleaseView => ({
  number: r.number,
  kind: r.kind,
  published_by: r.published_by.toHexString(),
  published_at: r.published_at.toISOString(),
  template_keys: r.template_keys,
  draft_versions: r.draft_versions,
  rolled_back_to: r.rolled_back_to,
});

export const presentRelease = (r: ThemeReleaseDocument): ReleaseView & { id: string; store_theme_id: string } => ({
  id: r._id.toHexString(),
  store_theme_id: r.store_theme_id.toHexString(),
  ...presentReleaseRecord(r),
});

export const presentReleaseWithSnapshot = (r: ThemeReleaseDocument) => ({ ...presentRelease(r), snapshot: r.snapshot });

/** A new preview session: its token is shown this once. */
export const presentPreviewSession = (s: ThemePreviewSessionDocument, token: string) => ({
  token,
  store_id: s.store_id.toHexString(),
  store_theme_id: s.store_theme_id.toHexString(),
  template_key: s.template_key,
  expires_at: s.expires_at.toISOString(),
});
