import type { Module } from '../module.js';
import { THEMES_ERROR_CODES } from './errors.js';
import { THEMES_EVENT_TYPES } from './events.js';
import { bundleSchemaRoutes } from './bundle/routes.js';
import { themeJobs } from './jobs.js';
import { closeLiquidSyntaxThreads } from './review/liquid-syntax.js';
import { themeReviewRoutes } from './review/routes.js';
import { themeRoutes } from './routes.js';
// The operator console (src/console) decides theme reviews through the same services as /v1/operations/theme-reviews.
export {
  approveReview as approveThemeReview,
  getReview as getThemeReview,
  listReviews as listThemeReviews,
  rejectReview as rejectThemeReview,
} from './review/service.js';
export { RejectBody as ThemeRejectBody, ReviewListQuery as ThemeReviewListQuery } from './schemas.js';
// The merchant admin's Home names the live theme.
export { getLiveTheme } from './installs/service.js';
// The merchant admin's theme editor (src/admin/themes/editor): an install's drafts, publish, discard, and the frame of its drafts.
export { discardDraft, editableInstall, editorState, saveDraft, type EditableTheme } from './editor/drafts.js';
export { publishDrafts } from './editor/releases.js';
export { catalogRenderableTheme, draftRenderableTheme } from './installs/renderable.js';
export { SETTINGS_DATA_KEY, type DraftKey, type SettingsData } from './editor/models.js';
export type { TemplateSection } from './bundle/types.js';
export { sweepExpiredPreviewSessions } from './previews/sessions.js';
export { servableThemeBundle, liveRenderableTheme, previewRenderableTheme, type RenderableTheme } from './installs/renderable.js';
export type { SectionDef, SettingField, ThemeBundle, Template, TemplateKey } from './bundle/types.js';
export { TEMPLATE_KEYS } from './bundle/types.js';
export { isAppBlockType } from './bundle/schema.js';
// The merchant admin's Themes (src/admin/themes): the library, the catalog, uploads, install, preview, publish, releases and rollback.
export {
  getCatalogTheme,
  installTheme,
  installedTheme,
  listCatalog,
  listInstalledThemes,
  publishStoreTheme,
  themeSchema,
  type InstalledThemeListing,
} from './installs/service.js';
export { getAuthoredPackage, listAuthoredPackages, type AuthoredPackage, type AuthoredVersion } from './packages/authored.js';
export { uploadPackage } from './packages/upload.js';
export { MAX_BUNDLE_BYTES } from './bundle/schema.js';
export { createPurchase, isThemePurchased, simulatePurchasePayment, verifyPurchase } from './purchases/service.js';
export { createPreviewSession } from './previews/sessions.js';
export { getRelease, listReleases, rollbackRelease } from './editor/releases.js';
export { CatalogQuery as ThemeCatalogQuery, UploadBody as ThemeUploadBody } from './schemas.js';
export type { CatalogThemeView, ReleaseView, ReviewView } from './present.js';
import { editorIndexes } from './editor/models.js';
import { STORE_THEMES, installIndexes } from './installs/models.js';
import { THEME_PACKAGES, THEME_VERSIONS, packageIndexes } from './packages/models.js';
import { previewIndexes } from './previews/models.js';
import { THEME_PURCHASES, purchaseIndexes } from './purchases/models.js';
import { THEME_REVIEWS, reviewIndexes, reviewsOverview } from './review/models.js';

/**
 * Themes (docs/themes.md): the JSON-contract bundle, upload, review by the themes worker and
 * operators, the catalog, install into a store, the editor (drafts, releases, preview sessions).
 * Feature folders, each with its collections in its own models.ts: bundle/ (types, JSON Schema,
 * rules), packages/ (upload, versions), review/ (checks, operator decisions), installs/ (store
 * themes, what renders), editor/ (drafts, releases), previews/, purchases/. This file is the
 * one door: other domains import only what it exports.
 */
export const themesModule: Module = {
  name: 'themes',
  errorCodes: THEMES_ERROR_CODES,
  indexes: [...packageIndexes, ...reviewIndexes, ...installIndexes, ...editorIndexes, ...previewIndexes, ...purchaseIndexes],
  routes: [
    { path: '/v1/themes/bundle-schema', router: bundleSchemaRoutes },
    { path: '/v1/themes', router: themeRoutes },
    { path: '/v1/operations/theme-reviews', router: themeReviewRoutes },
  ],
  jobs: themeJobs,
  eventCarriers: [THEME_PACKAGES, THEME_VERSIONS, THEME_REVIEWS, STORE_THEMES, THEME_PURCHASES],
  eventTypes: THEMES_EVENT_TYPES,
  overview: (platform) => reviewsOverview(platform.db),
  close: closeLiquidSyntaxThreads,
};
