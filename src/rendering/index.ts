import type { Module } from '../module.js';
import { RENDERING_ERROR_CODES } from './errors.js';
import { closePageRenderer } from './liquid/render.js';
import { renderedPageRoutes, themeAssetRoutes } from './routes.js';
export { createPageRenderer, PAGE_LIMITS, pageRendererOf, renderPage, type PageLimits, type PageRenderer, type RenderedPage } from './liquid/render.js';
export type { MenuLink, PageRequest } from './page.js';
// The merchant admin shows a theme's `t:` labels (section names, settings groups) in the store's language.
export { LOCALE_PATTERN, resolveReference, translator } from './locale.js';
export { formatMoney } from './money.js';
export { LISTING_PARAMS, type ListingQuery } from './listing.js';
export { variantTitle } from './variant-title.js';
export { checkAppBlockRendering } from './app-blocks.js';
export { themeSettings } from './sections.js';
export { faviconLink, hexColour, themeAssetUrl, themeFavicon } from './theme-look.js';

/**
 * Rendering (docs/rendering.md): a store's live theme, or a previewed draft, rendered into the
 * storefront's HTML pages, by the built-in json-contract renderer or Liquid (liquidjs, in the
 * process's render threads, stopped when the platform closes).
 */
export const renderingModule: Module = {
  name: 'rendering',
  errorCodes: RENDERING_ERROR_CODES,
  routes: [
    { path: '/v1/storefront/:subdomain/pages', router: renderedPageRoutes },
    { path: '/v1/storefront/:subdomain/assets', router: themeAssetRoutes },
  ],
  close: closePageRenderer,
};
