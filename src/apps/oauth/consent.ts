import { ObjectId } from 'mongodb';
import { pageUser } from '../../auth/index.js';
import { accessibleStore } from '../../http/auth.js';
import { html, raw, safeHref, type Markup } from '../../html.js';
import { sessionFormToken } from '../../http/browser.js';
import type { AppContext, AppRouter, MerchantPrincipal } from '../../http/context.js';
import { sessionForms, visitor, type Visitor } from '../../http/page-access.js';
import { platformErrorPage } from '../../http/page-errors.js';
import { pages, type Page } from '../../http/pages.js';
import { blankForm, csrfInput, hiddenInput, select } from '../../http/ui/forms.js';
import { platformPage } from '../../http/ui/layout.js';
import type { Platform } from '../../platform.js';
import { listStoresOwnedBy, type StoreView } from '../../stores/index.js';
import { checkAuthorizeRequest, consentableApp } from '../installations/service.js';
import { installations } from '../installations/models.js';
import { developers, type AppDocument } from '../partners/models.js';
import {
  AUTHORIZE_PARAMETERS,
  BrowserAuthorizeQuery,
  RedirectError,
  authorizationClient,
  authorizationRedirect,
  authorizeBodyOf,
  errorRedirect,
  withState,
} from './authorization.js';
import { consentSentence } from './consent-words.js';

/**
 * The OAuth consent page (docs/console.md, The consent page): the authorization endpoint for a
 * merchant's browser. `GET /v1/app-store/oauth/authorize` without `Authorization` shows what the
 * app asks for; its form posts to `/v1/app-store/oauth/authorize/consent`, whose Install gives
 * the same authorization as the API client's GET (src/apps/oauth/authorization.ts).
 */

/** Where the consent page is posted. */
export const CONSENT_PATH = '/v1/app-store/oauth/authorize/consent';

const redirectTo = (ctx: AppContext, to: URL | string) => {
  ctx.set('Cache-Control', 'no-store');
  ctx.status = 302;
  ctx.redirect(to.toString());
};

/** The query (or the posted fields) as the endpoint's parameters, or the client's `invalid_request`. */
function parametersOf(redirectUri: string, source: ReadonlyMap<string, string>): BrowserAuthorizeQuery {
  const parsed = BrowserAuthorizeQuery.safeParse(Object.fromEntries(source));
  if (parsed.success) return parsed.data;
  const state = source.get('state');
  throw errorRedirect(
    redirectUri,
    new RedirectError('invalid_request', parsed.error.issues.map((i) => `${i.path.join('.') || 'query'}: ${i.message}`).join('; ')),
    state && state.length <= 1024 ? state : undefined,
  );
}

/** A thrown URL is where the browser goes (an error for the client); anything else is the page's error. */
async function orRedirect(ctx: AppContext, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (err) {
    if (err instanceof URL) return redirectTo(ctx, err);
    throw err;
  }
}

/** The query string's parameters, each given once (a repeated one is the client's `invalid_request`). */
function queryParameters(ctx: AppContext): { fields: Map<string, string>; repeated: string[] } {
  const fields = new Map<string, string>();
  const repeated: string[] = [];
  for (const [name, value] of new URLSearchParams(ctx.querystring)) {
    if (fields.has(name)) repeated.push(name);
    else fields.set(name, value);
  }
  return { fields, repeated };
}

type Scene = {
  app: AppDocument & { published: NonNullable<AppDocument['published']> };
  partner: string;
  query: BrowserAuthorizeQuery;
  stores: StoreView[];
  /** The store named by the query (its installation compared), or null when the merchant picks one of `stores`. */
  store: StoreView | null;
  requested: string[];
  /** The scopes the app already holds in `store` (an active installation), or null for an install. */
  granted: string[] | null;
};

type Consent = Page<Visitor, unknown>;

/**
 * GET /v1/app-store/oauth/authorize from a browser (no `Authorization` header; with one, the API's
 * endpoint answers). Client and redirect URI first (an HTML error page, never a redirect); then a
 * browser not signed in goes to /login and back; every later error goes to the client.
 */
async function showConsent(p: Consent): Promise<void> {
  const { fields, repeated } = queryParameters(p.ctx);
  const app = await authorizationClient(p.platform, fields.get('client_id'), fields.get('redirect_uri'));
  const redirectUri = fields.get('redirect_uri')!;
  await orRedirect(p.ctx, async () => {
    if (repeated.length > 0) {
      throw errorRedirect(redirectUri, new RedirectError('invalid_request', `${repeated.join(', ')}: given more than once`), fields.get('state'));
    }
    const query = parametersOf(redirectUri, fields);
    const merchant = p.viewer.merchant;
    if (!merchant) return p.seeOther(`/login?return_to=${encodeURIComponent(p.ctx.url)}`);
    const scene = await sceneOf(p.platform, p.ctx, merchant, app, query);
    p.render(
      platformPage({
        title: `Install ${scene.app.published.name}`,
        body: consentBody(scene, sessionFormToken(p.platform, p.ctx)),
        user: await pageUser(p.platform, p.ctx, merchant),
      }),
    );
  });
}

