import { html, type Markup } from '../html.js';
import type { Problem } from '../http/pages.js';
import { problemCard } from '../http/page-errors.js';
import { platformPage } from '../http/ui/layout.js';
import type { ScriptName } from '../http/ui/scripts.js';
import { shopUrl } from '../shop/index.js';
import { ADMIN_SECTIONS, type AdminSection } from './nav.js';
import { storePath, type AdminPage, type StorePage } from './request.js';

/**
 * The admin's look (docs/admin.md, The shell): the platform layout with the store's sections as
 * its left navigation (the current one marked), and in the top bar the store switcher (a
 * `<details>` list of the merchant's stores as links, and Create store: no JavaScript needed),
 * View shop, Console (an operator's), the merchant's email and Log out.
 */

/** The top bar's store switcher: the current store (if any) as its summary, every store a link. */
function storeSwitcher(p: AdminPage, current: StorePage['store'] | null): Markup {
  return html`<details class="switcher">
    <summary>${current ? current.name : 'Your stores'}<span class="visually-hidden"> (switch store)</span></summary>
    <ul>
      ${p.viewer.stores.map((s) => html`<li><a href="${storePath(s)}"${current?.id === s.id ? html` aria-current="true"` : null}>${s.name}</a></li>`)}
      <li><a href="/admin/stores/new">+ Create store</a></li>
    </ul>
  </details>`;
}

/** The Console, in the top bar of a merchant who is also an operator of the platform (whom the console's `operator` rule admits). */
const consoleLink = (p: AdminPage) => (p.viewer.merchant.operator ? html`<a class="top__link" href="/console">Console</a>` : null);

export type AdminView = { title: string; body: Markup; scripts?: readonly ScriptName[] };

/** A page of a store: its sections in the left navigation, the switcher and View shop in the top bar. */
export function storePage(p: StorePage, section: AdminSection, view: AdminView): Markup {
  return platformPage({
    title: `${view.title} · ${p.store.name}`,
    body: view.body,
    nav: {
      label: 'Store',
      items: ADMIN_SECTIONS.map((s) => ({ href: storePath(p.store, s.path), label: s.label, current: s.key === section })),
    },
    topBar: html`${storeSwitcher(p, p.store)}<a class="top__link" href="${shopUrl(p.platform, p.ctx, p.store.subdomain)}">View shop</a>${consoleLink(p)}`,
    user: { email: p.viewer.email, csrf: p.viewer.csrf },
    flash: p.takeFlash(),
    scripts: view.scripts,
  });
}

/** A page of no one store (Create store): the switcher, no sections. */
export function accountPage(p: AdminPage, view: AdminView): Markup {
  return platformPage({
    title: view.title,
    body: view.body,
    topBar: html`${p.viewer.stores.length ? storeSwitcher(p, null) : null}${consoleLink(p)}`,
    user: { email: p.viewer.email, csrf: p.viewer.csrf },
    flash: p.takeFlash(),
  });
}

/** A refused or failed request: no store's navigation (the reader may not own the store it named). */
export const adminErrorPage = (problem: Problem): Markup =>
  platformPage({ title: problem.title, body: problemCard(problem, { href: '/admin', label: 'Back to the admin' }) });
