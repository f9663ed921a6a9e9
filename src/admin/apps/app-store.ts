import { AppRatingsQuery, CatalogQuery, getCatalogApp, installedAppIds, listAppRatings, listCatalog, requestIssuer, startInstall } from '../../apps/index.js';
import { html, safeHref } from '../../html.js';
import { blankForm, csrfInput, field } from '../../http/ui/forms.js';
import { pager } from '../../http/ui/pager.js';
import { badge, emptyState, facts, heading, link, when } from '../../http/ui/parts.js';
import { storePage } from '../layout.js';
import { pagePosition, parseQuery, type StorePage } from '../request.js';
import { APPS_STYLE, appStorePath, appTile, appsPath, kindWords, ratingText, scopeList } from './parts.js';

/**
 * The App Store in the admin (docs/admin.md, Apps): the public catalog of `GET
 * /v1/app-store/apps` (its search and cursors) with what is installed in this store marked, an
 * app's listing (its published version, the scopes it asks for in the consent page's words, its
 * reviews), and Install: the install start of `POST /v1/app-store/apps/:id/install`, whose
 * answer sends the browser to the app, which brings the merchant to the consent page.
 */

export type ListingPage = StorePage<{ storeId: string; appId: string }>;

/** Apps a page of the App Store shows (the catalog's own default). */
const PER_PAGE = 24;
/** Reviews an app's listing shows at a time. */
const REVIEWS = 10;

export async function appStorePage(s: StorePage): Promise<void> {
  const query = parseQuery(s, CatalogQuery);
  const page = await listCatalog(s.platform, { ...query, limit: s.ctx.query.limit ? query.limit : PER_PAGE });
  const installed = await installedAppIds(
    s.platform,
    s.store.id,
    page.items.map((a) => a.id),
  );
  const path = appStorePath(s);
  const search = html`<form class="card" method="get" action="${path}" role="search">
    ${field(blankForm(new Map(query.q ? [['q', query.q]] : [])), 'q', 'Search apps', { type: 'search', hint: 'A word of an app’s name or description' })}
    <div class="actions"><button class="button" type="submit">Search</button>${query.q ? html`<a href="${path}">Show all apps</a>` : null}</div>
  </form>`;
  const cards = page.items.map(
    (a) => html`<li class="card app-card">
      <div class="app-head">
        ${appTile(a.name)}
        <div>
          <strong>${link(appStorePath(s, `/${a.id}`), a.name)}</strong><br /><span class="muted">by ${a.developer.name || 'an App Store partner'}</span>
        </div>
      </div>
      <p class="app-text">${a.description.length > 160 ? `${a.description.slice(0, 157)}…` : a.description}</p>
      <p class="muted">${ratingText(a.rating)}</p>
      ${installed.has(a.id) ? html`<p>${badge('Installed', 'ok')}</p>` : null}
    </li>`,
  );
  const empty = query.q
    ? emptyState(`No app matches “${query.q}”.`, { href: path, label: 'Show all apps' })
    : emptyState('No apps are published in the App Store yet.');
  const body = html`${APPS_STYLE}${heading('App Store', 'Apps by App Store partners that add to your store: install one, and it asks for your consent first.')}
    ${search}${
      cards.length
        ? html`<ul class="app-cards">
          ${cards}
        </ul>`
        : empty
    }${pager({ path, params: { q: query.q, limit: s.ctx.query.limit ? query.limit : undefined }, nextCursor: page.nextCursor, ...pagePosition(s) })}
    <p><a href="${appsPath(s)}">Your installed apps »</a></p>`;
  s.render(storePage(s, 'apps', { title: 'App Store', body }));
}

