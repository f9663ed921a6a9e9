import { escapeHtml } from '../html.js';
import { ownValue } from '../own-keys.js';
import type { ThemeBundle } from '../themes/index.js';
import type { Translate } from './locale.js';

/**
 * What the platform reads from a theme beyond its templates (docs/themes.md, "What the platform
 * reads from a theme"): its favicon, its colours and fonts (for the shop's own pages), and the
 * not-found body it frames in the theme's layout for a 404.
 */

const HEX_COLOUR = /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
/** A colour a page may print: a hex colour, else null (never a string that could close a rule). */
export const hexColour = (value: unknown): string | null => (typeof value === 'string' && HEX_COLOUR.test(value) ? value : null);

const IMAGE_TYPES = new Set(['image/svg+xml', 'image/png', 'image/x-icon', 'image/vnd.microsoft.icon', 'image/webp', 'image/gif', 'image/jpeg']);

/**
 * The theme's favicon asset: the `favicon` setting when it names an image asset of the bundle
 * (`assets/…`), else the bundle's first image asset whose file is named `favicon.*`; null when it
 * has neither.
 */
export function themeFavicon(bundle: Pick<ThemeBundle, 'renderer'>, settings: Record<string, unknown>): { path: string; content_type: string } | null {
  const images = bundle.renderer.assets.filter((a) => a.path.startsWith('assets/') && IMAGE_TYPES.has(a.content_type));
  const chosen = ownValue(settings, 'favicon');
  const asset = (typeof chosen === 'string' && images.find((a) => a.path === chosen)) || images.find((a) => /^assets\/favicon\.[a-z]+$/.test(a.path));
  return asset ? { path: asset.path, content_type: asset.content_type } : null;
}

/** The URL of an asset of a theme version on the store's host (what `asset_url` gives). */
export const themeAssetUrl = (subdomain: string, versionId: string, path: string) =>
  `/v1/storefront/${encodeURIComponent(subdomain)}/assets/${versionId}/${path.split('/').map(encodeURIComponent).join('/')}`;

/** The `<link rel="icon">` of a page, for the favicon's URL (or nothing without one). */
export const faviconLink = (favicon: { content_type: string } | null, url: string | null) =>
  favicon && url ? `<link rel="icon" href="${escapeHtml(url)}" type="${escapeHtml(favicon.content_type)}">` : '';

/**
 * The body of a 404 page of a store with a live theme (docs/rendering.md, "Not found"): the
 * platform's, in the theme's layout (the json contract has no 404 template), with the theme's
 * words when its locale has them (`templates.404.title`, `templates.404.subtext`,
 * `general.continue_shopping`, `general.search`, `general.search_placeholder`).
 */
export function notFoundContent(t: Translate): string {
  const say = (key: string, english: string) => escapeHtml(t(key) ?? english);
  return (
    `<section class="section section--main-404 main-404" data-section-type="main-404"><div class="main-404__inner page-width">` +
    `<h1 class="main-404__title">${say('templates.404.title', 'Page not found')}</h1>` +
    `<p class="main-404__text">${say('templates.404.subtext', 'The page you were looking for does not exist, or it is no longer for sale.')}</p>` +
    `<form class="main-404__search search-form" action="/search" method="get" role="search"><label class="visually-hidden" for="main-404-q">${say('general.search', 'Search')}</label>` +
    `<input id="main-404-q" type="search" name="q" placeholder="${say('general.search_placeholder', 'Search products')}">` +
    `<button class="button button--secondary button--outline" type="submit">${say('general.search', 'Search')}</button></form>` +
    `<p class="main-404__actions"><a class="button" href="/collections/all">${say('general.continue_shopping', 'Continue shopping')}</a></p>` +
    `</div></section>`
  );
}
