import type { PublicProductView } from '../../storefront/index.js';
import { escapeHtml, safeHref } from '../../html.js';
import type { ThemeBundle } from '../../themes/index.js';
import type { Translate } from '../locale.js';
import { formatMoney } from '../money.js';
import type { PageModel } from '../page.js';
import type { RenderedSection } from '../sections.js';

/** The small pieces the built-in sections and the layout share (docs/rendering.md, Markup contract). */

/** What the built-in templates use besides the section: the page, the theme, translations and asset URLs. */
export type JsonContractEnv = { bundle: ThemeBundle; page: PageModel; t: Translate; assetUrl: (path: string) => string };

/** A built-in section's content, inside its `<section>`. */
export type SectionTemplate = (section: RenderedSection, env: JsonContractEnv) => string;

/** A built-in section (one file of sections/, listed in sections/index.ts): its content, and what else its `<section>` says. */
export type BuiltInSection = {
  render: SectionTemplate;
  /** It renders its own blocks (app blocks among them, in block order); a section that does not gets its app blocks after its content. */
  rendersBlocks?: boolean;
  /** Its BEM modifiers on the `<section>` (`hero--large`). */
  modifiers?: (section: RenderedSection, env: JsonContractEnv) => string[];
};

export const money = (env: JsonContractEnv, minor: number) => escapeHtml(formatMoney(minor, env.page.store.currency));

/** A text of the page's chrome: the theme's translation of `key` when it has one, else the English text; escaped. */
export const text = (env: JsonContractEnv, key: string, english: string) => escapeHtml(env.t(key) ?? english);

/** A value fit for a BEM modifier (`hero--large`), or null. */
export const modifier = (value: unknown) => (typeof value === 'string' && /^[a-z0-9][a-z0-9-]{0,31}$/.test(value) ? value : null);

export const count = (value: unknown, fallback: number) =>
  typeof value === 'number' && Number.isFinite(value) ? Math.max(0, Math.min(250, Math.floor(value))) : fallback;

/** The neutral picture shown where a product has no image: a tinted box with an outlined image icon (styled by the theme). */
export const placeholder = (cls: string) =>
  `<div class="placeholder ${cls}" aria-hidden="true"><svg class="placeholder__icon" viewBox="0 0 48 48" width="48" height="48" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round" focusable="false"><rect x="6" y="9" width="36" height="30" rx="3"/><circle cx="17" cy="19" r="3.5"/><path d="M6 34l11-10 8 7 6-5 11 9"/></svg></div>`;

export type Image = { url: string; alt: string; width: number | null; height: number | null };

/** An image of the catalog as `<img>` (its URL must be http(s) or a site path), or null. */
export function imageTag(image: Image | undefined, cls: string, eager = false): string | null {
  const src = image ? safeHref(image.url) : null;
  if (!image || !src) return null;
  const size = (name: string, v: number | null) => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? ` ${name}="${v}"` : '');
  return `<img class="${cls}" src="${escapeHtml(src)}" alt="${escapeHtml(image.alt)}"${size('width', image.width)}${size('height', image.height)} loading="${eager ? 'eager' : 'lazy'}">`;
}

export const productUrl = (p: PublicProductView) => `/products/${encodeURIComponent(p.handle)}`;

/** A product's price as cards and the product page show it: the current price, "From" when variants differ, the compare-at price when higher. */
export function priceHtml(env: JsonContractEnv, cls: string, current: number, compare: number | null | undefined, from: boolean): string {
  const sale = typeof compare === 'number' && compare > current;
  return (
    `<div class="${cls} price${sale ? ' price--on-sale' : ''}"><span class="price__current">${from ? `${text(env, 'products.from', 'From')} ` : ''}${money(env, current)}</span>` +
    (sale
      ? ` <s class="price__compare"><span class="visually-hidden">${text(env, 'products.regular_price', 'Regular price')} </span>${money(env, compare)}</s>`
      : '') +
    '</div>'
  );
}

/** The hidden CSRF field every form carries when the page has a token (docs/shop.md, Forms). */
export const csrfField = (env: JsonContractEnv) =>
  env.page.csrfToken === null ? '' : `<input type="hidden" name="csrf_token" value="${escapeHtml(env.page.csrfToken)}">`;

/** A search form (GET /search, `q`): in the header and on the search page. */
export const searchForm = (env: JsonContractEnv, cls: string, id: string) =>
  `<form class="${cls}" action="/search" method="get" role="search"><label class="${cls}__label visually-hidden" for="${id}">${text(env, 'general.search', 'Search')}</label>` +
  `<input class="${cls}__input" id="${id}" type="search" name="q" value="${escapeHtml(env.page.search?.query ?? '')}" placeholder="${text(env, 'general.search_placeholder', 'Search products')}">` +
  `<button class="${cls}__button" type="submit">${text(env, 'general.search', 'Search')}</button></form>`;

/** A section's `image` setting naming an asset, as `<img>`, or null. */
export const sectionImage = (section: RenderedSection, env: JsonContractEnv, cls: string, eager = false) =>
  typeof section.settings.image === 'string' && section.settings.image.startsWith('assets/')
    ? `<img class="${cls}" src="${escapeHtml(env.assetUrl(section.settings.image))}" alt=""${eager ? '' : ' loading="lazy"'}>`
    : null;

export const heading = (value: unknown, cls: string, level = 2) =>
  typeof value === 'string' && value ? `<h${level} class="${cls}">${escapeHtml(value)}</h${level}>` : '';
