import { ObjectId } from 'mongodb';
import { html, type Markup } from '../../html.js';
import { csrfInput } from '../../http/ui/forms.js';
import { pager } from '../../http/ui/pager.js';
import { badge, confirmStep, emptyState, facts, heading, link, table, when } from '../../http/ui/parts.js';
import { PageQuery } from '../../pagination.js';
import { shopUrl } from '../../shop/index.js';
import {
  createPreviewSession,
  installedTheme,
  listAuthoredPackages,
  listInstalledThemes,
  publishStoreTheme,
  type AuthoredPackage,
  type InstalledThemeListing,
} from '../../themes/index.js';
import { storePage } from '../layout.js';
import { pagePosition, parseQuery, type StorePage } from '../request.js';
import { catalogPath, editorPath, freeThemesPath, installedPath, themesPath, themesTabs } from './paths.js';

/**
 * `/admin/stores/<id>/themes` (docs/admin.md, Themes): the live theme, the store's other installed
 * themes, the merchant's own uploads, and the actions on an installed theme that are not the
 * editor's: Preview (a preview session, opened in a new tab), Publish (a confirm step: the shop
 * changes at once). Everything through the themes services the REST API uses.
 */

export type InstalledPage = StorePage<{ storeId: string; themeId: string }>;

/** When a theme last changed what shoppers see: its last release, or its install. */
const lastPublished = (t: InstalledThemeListing) =>
  t.released_at ? html`release ${String(t.release_number)}, ${when(t.released_at)}` : html`as installed, ${when(t.created_at)}`;

/** Preview: a form (a POST makes the preview session) whose answer opens in a new tab. */
export const previewButton = (s: StorePage, t: { id: string }, label: Markup) =>
  html`<form method="post" action="${installedPath(s, t.id, '/preview')}" target="_blank" rel="noopener">
    ${csrfInput(s.viewer.csrf)}<button class="button button--secondary" type="submit">${label}</button>
  </form>`;

/** What a merchant does with an installed theme: Customize (the editor), Preview, Publish (not the live one), its releases. */
function themeActions(s: StorePage, t: InstalledThemeListing): Markup {
  const which = html`<span class="visually-hidden"> ${t.name} (${t.version})</span>`;
  return html`<div class="actions">
    <a class="button" href="${editorPath(s, t.id)}">Customize${which}</a>
    ${previewButton(s, t, html`Preview${which}<span class="visually-hidden"> (opens in a new tab)</span>`)}
    ${t.role === 'live' ? null : html`<a class="button button--secondary" href="${installedPath(s, t.id, '/publish')}">Publish${which}</a>`}
    <a href="${installedPath(s, t.id, '/releases')}">Releases${which}</a>
  </div>`;
}

/** A shop with no live theme answers its pages with 503: say so, with the action that fixes it. */
export const noThemeNotice = (s: StorePage) =>
  html`<div class="card" role="status">
    <p><strong>Your shop is closed.</strong> It has no live theme, so its pages answer “503 Service Unavailable” to every shopper. Install a
      free theme to open it: the first theme a store installs goes live at once.</p>
    <a class="button" href="${freeThemesPath(s)}">Install a free theme</a>
  </div>`;

const authoredRow = (s: StorePage, p: AuthoredPackage) => [
  link(themesPath(s, `/uploads/${p.slug}`), p.name),
  html`<code>${p.slug}</code>`,
  p.visibility === 'private' ? 'Private: your stores only' : 'Theme store',
  p.status === 'active' ? badge('published', 'ok') : p.status === 'rejected' ? badge('rejected', 'bad') : badge('in review', 'warn'),
  String(p.latest_version_number),
];

