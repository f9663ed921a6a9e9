import { ObjectId } from 'mongodb';
import { pageUser } from '../../auth/index.js';
import { accessibleStore } from '../../http/auth.js';
import { browserPrincipal, checkFormToken, readForm, sessionFormToken } from '../../http/browser.js';
import type { AppContext, MerchantPrincipal } from '../../http/context.js';
import { pageHandler } from '../../http/page-errors.js';
import { csrfInput, join, markup, platformPage, sendPage, type Markup } from '../../http/page.js';
import type { Platform } from '../../platform.js';
import { listStoresOwnedBy, type StoreView } from '../../stores/index.js';
import { checkAuthorizeRequest, consentableApp } from '../installations/service.js';
import { installations } from '../installations/store.js';
import { developers, type AppDocument } from '../partners/store.js';
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

/**
 * GET /v1/app-store/oauth/authorize from a browser (no `Authorization` header; with one, the API's
 * endpoint answers). Client and redirect URI first (an HTML error page, never a redirect); then a
 * browser not signed in goes to /login and back; every later error goes to the client.
 */
export function consentPage(platform: Platform) {
  const show = pageHandler(platform, async (ctx) => {
    const { fields, repeated } = queryParameters(ctx);
    const app = await authorizationClient(platform, fields.get('client_id'), fields.get('redirect_uri'));
    const redirectUri = fields.get('redirect_uri')!;
    await orRedirect(ctx, async () => {
      if (repeated.length > 0) {
        throw errorRedirect(redirectUri, new RedirectError('invalid_request', `${repeated.join(', ')}: given more than once`), fields.get('state'));
      }
      const query = parametersOf(redirectUri, fields);
      const principal = await browserPrincipal(platform, ctx);
      if (principal?.kind !== 'merchant') {
        ctx.status = 303;
        return ctx.redirect(`/login?return_to=${encodeURIComponent(ctx.url)}`);
      }
      const scene = await sceneOf(platform, ctx, principal, app, query);
      sendPage(
        ctx,
        200,
        platformPage({
          title: `Install ${scene.app.published.name}`,
          body: consentBody(scene, sessionFormToken(platform, ctx)),
          user: await pageUser(platform, ctx, principal),
        }),
      );
    });
  });
  return async (ctx: AppContext, next: () => Promise<unknown>) => {
    if (ctx.get('Authorization')) return next();
    await show(ctx);
  };
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

const SCOPE_STYLE = `<style>
.consent{max-width:560px;margin:32px auto}.consent__app{display:flex;gap:16px;align-items:center;margin-bottom:6px}
.consent__icon{width:56px;height:56px;border-radius:14px;background:linear-gradient(135deg,#2b4acb,#7c3aed);color:#fff;display:flex;align-items:center;justify-content:center;font-weight:700;font-size:1.35rem;flex:none}
.consent h1{margin:0;font-size:1.4rem}.consent__by{margin:2px 0 0}.scopes{list-style:none;padding:0;margin:8px 0 0}
.scopes li{display:flex;gap:10px;padding:9px 0;border-top:1px solid var(--line)}.scopes li:first-child{border-top:0}
.scopes__mark{flex:none;width:22px;height:22px;border-radius:50%;display:flex;align-items:center;justify-content:center;font-size:.8rem;font-weight:700;background:#e0e7ff;color:#2b4acb}
.scopes--removed .scopes__mark{background:#fee2e2;color:var(--bad)}.scopes code{font-size:.78rem;color:var(--muted)}
.consent__store{display:flex;justify-content:space-between;gap:12px;align-items:center;background:#f8f9fb;border:1px solid var(--line);border-radius:8px;padding:10px 14px;margin:14px 0}
.consent__fine{font-size:.85rem;margin:14px 0 0}
</style>`;

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => [...w][0]!.toUpperCase())
    .join('') || '?';

function scopeList(scopes: readonly string[], kind: 'added' | 'removed'): Markup {
  const items = scopes.map((s) =>
    join(
      markup(`<li><span class="scopes__mark" aria-hidden="true">${kind === 'removed' ? '−' : '✓'}</span><span>`),
      consentSentence(s),
      markup(' <code>'),
      s,
      markup('</code></span></li>'),
    ),
  );
  return join(markup(`<ul class="scopes${kind === 'removed' ? ' scopes--removed' : ''}">`), ...items, markup('</ul>'));
}

/** The requested scopes, or for an installed app only what changes: those added and those removed. */
function scopesSection(scene: Scene): Markup {
  if (scene.granted === null) return join(markup('<h2>It will be able to</h2>'), scopeList(scene.requested, 'added'));
  const added = scene.requested.filter((s) => !scene.granted!.includes(s));
  const removed = scene.granted.filter((s) => !scene.requested.includes(s));
  const kept = scene.requested.length - added.length;
  const parts: Markup[] = [markup('<p class="notice">This app is already installed in this store. Here is what changes.</p>')];
  if (added.length > 0) parts.push(markup('<h2>It will also be able to</h2>'), scopeList(added, 'added'));
  if (removed.length > 0) parts.push(markup('<h2>It will no longer be able to</h2>'), scopeList(removed, 'removed'));
  if (added.length === 0 && removed.length === 0) parts.push(markup('<p>Nothing changes in what it may do.</p>'));
  if (kept > 0)
    parts.push(join(markup('<p class="muted">It keeps the '), String(kept), kept === 1 ? ' permission' : ' permissions', markup(' it already has.</p>')));
  return join(...parts);
}

