import { html } from '../../html.js';
import { storePath, type StorePage } from '../request.js';

/** Where Themes' pages live under a store (docs/admin.md, Themes); the editor's are its own, under an installed theme's `/editor`. */
export const themesPath = (s: StorePage, rest = '') => storePath(s.store, `/themes${rest}`);
export const catalogPath = (s: StorePage, slug?: string, rest = '') => themesPath(s, `/store${slug ? `/${slug}` : ''}${rest}`);
export const installedPath = (s: StorePage, themeId: string, rest = '') => themesPath(s, `/${themeId}${rest}`);
/** The theme editor of an installed theme ("Customize", as Shopify says it). */
export const editorPath = (s: StorePage, themeId: string) => installedPath(s, themeId, '/editor');

/** A page of one theme store theme, by its slug. */
export type CatalogPage = StorePage<{ storeId: string; slug: string }>;

/** The catalog with its free themes: the one action that opens a shop with no live theme. */
export const freeThemesPath = (s: StorePage) => `${catalogPath(s)}?pricing_type=free`;

const TABS = [
  { key: 'library', label: 'Your themes', rest: '' },
  { key: 'store', label: 'Theme store', rest: '/store' },
  { key: 'upload', label: 'Upload a theme', rest: '/upload' },
] as const;

/** The Online store section's parts, as tabs (the current one as text). */
export const themesTabs = (s: StorePage, current: (typeof TABS)[number]['key'] | null) =>
  html`<p class="actions">
    ${TABS.map((t) => (t.key === current ? html`<strong>${t.label}</strong>` : html`<a href="${themesPath(s, t.rest)}">${t.label}</a>`))}
  </p>`;

/** A theme's price as the catalog states it: Free, or the amount in its currency. */
export function priceOf(t: { pricing_type: string; price: number; currency: string }): string {
  if (t.pricing_type === 'free') return 'Free';
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency: t.currency }).format(t.price);
  } catch {
    // A currency code Intl does not know is still the author's: shown as written.
    return `${t.price} ${t.currency}`;
  }
}
