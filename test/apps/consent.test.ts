import { expect } from 'chai';
import * as oauth from 'oauth4webapi';
import { useTestApp } from '../helpers/app.js';
import { givenPublishedApp, type GivenApp } from '../helpers/apps.js';
import { givenAppAndCustomer } from '../helpers/callers.js';
import { givenMerchant, givenMerchantWithStore, givenStore, type GivenMerchant, type GivenMerchantWithStore } from '../helpers/factories.js';
import { readOutbox } from '../../src/messages/index.js';
import { until } from '../helpers/waiting.js';
import { Browser, csrfOf } from '../helpers/page-browser.js';

const OPERATOR = 'operator-consent@example.com';
const insecure = { [oauth.allowInsecureRequests]: true } as const;

/** The consent form's fields as the page holds them (hidden inputs, the chosen store). */
const consentFields = (html: string): Record<string, string> => {
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields[m[1]!] = m[2]!
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'");
  return fields;
};

describe('Browser sign-in and the OAuth consent page', () => {
  const { app, api } = useTestApp('app_consent', { OPERATOR_EMAILS: OPERATOR });
  let partner: GivenApp;
  let shop: GivenMerchantWithStore;
  let redirectUri: string;
  let as: oauth.AuthorizationServer;
  let operator: GivenMerchant;

  before(async () => {
    operator = await givenMerchant(api, { email: OPERATOR });
    partner = await givenPublishedApp(api, operator.token, { name: 'Order Printer', scopes: ['read_products', 'read_orders', 'write_app_metadata'] });
    redirectUri = partner.app.published.redirect_urls[0];
    shop = await givenMerchantWithStore(api);
    const issuer = new URL(app.url);
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
  });

  /** The app's authorization request: its URL (path and query), verifier and state. */
  async function authorizationRequest(overrides: Record<string, string | null> = {}) {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const params: Record<string, string | null> = {
      client_id: partner.credentials.oauth_client_id,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'read_products read_orders',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      store_id: shop.store.id,
      webhook_url: 'https://partner.example.com/webhooks',
      ...overrides,
    };
    const query = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== null));
    return { path: `/v1/app-store/oauth/authorize?${query.toString()}`, verifier, state };
  }

  /** A browser signed in as `who` through the sign-in page. */
  async function signedIn(who: { email: string; password: string }): Promise<Browser> {
    const b = new Browser(app.url);
    const form = await b.get('/login');
    const done = await b.post('/login', { csrf_token: csrfOf(form.html), email: who.email, password: who.password, return_to: '/' });
    expect(done.status, done.html).to.equal(303);
    return b;
  }

  const installationScopes = async (s: GivenMerchantWithStore) =>
    ((await api.get('/v1/app-store/installations?status=active', s.as)).body.data as { app_id: string; scopes: string[] }[]).find(
      (i) => i.app_id === partner.app.id,
    )?.scopes ?? null;

  it('sends a signed-out merchant to sign in and back, shows the request, and Install gives a code the app exchanges with PKCE', async () => {
    const b = new Browser(app.url);
    const request = await authorizationRequest();
    const first = await b.get(request.path);
    expect(first.status).to.equal(303);
    const login = new URL(first.location!, app.url);
    expect(login.pathname).to.equal('/login');
    expect(login.searchParams.get('return_to')).to.equal(request.path);

    const form = await b.get(`${login.pathname}${login.search}`);
    expect(form.status).to.equal(200);
    expect(form.headers.get('content-security-policy')).to.include("frame-ancestors 'none'");
    expect(form.headers.get('x-frame-options')).to.equal('DENY');
    expect(form.html).to.include('Sign in to review the app');
    expect(b.jar.has('emporium_login')).to.equal(true);

    const signIn = await b.post('/login', {
      csrf_token: csrfOf(form.html, '/login'),
      email: shop.merchant.email,
      password: shop.merchant.password,
      return_to: request.path,
    });
    expect(signIn.status, signIn.html).to.equal(303);
    expect(signIn.location).to.equal(request.path);
    const cookie = b.setCookies.find((c) => c.startsWith('emporium_session='))!;
    expect(cookie)
      .to.match(/httponly/i)
      .and.match(/samesite=lax/i)
      .and.match(/path=\//i);
    expect(b.jar.get('emporium_session')).to.match(/^emp_session_/);

    const page = await b.get(signIn.location!);
    expect(page.status, page.html).to.equal(200);
    expect(page.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).to.equal('no-store');
    expect(page.headers.get('content-security-policy')).to.include("frame-ancestors 'none'");
    expect(page.headers.get('x-frame-options')).to.equal('DENY');
    expect(page.html).to.include('Install Order Printer?').and.include('Acme Apps').and.include(partner.app.published.privacy_policy_url);
    expect(page.html).to.include('See your products and collections').and.include('See your orders');
    expect(page.html).to.include('Test Store');
    // The session token is in the HttpOnly cookie only, never in the page.
    expect(page.html).to.not.include(b.jar.get('emporium_session')!);

    const fields = consentFields(page.html);
    expect(fields).to.include({ client_id: partner.credentials.oauth_client_id, redirect_uri: redirectUri, state: request.state, store_id: shop.store.id });
    const install = await b.post('/v1/app-store/oauth/authorize/consent', { ...fields, decision: 'install' });
    expect(install.status, install.html).to.equal(302);
    const back = new URL(install.location!);
    expect(`${back.origin}${back.pathname}`).to.equal(redirectUri);

    // The app's side, with an independent OAuth client: the callback checked, the code exchanged with PKCE.
    const client = { client_id: partner.credentials.oauth_client_id };
    const callback = oauth.validateAuthResponse(as, client, back, request.state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic(partner.credentials.client_secret),
      callback,
      redirectUri,
      request.verifier,
      insecure,
    );
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
    expect(tokens.scope).to.equal('read_orders read_products');
    expect(await installationScopes(shop)).to.deep.equal(['read_orders', 'read_products']);

    // The app's token and a customer's, put in the session cookie, are no one.
    const { customerToken } = await givenAppAndCustomer(api, operator.token, shop);
    for (const token of [tokens.access_token, customerToken]) {
      const stranger = new Browser(app.url);
      stranger.jar.set('emporium_session', token);
      const res = await stranger.get(request.path);
      expect(res.status).to.equal(303);
      expect(res.location).to.match(/^\/login\?return_to=/);
    }
  });

  it('shows a re-authorization as what changes: scopes added and removed', async () => {
    const b = await signedIn(shop.merchant);
    // Installed above with read_orders and read_products: now read_products and write_app_metadata.
    const request = await authorizationRequest({ scope: 'read_products write_app_metadata' });
    const page = await b.get(request.path);
    expect(page.status, page.html).to.equal(200);
    expect(page.html).to.include('Update Order Printer?').and.include('already installed');
    const also = page.html.slice(page.html.indexOf('It will also be able to'), page.html.indexOf('It will no longer be able to'));
    expect(also).to.include('Change the settings it keeps for your store').and.include('See the settings it keeps for your store');
    expect(also).to.not.include('See your products and collections');
    const removed = page.html.slice(page.html.indexOf('It will no longer be able to'));
    expect(removed).to.include('See your orders');
    expect(page.html).to.include('It keeps the 1 permission it already has');
    const install = await b.post('/v1/app-store/oauth/authorize/consent', { ...consentFields(page.html), decision: 'install' });
    expect(install.status).to.equal(302);
    expect(new URL(install.location!).searchParams.get('code')).to.match(/^emp_ac_/);
    expect(await installationScopes(shop)).to.deep.equal(['read_app_metadata', 'read_products', 'write_app_metadata']);
  });

  it('Cancel goes back with access_denied and the state, and installs nothing', async () => {
    const other = await givenMerchantWithStore(api);
    const b = await signedIn(other.merchant);
    const request = await authorizationRequest({ store_id: other.store.id });
    const page = await b.get(request.path);
    const cancel = await b.post('/v1/app-store/oauth/authorize/consent', { ...consentFields(page.html), decision: 'cancel' });
    expect(cancel.status).to.equal(302);
    const back = new URL(cancel.location!);
    expect(`${back.origin}${back.pathname}`).to.equal(redirectUri);
    expect(back.searchParams.get('error')).to.equal('access_denied');
    expect(back.searchParams.get('state')).to.equal(request.state);
    expect(back.searchParams.has('code')).to.equal(false);
    expect(await installationScopes(other)).to.equal(null);
  });

  it('lets a merchant with several stores choose one (and only their own)', async () => {
    const owner = await givenMerchantWithStore(api);
    const second = await givenStore(api, owner.merchant, { name: 'Second Store' });
    const b = await signedIn(owner.merchant);
    const request = await authorizationRequest({ store_id: null });
    const page = await b.get(request.path);
    expect(page.status, page.html).to.equal(200);
    expect(page.html).to.include('<select id="store_id" name="store_id" required>').and.include('Second Store');
    const fields = consentFields(page.html);
    expect(fields).to.not.have.property('store_id');
    // Someone else's store is refused, as the API refuses it, and nothing is installed there.
    const foreign = await b.post('/v1/app-store/oauth/authorize/consent', { ...fields, store_id: shop.store.id, decision: 'install' });
    expect([foreign.status, foreign.location]).to.deep.equal([403, null]);
    const install = await b.post('/v1/app-store/oauth/authorize/consent', { ...fields, store_id: second.id, decision: 'install' });
    expect(install.status).to.equal(302);
    expect(new URL(install.location!).searchParams.get('code')).to.match(/^emp_ac_/);
    // A store_id the merchant may not use, in the query: an error page, never a redirect.
    const forbidden = await b.get((await authorizationRequest({ store_id: shop.store.id })).path);
    expect([forbidden.status, forbidden.location]).to.deep.equal([403, null]);
  });

  it('never redirects to an unknown client or an unregistered redirect URI, and redirects later errors to the client', async () => {
    const b = await signedIn(shop.merchant);
    for (const overrides of [{ redirect_uri: 'https://evil.example/callback' }, { redirect_uri: `${redirectUri}/x` }, { redirect_uri: null }]) {
      const res = await b.get((await authorizationRequest(overrides)).path);
      expect([res.status, res.location], JSON.stringify(overrides)).to.deep.equal([400, null]);
      expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(res.html).to.include('redirect_uri must be exactly one');
    }
    for (const overrides of [{ client_id: 'emp_ci_nosuchclient' }, { client_id: null }]) {
      const res = await b.get((await authorizationRequest(overrides)).path);
      expect([res.status, res.location]).to.deep.equal([404, null]);
    }
    // Signed out, the same: the page, not the sign-in.
    const anonymous = await new Browser(app.url).get((await authorizationRequest({ redirect_uri: 'https://evil.example/cb' })).path);
    expect([anonymous.status, anonymous.location]).to.deep.equal([400, null]);

    const errorOf = async (overrides: Record<string, string | null>) => {
      const request = await authorizationRequest(overrides);
      const res = await b.get(request.path);
      expect(res.status, res.html).to.equal(302);
      const back = new URL(res.location!);
      expect(`${back.origin}${back.pathname}`).to.equal(redirectUri);
      expect(back.searchParams.get('state')).to.equal(request.state);
      return back.searchParams.get('error');
    };
    expect(await errorOf({ scope: 'read_customers' })).to.equal('invalid_scope');
    expect(await errorOf({ response_type: 'token' })).to.equal('unsupported_response_type');
    expect(await errorOf({ code_challenge_method: 'plain' })).to.equal('invalid_request');
    expect(await errorOf({ webhook_url: null })).to.equal('invalid_request');
  });

  it('refuses a consent whose redirect URI was tampered with, a missing or forged CSRF token and a cross-site post', async () => {
    const victim = await givenMerchantWithStore(api);
    const b = await signedIn(victim.merchant);
    const page = await b.get((await authorizationRequest({ store_id: victim.store.id })).path);
    const fields = consentFields(page.html);
    const tampered = await b.post('/v1/app-store/oauth/authorize/consent', { ...fields, redirect_uri: 'https://evil.example/callback', decision: 'install' });
    expect([tampered.status, tampered.location]).to.deep.equal([400, null]);
    const { csrf_token: _token, ...withoutToken } = fields;
    for (const [form, headers] of [
      [withoutToken, {}],
      [{ ...fields, csrf_token: 'A'.repeat(43) }, {}],
      [fields, { 'sec-fetch-site': 'cross-site' }],
      [fields, { 'sec-fetch-site': '', origin: 'https://evil.example' }],
    ] as [Record<string, string>, Record<string, string>][]) {
      const res = await b.post('/v1/app-store/oauth/authorize/consent', { ...form, decision: 'install' }, headers);
      expect([res.status, res.location]).to.deep.equal([403, null]);
      expect(res.html).to.include('expired or was sent from another site');
    }
    // A body that is no form, or too large a form, is a 4xx page too, never the API's JSON envelope.
    const cookies = [...b.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    for (const path of ['/v1/app-store/oauth/authorize/consent', '/login', '/login/code', '/logout']) {
      for (const [type, body, status] of [
        ['application/json', JSON.stringify({ ...fields, decision: 'install' }), 415],
        ['text/plain', new URLSearchParams({ ...fields, decision: 'install' }).toString(), 415],
        ['application/x-www-form-urlencoded', `${new URLSearchParams({ ...fields, decision: 'install' }).toString()}&pad=${'x'.repeat(20_000)}`, 413],
      ] as const) {
        const res = await fetch(new URL(path, app.url), {
          method: 'POST',
          headers: { cookie: cookies, 'content-type': type, 'sec-fetch-site': 'same-origin' },
          body,
          redirect: 'manual',
        });
        expect([res.status, res.headers.get('content-type')], `${path} ${type}`).to.deep.equal([status, 'text/html; charset=utf-8']);
      }
    }
    // A form's address opened as a page (a bookmark, a reload): a 405 page.
    for (const path of ['/v1/app-store/oauth/authorize/consent', '/login/code', '/login/code/verify', '/logout']) {
      const res = await b.get(path);
      expect([res.status, res.headers.get('content-type'), res.headers.get('allow')], path).to.deep.equal([405, 'text/html; charset=utf-8', 'POST']);
    }
    expect(await installationScopes(victim)).to.equal(null);
    // The same form, sent properly, works.
    expect((await b.post('/v1/app-store/oauth/authorize/consent', { ...fields, decision: 'install' })).status).to.equal(302);
  });

  it('answers an API client with a Bearer token exactly as before', async () => {
    const request = await authorizationRequest();
    const res = await fetch(new URL(request.path, app.url), { headers: { authorization: `Bearer ${shop.merchant.token}` }, redirect: 'manual' });
    expect(res.status).to.equal(302);
    expect(new URL(res.headers.get('location')!).searchParams.get('code')).to.match(/^emp_ac_/);
    const unauthorized = await fetch(new URL(request.path, app.url), { headers: { authorization: 'Bearer emp_session_nope' }, redirect: 'manual' });
    expect(unauthorized.status).to.equal(401);
    expect(unauthorized.headers.get('content-type')).to.match(/application\/json/);
  });

  describe('signing in', () => {
    it('refuses login CSRF: no login cookie, a forged token, a cross-site post', async () => {
      const m = await givenMerchant(api);
      const fresh = new Browser(app.url);
      const noCookie = await fresh.post('/login', { email: m.email, password: m.password });
      expect(noCookie.status).to.equal(403);
      const b = new Browser(app.url);
      const form = await b.get('/login');
      const token = csrfOf(form.html);
      expect((await b.post('/login', { csrf_token: 'x'.repeat(43), email: m.email, password: m.password })).status).to.equal(403);
      expect((await b.post('/login', { csrf_token: token, email: m.email, password: m.password }, { 'sec-fetch-site': 'cross-site' })).status).to.equal(403);
      // Another browser's token is not this one's.
      const other = new Browser(app.url);
      await other.get('/login');
      expect((await other.post('/login', { csrf_token: token, email: m.email, password: m.password })).status).to.equal(403);
      expect(b.jar.has('emporium_session') || other.jar.has('emporium_session')).to.equal(false);
    });

    it('shows a wrong password as one generic message (401), then locks out as the API does (429, Retry-After)', async () => {
      // Signed up without givenMerchant's sign-in, so all 10 attempts of the window are the page's.
      const m = { email: `locked-${Date.now()}@example.com`, password: 'the right password' };
      expect((await api.post('/v1/auth/signup', { ...m, name: 'Locked' })).status).to.equal(202);
      const b = new Browser(app.url);
      const form = await b.get('/login');
      const token = csrfOf(form.html);
      for (let i = 0; i < 10; i++) {
        const res = await b.post('/login', { csrf_token: token, email: m.email, password: `wrong-${i}` });
        expect(res.status).to.equal(401);
        expect(res.html).to.include('The email or password is wrong.');
        expect(res.html).to.include(`value="${m.email}"`);
      }
      const locked = await b.post('/login', { csrf_token: token, email: m.email, password: m.password });
      expect(locked.status).to.equal(429);
      expect(Number(locked.headers.get('retry-after'))).to.be.greaterThan(0);
      expect(locked.html).to.include('Too many attempts');
      expect(b.jar.has('emporium_session')).to.equal(false);
      // The API sees the same lockout.
      expect((await api.post('/v1/auth/signin', { email: m.email, password: m.password })).status).to.equal(429);
      // Recorded for operators, as the API's lockout is.
      await until(
        'the lockout recorded',
        async () => (await app.platform.db.collection('enforcement_events').countDocuments({ kind: 'login_locked_out' })) > 0,
      );
    });

    it('goes only to a same-site path after signing in: //evil.example and the like go to the admin', async () => {
      const m = await givenMerchant(api);
      for (const [returnTo, expected] of [
        ['//evil.example/x', '/admin'],
        ['https://evil.example/', '/admin'],
        ['/\\evil.example', '/admin'],
        ['evil', '/admin'],
        ['/v1/app-store/oauth/authorize?x=1', '/v1/app-store/oauth/authorize?x=1'],
      ]) {
        const b = new Browser(app.url);
        const form = await b.get(`/login?return_to=${encodeURIComponent(returnTo!)}`);
        expect(form.html).to.not.include('evil.example');
        const res = await b.post('/login', { csrf_token: csrfOf(form.html), email: m.email, password: m.password, return_to: returnTo! });
        expect([res.status, res.location], returnTo).to.deep.equal([303, expected]);
      }
    });

    it('signs in with a one-time code from the email', async () => {
      const m = await givenMerchant(api);
      const b = new Browser(app.url);
      const form = await b.get('/login?return_to=/');
      const asked = await b.post('/login/code', { csrf_token: csrfOf(form.html, '/login/code'), email: m.email, return_to: '/' });
      expect(asked.status, asked.html).to.equal(200);
      expect(asked.html).to.include('Enter your code');
      const [message] = (await readOutbox(app.platform, m.email)).filter((x) => x.kind === 'signin_code');
      const code = /\b(\d{6})\b/.exec(message!.text!)![1]!;
      const wrong = await b.post('/login/code/verify', {
        csrf_token: csrfOf(asked.html),
        email: m.email,
        code: code === '000000' ? '111111' : '000000',
        return_to: '/',
      });
      expect(wrong.status).to.equal(401);
      expect(wrong.html).to.include('That code is wrong');
      const done = await b.post('/login/code/verify', { csrf_token: csrfOf(wrong.html), email: m.email, code, return_to: '/' });
      expect([done.status, done.location]).to.deep.equal([303, '/']);
      expect((await api.get('/v1/auth/custom/session', { token: b.jar.get('emporium_session')! })).body.data.merchant.email).to.equal(m.email);
    });

    it('signs out: the session ends and the cookie goes; a forged sign-out is refused', async () => {
      const own = await givenMerchantWithStore(api);
      const b = await signedIn(own.merchant);
      const token = b.jar.get('emporium_session')!;
      // A signed-in page with the top bar's Log out: the consent page for the merchant's store.
      const home = await b.get((await authorizationRequest({ store_id: own.store.id })).path);
      expect(home.html).to.include('Log out').and.not.include(token);
      expect((await b.post('/logout', { csrf_token: 'forged' })).status).to.equal(403);
      const out = await b.post('/logout', { csrf_token: csrfOf(home.html, '/logout') });
      expect([out.status, out.location]).to.deep.equal([303, '/login']);
      expect(b.jar.has('emporium_session')).to.equal(false);
      expect((await api.get('/v1/auth/custom/session', { token })).status).to.equal(401);
    });

    it('keeps GET / the API’s for API clients and sends a browser to the admin, or to sign in', async () => {
      const api404 = await fetch(`${app.url}/`);
      expect(api404.status).to.equal(404);
      expect(api404.headers.get('content-type')).to.match(/application\/json/);
      expect((await new Browser(app.url).get('/')).location).to.equal('/login');
      for (const who of [shop.merchant, operator]) {
        const b = await signedIn(who);
        const home = await b.get('/');
        expect([home.status, home.location]).to.deep.equal([303, '/admin']);
      }
    });
  });
});
