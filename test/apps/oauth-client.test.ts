import { expect } from 'chai';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as oauth from 'oauth4webapi';
import { sweep } from '../helpers/sweeps.js';
import { useTestApp } from '../helpers/app.js';
import { givenPublishedApp, type GivenApp } from '../helpers/apps.js';
import { givenMerchant, givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';

const OPERATOR = 'operator-flow@example.com';
const insecure = { [oauth.allowInsecureRequests]: true } as const;

/**
 * The whole install, as a partner's backend written against an independent OAuth client library
 * (oauth4webapi) does it: discovery, the install link, authorization code with PKCE, refresh,
 * token exchange of an embedded app's session token, the app API, uninstall.
 */
describe('A partner app through a generic OAuth client (oauth4webapi)', () => {
  const { app, api } = useTestApp('app_oauth_client', { OPERATOR_EMAILS: OPERATOR });
  let shop: GivenMerchantWithStore;
  let partner: GivenApp;
  let as: oauth.AuthorizationServer;
  let oauthClient: oauth.Client;
  let clientAuth: oauth.ClientAuth;
  let redirectUri: string;
  let operatorToken: string;

  before(async () => {
    operatorToken = (await givenMerchant(api, { email: OPERATOR })).token;
    partner = await givenPublishedApp(api, operatorToken, { scopes: ['read_products', 'read_orders', 'write_app_metadata'] });
    redirectUri = partner.app.published.redirect_urls[0];
    shop = await givenMerchantWithStore(api);
    await api.post('/v1/products', { title: 'Linen shirt', status: 'active', variants: [{ price: 4900 }] }, shop.as);

    // The partner's side: discovery (RFC 8414), then its client registration.
    const issuer = new URL(app.url);
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
    oauthClient = { client_id: partner.credentials.oauth_client_id };
    clientAuth = oauth.ClientSecretBasic(partner.credentials.client_secret);
  });

  /** The merchant of `into` authorizes the app (read_products): the installation's id. */
  const authorizeInto = async (into: GivenMerchantWithStore): Promise<string> => {
    const verifier = oauth.generateRandomCodeVerifier();
    const authorized = await api.post(
      `/v1/app-store/apps/${partner.app.id}/oauth/authorize`,
      {
        store_id: into.store.id,
        redirect_uri: redirectUri,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        scopes: ['read_products'],
        state: 's',
        webhook_url: 'https://partner.example.com/webhooks',
      },
      { token: into.merchant.token },
    );
    expect(authorized.status, JSON.stringify(authorized.body)).to.equal(200);
    return authorized.body.data.installation.id as string;
  };
  /** A token exchange of `subject` by a client, its answer parsed. */
  const exchangeWith = async (auth: oauth.ClientAuth, clientId: string, subject: string, requested?: string) => {
    const res = await oauth.genericTokenEndpointRequest(
      as,
      { client_id: clientId },
      auth,
      'urn:ietf:params:oauth:grant-type:token-exchange',
      { subject_token: subject, subject_token_type: 'urn:ietf:params:oauth:token-type:id_token', ...(requested ? { requested_token_type: requested } : {}) },
      insecure,
    );
    return { status: res.status, body: (await res.json()) as { error?: string; error_description?: string; access_token?: string } };
  };

  it('installs, reads, refreshes, exchanges session tokens and is uninstalled, end to end', async () => {
    expect(as.code_challenge_methods_supported).to.deep.equal(['S256']);

    // 1. The merchant starts the install; the app checks the install token with the JWKS.
    const started = await api.post(`/v1/app-store/apps/${partner.app.id}/install`, { store_id: shop.store.id }, { token: shop.merchant.token });
    expect(started.status, JSON.stringify(started.body)).to.equal(200);
    const installUrl = new URL(started.body.data.install_url);
    expect(`${installUrl.origin}${installUrl.pathname}`).to.equal(partner.app.published.app_url);
    const jwks = createRemoteJWKSet(new URL(as.jwks_uri!));
    const link = await jwtVerify(installUrl.searchParams.get('install_token')!, jwks, { issuer: as.issuer, audience: oauthClient.client_id });
    expect(link.payload).to.include({ store_id: shop.store.id, store_subdomain: shop.store.subdomain });
    expect(installUrl.searchParams.get('store_id')).to.equal(shop.store.id);

    // 2. The app sends the merchant to the authorization endpoint with PKCE and state.
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const authorizationUrl = new URL(as.authorization_endpoint!);
    authorizationUrl.search = new URLSearchParams({
      client_id: oauthClient.client_id,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'read_products read_orders write_app_metadata',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      store_id: shop.store.id,
      webhook_url: 'https://partner.example.com/webhooks',
    }).toString();
    // The merchant's signed-in client consents.
    const consent = await fetch(authorizationUrl, { headers: { authorization: `Bearer ${shop.merchant.token}` }, redirect: 'manual' });
    expect(consent.status).to.equal(302);
    const callback = oauth.validateAuthResponse(as, oauthClient, new URL(consent.headers.get('location')!), state);

    // 3. The app's backend exchanges the code.
    const codeResponse = await oauth.authorizationCodeGrantRequest(as, oauthClient, clientAuth, callback, redirectUri, verifier, insecure);
    const tokens = await oauth.processAuthorizationCodeResponse(as, oauthClient, codeResponse);
    expect(tokens.token_type).to.equal('bearer');
    expect(tokens.scope).to.equal('read_app_metadata read_orders read_products write_app_metadata');

    // 4. The app reads the store.
    const products = await oauth.protectedResourceRequest(tokens.access_token, 'GET', new URL(`${app.url}/v1/app/products`), undefined, undefined, insecure);
    expect(products.status).to.equal(200);
    expect(((await products.json()) as { data: { title: string }[] }).data.map((p) => p.title)).to.deep.equal(['Linen shirt']);

    // 5. Refresh rotates the pair.
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      oauthClient,
      await oauth.refreshTokenGrantRequest(as, oauthClient, clientAuth, tokens.refresh_token!, insecure),
    );
    expect(refreshed.refresh_token).to.not.equal(tokens.refresh_token);
    const metadata = await oauth.protectedResourceRequest(
      refreshed.access_token,
      'PUT',
      new URL(`${app.url}/v1/app/installation/metadata`),
      new Headers({ 'content-type': 'application/json' }),
      JSON.stringify({ metadata: { onboarded: true } }),
      insecure,
    );
    expect(metadata.status).to.equal(200);

    // 6. The embedded app: the merchant's admin gets a session token, the app's backend exchanges it.
    const installationId = (await api.get('/v1/app-store/installations?status=active', shop.as)).body.data[0].id as string;
    // A session token is exchanged once: the admin hands the app a fresh one for each request.
    const newSessionToken = async () => {
      const session = await api.post(`/v1/app-store/installations/${installationId}/session-token`, undefined, shop.as);
      expect(session.status, JSON.stringify(session.body)).to.equal(200);
      return session.body.data.session_token as string;
    };
    const exchange = async (requested: string) =>
      oauth.genericTokenEndpointRequest(
        as,
        oauthClient,
        clientAuth,
        'urn:ietf:params:oauth:grant-type:token-exchange',
        { subject_token: await newSessionToken(), subject_token_type: 'urn:ietf:params:oauth:token-type:id_token', requested_token_type: requested },
        insecure,
      );
    const online = await oauth.processGenericTokenEndpointResponse(as, oauthClient, await exchange('urn:emporium:params:oauth:token-type:online-access-token'));
    expect(online.refresh_token).to.equal(undefined);
    expect(online.issued_token_type).to.equal('urn:ietf:params:oauth:token-type:access_token');
    expect(online.associated_user).to.deep.equal({ id: shop.merchant.id });
    const offline = await oauth.processGenericTokenEndpointResponse(
      as,
      oauthClient,
      await exchange('urn:emporium:params:oauth:token-type:offline-access-token'),
    );
    expect(offline.refresh_token).to.match(/^emp_rt_/);
    const orders = await oauth.protectedResourceRequest(online.access_token, 'GET', new URL(`${app.url}/v1/app/orders`), undefined, undefined, insecure);
    expect(orders.status).to.equal(200);

    // The spec's own path takes the same exchange.
    const viaSpecPath = await api.send(
      'POST',
      '/v1/app-store/oauth/token-exchange',
      new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        subject_token: await newSessionToken(),
        subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      }).toString(),
      {
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${oauthClient.client_id}:${partner.credentials.client_secret}`).toString('base64')}`,
        },
      },
    );
    expect(viaSpecPath.status, JSON.stringify(viaSpecPath.body)).to.equal(200);

    // 7. The merchant signs out: the online token ends with the session; the offline one does not.
    expect((await api.post('/v1/auth/signout', undefined, { token: shop.merchant.token })).status).to.be.oneOf([200, 204]);
    expect((await api.get('/v1/app/orders', { token: online.access_token })).status).to.equal(401);
    expect((await api.get('/v1/app/orders', { token: offline.access_token })).status).to.equal(200);

    // 8. Uninstall (a new session): every token stops at once.
    const signin = await api.post('/v1/auth/signin', { email: shop.merchant.email, password: shop.merchant.password });
    const merchant = { token: signin.body.data.session.token as string, storeId: shop.store.id };
    expect((await api.delete(`/v1/app-store/installations/${installationId}`, merchant)).status).to.equal(200);
    for (const t of [refreshed.access_token, offline.access_token]) expect((await api.get('/v1/app/products', { token: t })).status).to.equal(401);
    const afterUninstall = await oauth.refreshTokenGrantRequest(as, oauthClient, clientAuth, refreshed.refresh_token!, insecure);
    expect(afterUninstall.status).to.equal(400);
    expect(((await afterUninstall.json()) as { error: string }).error).to.equal('invalid_grant');
  });

  it('exchanges a session token once: the same token again, even at once in parallel, is refused (RFC 8693 invalid_request)', async () => {
    const own = await givenMerchantWithStore(api);
    const installationId = await authorizeInto(own);
    const sessionToken = async () =>
      (await api.post(`/v1/app-store/installations/${installationId}/session-token`, undefined, own.as)).body.data.session_token as string;
    const exchange = (subject: string, requested = 'urn:emporium:params:oauth:token-type:online-access-token') =>
      exchangeWith(clientAuth, oauthClient.client_id, subject, requested);

    const first = await sessionToken();
    const used = await exchange(first);
    expect(used.status, JSON.stringify(used.body)).to.equal(200);
    // Again, for an online or an offline token: refused, and the first access token still works.
    for (const requested of ['urn:emporium:params:oauth:token-type:online-access-token', 'urn:emporium:params:oauth:token-type:offline-access-token']) {
      const again = await exchange(first, requested);
      expect([again.status, again.body.error, again.body.error_description]).to.deep.equal([
        400,
        'invalid_request',
        'subject_token is not valid: already exchanged',
      ]);
    }
    expect((await api.get('/v1/app/products', { token: used.body.access_token! })).status).to.equal(200);

    // Five exchanges of one new token at once: exactly one access token.
    const fresh = await sessionToken();
    const raced = await Promise.all(Array.from({ length: 5 }, () => exchange(fresh)));
    expect(raced.map((r) => r.status).sort()).to.deep.equal([200, 400, 400, 400, 400]);
    // A used token is remembered until it expires, then swept; it could not be exchanged by then anyway.
    const uses = app.platform.db.collection('app_session_token_uses');
    expect(await uses.countDocuments({})).to.be.at.least(2);
    await sweep('maintenance.sweep-oauth', { ...app.platform, clock: { now: () => new Date(Date.now() + 60_000 + 10_000) } });
    expect(await uses.countDocuments({})).to.equal(0);
  });

  it('refuses session tokens that are not for this app, tampered or of an uninstalled app, with RFC 8693 errors', async () => {
    const other = await givenMerchantWithStore(api);
    // An installation of this app in another store, and a session token for it.
    const installationId = await authorizeInto(other);
    const sessionToken = (await api.post(`/v1/app-store/installations/${installationId}/session-token`, undefined, other.as)).body.data.session_token as string;

    // Another app's client presenting this app's session token: wrong audience.
    const stranger = await givenPublishedApp(api, operatorToken, {});
    const res = await exchangeWith(oauth.ClientSecretBasic(stranger.credentials.client_secret), stranger.credentials.oauth_client_id, sessionToken);
    expect([res.status, res.body.error, res.body.error_description]).to.deep.equal([400, 'invalid_request', 'subject_token is not valid: wrong audience']);
    const tampered = `${sessionToken.slice(0, -4)}${sessionToken.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    const bad = await exchangeWith(clientAuth, oauthClient.client_id, tampered);
    expect([bad.status, bad.body.error]).to.deep.equal([400, 'invalid_request']);
    const garbage = await exchangeWith(clientAuth, oauthClient.client_id, 'not-a-jwt');
    expect([garbage.status, garbage.body.error_description]).to.deep.equal([400, 'subject_token is not valid: malformed']);

    // Uninstalled: the same (still unexpired) token is refused.
    expect((await exchangeWith(clientAuth, oauthClient.client_id, sessionToken)).status).to.equal(200);
    expect((await api.delete(`/v1/app-store/installations/${installationId}`, other.as)).status).to.equal(200);
    const gone = await exchangeWith(clientAuth, oauthClient.client_id, sessionToken);
    expect([gone.status, gone.body.error_description]).to.deep.equal([400, 'subject_token is not valid: the app is not installed in that store']);
  });
});
