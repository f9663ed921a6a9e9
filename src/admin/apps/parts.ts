import { appInitials, consentSentence, type CatalogAppView } from '../../apps/index.js';
import { html, raw, type Markup } from '../../html.js';
import { storePath, type StorePage } from '../request.js';

/**
 * What the Apps pages share (docs/admin.md, Apps): their paths, an app's tile and rating, and the
 * scopes in the consent page's words (src/apps/oauth/consent-words.ts: one sentence per scope).
 */

/** `/admin/stores/<id>/app-store<rest>`: the catalog and an app's listing. */
export const appStorePath = (s: StorePage, rest = '') => storePath(s.store, `/app-store${rest}`);
/** `/admin/stores/<id>/apps<rest>`: the installed apps, and an installation's pages under its app's handle. */
export const appsPath = (s: StorePage, rest = '') => storePath(s.store, `/apps${rest}`);

/** The Apps pages' few rules of their own: the catalog's cards, an app's tile, the scopes' list. */
export const APPS_STYLE = raw(`<style>
.app-cards{list-style:none;margin:0 0 18px;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:14px}
.app-card{display:flex;flex-direction:column;gap:8px;height:100%;margin:0}.app-card p{margin:0}
.app-head{display:flex;gap:12px;align-items:center;min-width:0}.app-head>div{min-width:0;overflow-wrap:anywhere}
.app-tile{flex:none;width:44px;height:44px;border-radius:11px;background:linear-gradient(135deg,#2b4acb,#7c3aed);color:#fff;display:flex;align-items:center;justify-content:center;font-weight:700}
.app-tile--large{width:64px;height:64px;border-radius:16px;font-size:1.4rem}
.app-text{white-space:pre-line;overflow-wrap:anywhere}
.scope-list{list-style:none;padding:0;margin:0}.scope-list li{padding:8px 0;border-top:1px solid var(--line)}.scope-list li:first-child{border-top:0}
.scope-list code{font-size:.78rem;color:var(--muted)}.target{overflow-wrap:normal;word-break:keep-all}
.switch{display:flex;gap:10px;align-items:flex-start;margin-bottom:12px}.switch input{margin-top:4px}.switch label{font-weight:600}
</style>`);

/** An app's initials on a coloured tile: the catalog has no icons (a manifest declares none). */
export const appTile = (name: string, large = false): Markup =>
  html`<span class="app-tile${large ? ' app-tile--large' : ''}" aria-hidden="true">${appInitials(name)}</span>`;

/** An extension's kind in a merchant's words (an unknown one as it is). */
const KIND_WORDS = new Map([
  ['admin_ui', 'admin block'],
  ['checkout_function', 'Checkout Function'],
  ['checkout_ui', 'checkout block'],
  ['theme_app_block', 'theme app block'],
]);
export const kindWords = (kind: string) => KIND_WORDS.get(kind) ?? kind;

/** The app's rating in words: `★ 4.5 · 2 reviews`, or that it has none yet. */
export const ratingText = (rating: CatalogAppView['rating']) =>
  rating.average === null ? 'No reviews yet' : `★ ${rating.average.toFixed(1)} · ${rating.count} ${rating.count === 1 ? 'review' : 'reviews'}`;

/** Scopes in plain words, each with its name (the consent page's sentences). */
export function scopeList(scopes: readonly string[], empty = 'Nothing: it asks for no permission.'): Markup {
  if (scopes.length === 0) return html`<p class="muted">${empty}</p>`;
  return html`<ul class="scope-list">
    ${scopes.map((s) => html`<li>${consentSentence(s)} <code>${s}</code></li>`)}
  </ul>`;
}