/** What the page shows, every check the consent will meet done first (a failing one goes back to the client). */
async function sceneOf(platform: Platform, ctx: AppContext, merchant: MerchantPrincipal, listed: AppDocument, query: BrowserAuthorizeQuery): Promise<Scene> {
  const store = query.store_id ? await accessibleStore(platform, ctx, merchant, query.store_id) : null;
  const stores = store ? [store] : await listStoresOwnedBy(platform, merchant.merchantId);
  try {
    if (stores.length === 0) throw new RedirectError('access_denied', 'The merchant has no store to install the app into');
    const body = authorizeBodyOf(query, stores[0]!.id);
    const app = await consentableApp(platform, listed._id.toHexString());
    const requested = checkAuthorizeRequest(platform, app, body);
    const [developer, installation] = await Promise.all([
      developers(platform.db).findOne({ _id: app.developer_id }, { projection: { name: 1 } }),
      store ? installations(platform.db).findOne({ app_id: app._id, store_id: new ObjectId(store.id), status: 'active' }) : null,
    ]);
    return { app, partner: developer?.name ?? '', query, stores, store, requested, granted: installation?.scopes ?? null };
  } catch (err) {
    throw errorRedirect(query.redirect_uri, err, query.state);
  }
}

const SCOPE_STYLE = raw(`<style>
.consent{max-width:560px;margin:32px auto}.consent__app{display:flex;gap:16px;align-items:center;margin-bottom:6px}
.consent__icon{width:56px;height:56px;border-radius:14px;background:linear-gradient(135deg,#2b4acb,#7c3aed);color:#fff;display:flex;align-items:center;justify-content:center;font-weight:700;font-size:1.35rem;flex:none}
.consent h1{margin:0;font-size:1.4rem}.consent__by{margin:2px 0 0}.scopes{list-style:none;padding:0;margin:8px 0 0}
.scopes li{display:flex;gap:10px;padding:9px 0;border-top:1px solid var(--line)}.scopes li:first-child{border-top:0}
.scopes__mark{flex:none;width:22px;height:22px;border-radius:50%;display:flex;align-items:center;justify-content:center;font-size:.8rem;font-weight:700;background:#e0e7ff;color:#2b4acb}
.scopes--removed .scopes__mark{background:#fee2e2;color:var(--bad)}.scopes code{font-size:.78rem;color:var(--muted)}
.consent__store{display:flex;justify-content:space-between;gap:12px;align-items:center;background:#f8f9fb;border:1px solid var(--line);border-radius:8px;padding:10px 14px;margin:14px 0}
.consent__fine{font-size:.85rem;margin:14px 0 0}
</style>`);

/** An app's initials, for its tile (the catalog has no icons): the consent page's and the admin's App Store. */
export const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => [...w][0]!.toUpperCase())
    .join('') || '?';

function scopeList(scopes: readonly string[], kind: 'added' | 'removed'): Markup {
  return html`<ul class="scopes${kind === 'removed' ? ' scopes--removed' : ''}">
    ${scopes.map(
      (s) =>
        html`<li>
          <span class="scopes__mark" aria-hidden="true">${kind === 'removed' ? '−' : '✓'}</span><span>${consentSentence(s)} <code>${s}</code></span>
        </li>`,
    )}
  </ul>`;
}

/** The requested scopes, or for an installed app only what changes: those added and those removed. */
function scopesSection(scene: Scene): Markup {
  if (scene.granted === null)
    return html`<h2>It will be able to</h2>
      ${scopeList(scene.requested, 'added')}`;
  const added = scene.requested.filter((s) => !scene.granted!.includes(s));
  const removed = scene.granted.filter((s) => !scene.requested.includes(s));
  const kept = scene.requested.length - added.length;
  return html`<p class="notice">This app is already installed in this store. Here is what changes.</p>
    ${
      added.length > 0
        ? html`<h2>It will also be able to</h2>
            ${scopeList(added, 'added')}`
        : null
    }${
      removed.length > 0
        ? html`<h2>It will no longer be able to</h2>
            ${scopeList(removed, 'removed')}`
        : null
    }${
      added.length === 0 && removed.length === 0 ? html`<p>Nothing changes in what it may do.</p>` : null
    }${kept > 0 ? html`<p class="muted">It keeps the ${kept} ${kept === 1 ? 'permission' : 'permissions'} it already has.</p>` : null}`;
}

