import type { Module } from '../module.js';
import { bundleSchemaRoutes } from './bundle-routes.js';
import { themeReviewRoutes } from './review-routes.js';
import { themeRoutes } from './routes.js';
import { STORE_THEMES, THEME_PACKAGES, THEME_REVIEWS, THEME_VERSIONS, themeIndexes } from './store.js';

/**
 * Themes (docs/themes.md): the JSON-contract bundle, upload, review by the themes worker and
 * operators, the catalog, install into a store.
 */
export const themesModule: Module = {
  name: 'themes',
  indexes: themeIndexes,
  routes: [
    { path: '/v1/themes/bundle-schema', router: bundleSchemaRoutes },
    { path: '/v1/themes', router: themeRoutes },
    { path: '/v1/operations/theme-reviews', router: themeReviewRoutes },
  ],
  eventCarriers: [THEME_PACKAGES, THEME_VERSIONS, THEME_REVIEWS, STORE_THEMES],
};