export async function libraryPage(s: StorePage): Promise<void> {
  const query = parseQuery(s, PageQuery);
  const [installed, authored] = await Promise.all([
    listInstalledThemes(s.platform, s.store, query),
    listAuthoredPackages(s.platform, s.viewer.merchant.merchantId),
  ]);
  const live = installed.items.find((t) => t.role === 'live');
  const others = installed.items.filter((t) => t.role !== 'live');
  const shop = shopUrl(s.platform, s.ctx, s.store.subdomain);
  const body = html`${heading('Online store', 'The theme your shop shows, the others installed, and the theme store.')}
    ${themesTabs(s, 'library')}
    <h2>Live theme</h2>
    ${
      live
        ? html`${facts([
            ['Theme', html`<strong>${live.name}</strong> ${badge('live', 'ok')}`],
            ['Version', live.version],
            ['Author', live.author_name],
            ['Last published', lastPublished(live)],
            ['Your shop', link(shop, shop)],
          ])}
          ${themeActions(s, live)}`
        : s.store.live_theme_id
          ? html`<p class="muted">Your live theme is further down the list of installed themes.</p>`
          : noThemeNotice(s)
    }
    <h2>Installed themes</h2>
    ${table({
      label: 'Installed themes, not live',
      headings: ['Theme', 'Version', 'Installed', 'Last published', ''],
      rows: others.map((t) => [
        html`<strong>${t.name}</strong><br><span class="muted">by ${t.author_name}</span>`,
        t.version,
        when(t.created_at),
        lastPublished(t),
        themeActions(s, t),
      ]),
      empty: emptyState('No other theme is installed. Install one from the theme store to try it before it goes live.', {
        href: catalogPath(s),
        label: 'Visit the theme store',
      }),
      stack: true,
    })}
    ${pager({ ...pagePosition(s), nextCursor: installed.nextCursor, path: themesPath(s), params: {} })}
    <h2>Your uploads</h2>
    ${table({
      label: 'Themes you uploaded',
      headings: ['Theme', 'Slug', 'Kind', 'Status', 'Latest version'],
      rows: authored.map((p) => authoredRow(s, p)),
      empty: emptyState('You have not uploaded a theme. A theme of your own (a JSON bundle) can be installed in your stores at once.', {
        href: themesPath(s, '/upload'),
        label: 'Upload a theme',
      }),
      stack: true,
    })}`;
  s.render(storePage(s, 'themes', { title: 'Online store', body }));
}

/** Publish's confirm step: what changes, at once. */
export async function confirmPublish(s: InstalledPage): Promise<void> {
  const { theme, bundle } = await installedTheme(s.platform, s.store, s.params.themeId);
  const isLive = s.store.live_theme_id === theme._id.toHexString();
  const body = isLive
    ? html`${heading(`${bundle.package.name} is live`, 'It is the theme your shop shows now.')}<a href="${themesPath(s)}">Back to your themes</a>`
    : confirmStep({
        question: `Publish ${bundle.package.name} ${theme.version}?`,
        detail: `Your shop changes at once: every shopper sees ${bundle.package.name} from the next page they open. The theme live now stays installed, and you can publish it again.`,
        action: installedPath(s, s.params.themeId, '/publish'),
        csrf: s.viewer.csrf,
        button: 'Publish now',
        back: { href: themesPath(s), label: 'Cancel' },
      });
  s.render(storePage(s, 'themes', { title: `Publish ${bundle.package.name}`, body }));
}

export async function publishAction(s: InstalledPage): Promise<void> {
  const { bundle } = await installedTheme(s.platform, s.store, s.params.themeId);
  await publishStoreTheme(s.platform, s.store, s.params.themeId);
  s.seeOther(themesPath(s), `${bundle.package.name} is live: your shop shows it now.`);
}

/** Preview: a preview session of the theme with every draft (the existing 30-minute token), and the store's home page rendered with it. */
export async function previewAction(s: InstalledPage): Promise<void> {
  const e = await installedTheme(s.platform, s.store, s.params.themeId);
  const session = await createPreviewSession(s.platform, e, new ObjectId(s.viewer.merchant.merchantId), null);
  s.seeOther(`/v1/storefront/${s.store.subdomain}/pages/home?preview_token=${encodeURIComponent(session.token)}`);
}