function consentBody(scene: Scene, csrf: string | null): Markup {
  const m = scene.app.published;
  const hidden = AUTHORIZE_PARAMETERS.filter((name) => name !== 'store_id' || scene.store)
    .flatMap((name) => {
      const value = scene.query[name];
      return value === undefined ? [] : [[name, value] as const];
    })
    .map(([name, value]) => join(markup('<input type="hidden" name="'), name, markup('" value="'), value, markup('">')));
  const store = scene.store
    ? join(
        markup('<div class="consent__store"><span><span class="muted">Store</span><br><strong>'),
        scene.store.name,
        markup('</strong> <span class="muted">'),
        `${scene.store.subdomain}`,
        markup('</span></span></div>'),
      )
    : scene.stores.length === 1
      ? join(
          markup('<div class="consent__store"><span><span class="muted">Store</span><br><strong>'),
          scene.stores[0]!.name,
          markup('</strong> <span class="muted">'),
          scene.stores[0]!.subdomain,
          markup('</span></span></div><input type="hidden" name="store_id" value="'),
          scene.stores[0]!.id,
          markup('">'),
        )
      : join(
          markup('<div class="field" style="margin-top:14px"><label for="store_id">Install in store</label><select id="store_id" name="store_id" required>'),
          ...scene.stores.map((s) => join(markup('<option value="'), s.id, markup('">'), `${s.name} (${s.subdomain})`, markup('</option>'))),
          markup('</select></div>'),
        );
  return join(
    markup(SCOPE_STYLE),
    markup('<div class="consent"><form class="card" method="post" action="'),
    CONSENT_PATH,
    markup('">'),
    markup(csrfInput(csrf)),
    ...hidden,
    markup('<div class="consent__app"><div class="consent__icon" aria-hidden="true">'),
    initials(m.name),
    markup('</div><div><h1>'),
    scene.granted === null ? `Install ${m.name}?` : `Update ${m.name}?`,
    markup('</h1><p class="consent__by muted">by '),
    scene.partner || 'an App Store partner',
    markup('</p></div></div>'),
    store,
    scopesSection(scene),
    markup('<p class="consent__fine muted">The partner’s use of your store’s data is governed by its <a href="'),
    m.privacy_policy_url,
    markup('" rel="noopener noreferrer" target="_blank">privacy policy</a>. You can uninstall the app at any time.</p>'),
    markup('<div class="actions" style="margin-top:18px"><button class="button" type="submit" name="decision" value="install">'),
    scene.granted === null ? 'Install' : 'Update',
    markup('</button><button class="button button--secondary" type="submit" name="decision" value="cancel" formnovalidate>Cancel</button></div>'),
    markup('</form></div>'),
  );
}

/**
 * POST /v1/app-store/oauth/authorize/consent: the consent page's form. The session's form token
 * (else 403 `csrf_token_invalid`); the client and redirect URI checked again from the posted
 * fields (a tampered one is an error page, never a redirect); Cancel goes back with
 * `access_denied`; Install gives the API's authorization and goes back with the code.
 */
export function consentDecision(platform: Platform) {
  return pageHandler(platform, async (ctx) => {
    const fields = await readForm(ctx);
    checkFormToken(ctx, sessionFormToken(platform, ctx), fields.get('csrf_token'));
    const principal = await browserPrincipal(platform, ctx);
    const app = await authorizationClient(platform, fields.get('client_id'), fields.get('redirect_uri'));
    const redirectUri = fields.get('redirect_uri')!;
    await orRedirect(ctx, async () => {
      const decision = fields.get('decision');
      fields.delete('csrf_token');
      fields.delete('decision');
      const query = parametersOf(redirectUri, fields);
      if (principal?.kind !== 'merchant') {
        // The session ended since the page was shown: sign in again, then see the page again.
        fields.delete('store_id');
        ctx.status = 303;
        return ctx.redirect(`/login?return_to=${encodeURIComponent(`/v1/app-store/oauth/authorize?${new URLSearchParams([...fields]).toString()}`)}`);
      }
      if (decision === 'cancel')
        return redirectTo(ctx, withState(redirectUri, { error: 'access_denied', error_description: 'The merchant declined to install the app' }, query.state));
      if (decision !== 'install') throw errorRedirect(redirectUri, new RedirectError('invalid_request', 'decision must be install or cancel'), query.state);
      if (!query.store_id) throw errorRedirect(redirectUri, new RedirectError('invalid_request', 'store_id: choose a store'), query.state);
      const store = await accessibleStore(platform, ctx, principal, query.store_id);
      redirectTo(ctx, await authorizationRedirect(platform, principal.merchantId, store.id, app, query));
    });
  });
}