export async function listingPage(s: ListingPage): Promise<void> {
  const app = await getCatalogApp(s.platform, s.params.appId);
  const query = parseQuery(s, AppRatingsQuery);
  const [reviews, installed] = await Promise.all([
    listAppRatings(s.platform, app.id, { ...query, limit: s.ctx.query.limit ? query.limit : REVIEWS }),
    installedAppIds(s.platform, s.store.id, [app.id]),
  ]);
  const at = appStorePath(s, `/${app.id}`);
  const outside = (href: string | null, text: string) => {
    const safe = href ? safeHref(href) : null;
    return safe ? html`<a href="${safe}" rel="noopener noreferrer" target="_blank">${text}</a>` : null;
  };
  const action = installed.has(app.id)
    ? html`<p style="margin-top:0">${badge('Installed', 'ok')} in ${s.store.name}.</p>
        <p class="actions"><a class="button" href="${appsPath(s, `/${app.handle}/settings`)}">Manage the app</a></p>`
    : html`<form method="post" action="${at}/install">
        ${csrfInput(s.viewer.csrf)}
        <p class="muted" style="margin-top:0">The app opens and asks for your consent to what it lists here; nothing is installed until you agree.</p>
        <button class="button" type="submit">Install</button>
      </form>`;
  const reviewList = reviews.items.length
    ? html`<ul class="scope-list">
        ${reviews.items.map(
          (r) =>
            html`<li>
              <strong>${'★'.repeat(r.rating)}${'☆'.repeat(5 - r.rating)}</strong><span class="visually-hidden"> ${r.rating} of 5</span>
              ${r.title ? html` <strong>${r.title}</strong>` : null} <span class="muted">${when(r.created_at)}</span>
              <p class="app-text">${r.body}</p>
              ${r.reply ? html`<p class="app-text muted">Reply from ${app.developer.name || 'the partner'}: ${r.reply.body}</p>` : null}
            </li>`,
        )}
      </ul>`
    : html`<p class="muted">No reviews yet.</p>`;
  const body = html`${APPS_STYLE}<p><a href="${appStorePath(s)}">« App Store</a></p>
    <div class="app-head" style="margin-bottom:14px">
      ${appTile(app.name, true)}
      <div>
        <h1 style="margin:0">${app.name}</h1>
        <p class="muted" style="margin:2px 0 0">by ${app.developer.name || 'an App Store partner'} · ${ratingText(app.rating)}</p>
      </div>
    </div>
    <div class="card">${action}</div>
    <h2>About</h2>
    <div class="card"><p class="app-text" style="margin:0">${app.description}</p></div>
    ${facts([
      ['Version', app.version],
      ['Published', when(app.published_at)],
      ['Opens', app.embedded ? 'inside your admin' : 'on the partner’s site'],
      ['Adds', app.extension_kinds.length ? app.extension_kinds.map(kindWords).join(', ') : null],
      ['Partner', outside(app.developer.website_url, app.developer.name || 'website')],
      ['Support', outside(app.support_url, 'support')],
      ['Privacy', outside(app.privacy_policy_url, 'privacy policy')],
    ])}
    <h2>It will be able to</h2>
    <div class="card">${scopeList(app.scopes.map((sc) => sc.name))}</div>
    <h2>Reviews</h2>
    <div class="card">${reviewList}</div>
    ${pager({ path: at, params: { rating: query.rating, limit: s.ctx.query.limit ? query.limit : undefined }, nextCursor: reviews.nextCursor, ...pagePosition(s) })}`;
  s.render(storePage(s, 'apps', { title: app.name, body }));
}

/**
 * Install (POST): the install start of `POST /v1/app-store/apps/:id/install` for this store, and
 * 303 to the app's install URL (the app's site, with the store and a signed install token): the
 * app then sends the merchant to the consent page, and back to the admin afterwards.
 */
export async function installAppAction(s: ListingPage): Promise<void> {
  const start = await startInstall(s.platform, requestIssuer(s.platform, s.ctx), s.params.appId, { id: s.store.id, subdomain: s.store.subdomain });
  s.seeOther(start.install_url);
}
