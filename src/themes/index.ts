import type { Module } from '../module.js';
import { THEMES_ERROR_CODES } from './errors.js';
import { THEMES_EVENT_TYPES } from './events.js';
import { bundleSchemaRoutes } from './bundle-routes.js';
import { themeJobs } from './jobs.js';
import { closeLiquidSyntaxThreads } from './liquid-syntax.js';
import { themeReviewRoutes } from './review-routes.js';
import { themeRoutes } from './routes.js';
export { ReviewThemeVersion, SweepThemePreviews, SweepThemeReviews } from './jobs.js';
export { runReview, sweepReviews } from './reviews.js';
export { sweepExpiredPreviewSessions } from './previews.js';
export { installedThemeBundle, liveRenderableTheme, previewRenderableTheme, type RenderableTheme } from './renderable.js';
export type { SectionDef, SettingField, ThemeBundle, Template, TemplateKey } from './bundle-types.js';
export { TEMPLATE_KEYS } from './bundle-types.js';
export { isAppBlockType } from './bundle-schema.js';
import { STORE_THEMES, THEME_PACKAGES, THEME_PURCHASES, THEME_REVIEWS, THEME_VERSIONS, themeIndexes, themePurchaseIndexes } from './store.js';

/**
 * Themes (docs/themes.md): the JSON-contract bundle, upload, review by the themes worker and
 * operators, the catalog, install into a store, the editor (drafts, releases, preview sessions).
 */
export const themesModule: Module = {
  name: 'themes',
  errorCodes: THEMES_ERROR_CODES,
  indexes: [...themeIndexes, ...themePurchaseIndexes],
  routes: [
    { path: '/v1/themes/bundle-schema', router: bundleSchemaRoutes },
    { path: '/v1/themes', router: themeRoutes },
    { path: '/v1/operations/theme-reviews', router: themeReviewRoutes },
  ],
  jobs: themeJobs,
  eventCarriers: [THEME_PACKAGES, THEME_VERSIONS, THEME_REVIEWS, STORE_THEMES, THEME_PURCHASES],
  eventTypes: THEMES_EVENT_TYPES,
  close: closeLiquidSyntaxThreads,
};