/** The partner's privacy policy, in a new tab without a referrer; an address that is no http(s) URL is not linked. */
function privacyLink(url: string): Markup {
  const href = safeHref(url);
  return href ? html`<a href="${href}" rel="noopener noreferrer" target="_blank">privacy policy</a>` : html`privacy policy`;
}

const storeCard = (store: StoreView) =>
  html`<div class="consent__store">
    <span><span class="muted">Store</span><br><strong>${store.name}</strong> <span class="muted">${store.subdomain}</span></span>
  </div>`;

function consentBody(scene: Scene, csrf: string | null): Markup {
  const m = scene.app.published;
  const hidden = AUTHORIZE_PARAMETERS.filter((name) => name !== 'store_id' || scene.store).flatMap((name) => {
    const value = scene.query[name];
    return value === undefined ? [] : [hiddenInput(name, value)];
  });
  const only = scene.stores.length === 1 ? scene.stores[0]! : null;
  const store = scene.store
    ? storeCard(scene.store)
    : only
      ? html`${storeCard(only)}${hiddenInput('store_id', only.id)}`
      : select(
          blankForm(),
          'store_id',
          'Install in store',
          scene.stores.map((s) => ({ value: s.id, label: `${s.name} (${s.subdomain})` })),
          { required: true, id: 'store_id' },
        );
  return html`${SCOPE_STYLE}
    <div class="consent">
      <form class="card" method="post" action="${CONSENT_PATH}">
        ${csrfInput(csrf)}${hidden}
        <div class="consent__app">
          <div class="consent__icon" aria-hidden="true">${initials(m.name)}</div>
          <div>
            <h1>${scene.granted === null ? `Install ${m.name}?` : `Update ${m.name}?`}</h1>
            <p class="consent__by muted">by ${scene.partner || 'an App Store partner'}</p>
          </div>
        </div>
        ${store}${scopesSection(scene)}
        <p class="consent__fine muted">
          The partner’s use of your store’s data is governed by its ${privacyLink(m.privacy_policy_url)}. You can uninstall the app at any time.
        </p>
        <div class="actions" style="margin-top:18px">
          <button class="button" type="submit" name="decision" value="install">${scene.granted === null ? 'Install' : 'Update'}</button
          ><button class="button button--secondary" type="submit" name="decision" value="cancel" formnovalidate>Cancel</button>
        </div>
      </form>
    </div>`;
}

/**
 * POST /v1/app-store/oauth/authorize/consent: the consent page's form. The session's form token
 * (else 403 `csrf_token_invalid`); the client and redirect URI checked again from the posted
 * fields (a tampered one is an error page, never a redirect); Cancel goes back with
 * `access_denied`; Install gives the API's authorization and goes back with the code.
 */
async function decideConsent(p: Consent): Promise<void> {
  const fields = new Map(p.form);
  const app = await authorizationClient(p.platform, fields.get('client_id'), fields.get('redirect_uri'));
  const redirectUri = fields.get('redirect_uri')!;
  await orRedirect(p.ctx, async () => {
    const decision = fields.get('decision');
    fields.delete('csrf_token');
    fields.delete('decision');
    const query = parametersOf(redirectUri, fields);
    const merchant = p.viewer.merchant;
    if (!merchant) {
      // The session ended since the page was shown: sign in again, then see the page again.
      fields.delete('store_id');
      return p.seeOther(`/login?return_to=${encodeURIComponent(`/v1/app-store/oauth/authorize?${new URLSearchParams([...fields]).toString()}`)}`);
    }
    if (decision === 'cancel')
      return redirectTo(p.ctx, withState(redirectUri, { error: 'access_denied', error_description: 'The merchant declined to install the app' }, query.state));
    if (decision !== 'install') throw errorRedirect(redirectUri, new RedirectError('invalid_request', 'decision must be install or cancel'), query.state);
    if (!query.store_id) throw errorRedirect(redirectUri, new RedirectError('invalid_request', 'store_id: choose a store'), query.state);
    const store = await accessibleStore(p.platform, p.ctx, merchant, query.store_id);
    redirectTo(p.ctx, await authorizationRedirect(p.platform, merchant.merchantId, store.id, app, query));
  });
}

/**
 * The consent page's list (mounted by the apps module at the authorization endpoint, so it is
 * tried before the API's route there): any browser's (a signed-out one is sent to sign in), its
 * form bound to the session. GET of the form's address is a 405 page.
 */
export function consentPages(platform: Platform): AppRouter {
  const on = pages(platform, { name: 'consent', access: visitor, csrf: sessionForms, errorPage: platformErrorPage });
  on.get('/', { answers: (ctx) => !ctx.get('Authorization') }, showConsent);
  on.post('/consent', decideConsent);
  return on.router;
}
