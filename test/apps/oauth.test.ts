import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import { sweep } from '../helpers/sweeps.js';
import { startTestApp, useTestApp } from '../helpers/app.js';
import { givenPublishedApp as publish, givenSubmittedApp, type GivenApp } from '../helpers/apps.js';
import { findPlaintext } from '../helpers/database.js';
import { givenMerchant, givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { client, type Client, type Reply } from '../helpers/http.js';

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

/**
 * Install through OAuth 2.1 with PKCE (docs/oauth.md): authorize, the token endpoint
 * (authorization_code, refresh_token), the app API with RFC 6750 errors, uninstall.
 */
describe('App install: authorize, tokens, the app API (OAuth 2.1 + PKCE)', () => {
  let shop: GivenMerchantWithStore;
  let other: GivenMerchantWithStore;
  type Partner = GivenApp & { manifest: { redirect_urls: string[] } };
  let partner: Partner;
  const secretsSeen: string[] = [];
  const OPERATOR = 'operator@example.com';
  const { app, api } = useTestApp('app_oauth', { OPERATOR_EMAILS: OPERATOR });
  const operators = new Map<Client, string>();
  /** A partner's app through the real partner API: submitted, and approved by an operator unless `publish: false`. */
  const givenPublishedApp = async (on: Client, over: Record<string, unknown> = {}, options: { publish?: boolean } = {}): Promise<Partner> => {
    if (!operators.has(on)) operators.set(on, (await givenMerchant(on, { email: OPERATOR })).token);
    const given = options.publish === false ? await givenSubmittedApp(on, over) : await publish(on, operators.get(on)!, over);
    const manifest = (given.app.published ?? given.app.latest_version.manifest) as { redirect_urls: string[] };
    return { ...given, manifest };
  };

  before(async () => {
    shop = await givenMerchantWithStore(api);
    other = await givenMerchantWithStore(api);
    partner = await givenPublishedApp(api, { scopes: ['read_products', 'read_orders', 'write_app_metadata'] });
    secretsSeen.push(partner.credentials.client_secret, partner.credentials.api_key);
    // Something to read in each store.
    await api.post('/v1/products', { title: 'Mine', status: 'active', variants: [{ price: 1000 }] }, shop.as);
    await api.post('/v1/products', { title: 'Theirs', status: 'active', variants: [{ price: 2000 }] }, other.as);
  });

  const redirectUri = () => partner.manifest.redirect_urls[0]!;
  const authorizeBody = (over: Record<string, unknown> = {}) => {
    const p = pkce();
    return {
      p,
      body: {
        store_id: shop.store.id,
        redirect_uri: redirectUri(),
        code_challenge: p.challenge,
        code_challenge_method: 'S256',
        scopes: ['read_products', 'write_app_metadata'],
        state: `st-${randomBytes(6).toString('hex')}`,
        webhook_url: 'https://partner.example.com/webhooks',
        ...over,
      },
    };
  };
  const authorize = (body: Record<string, unknown>, as: GivenMerchantWithStore = shop, appId = partner.app.id) =>
    api.post(`/v1/app-store/apps/${appId}/oauth/authorize`, body, { token: as.merchant.token });

  const form = (params: Record<string, string>) => new URLSearchParams(params).toString();
  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
  const token = (params: Record<string, string>, auth: 'basic' | 'post' | 'none' = 'basic', creds = partner.credentials): Promise<Reply> =>
    api.send(
      'POST',
      '/v1/app-store/oauth/token',
      form(auth === 'post' ? { ...params, client_id: creds.oauth_client_id, client_secret: creds.client_secret } : params),
      {
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(auth === 'basic' ? { authorization: basic(creds.oauth_client_id, creds.client_secret) } : {}),
        },
      },
    );

  /** A full install: consent, then the code exchanged for tokens. */
  const install = async (over: Record<string, unknown> = {}, as: GivenMerchantWithStore = shop) => {
    const { p, body } = authorizeBody({ store_id: as.store.id, ...over });
    const granted = await authorize(body, as);
    expect(granted.status, JSON.stringify(granted.body)).to.equal(200);
    const exchanged = await token({
      grant_type: 'authorization_code',
      code: granted.body.data.code,
      redirect_uri: body.redirect_uri as string,
      code_verifier: p.verifier,
    });
    expect(exchanged.status, JSON.stringify(exchanged.body)).to.equal(200);
    secretsSeen.push(granted.body.data.code, exchanged.body.access_token, exchanged.body.refresh_token);
    return {
      granted: granted.body.data,
      tokens: exchanged.body as { access_token: string; refresh_token: string; scope: string; expires_in: number; token_type: string },
    };
  };
  const uninstallAll = async (as: GivenMerchantWithStore = shop) => {
    const list = await api.get('/v1/app-store/installations?status=active', as.as);
    for (const i of list.body.data) await api.delete(`/v1/app-store/installations/${i.id}`, as.as);
  };
  afterEach(async () => {
    await uninstallAll(shop);
    await uninstallAll(other);
  });

  describe('authorize (the merchant consents)', () => {
    it('makes an active installation and a code, and answers the redirect URL with code and state', async () => {
      const since = new Date();
      const { body } = authorizeBody();
      const res = await authorize(body);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.headers.get('cache-control')).to.equal('no-store');
      const data = res.body.data;
      expect(data.code).to.match(/^emp_ac_[A-Za-z0-9_-]{43}$/);
      expect(data.state).to.equal(body.state);
      expect(data.expires_in).to.equal(60);
      const url = new URL(data.redirect_url);
      expect(`${url.origin}${url.pathname}`).to.equal(redirectUri());
      expect(url.searchParams.get('code')).to.equal(data.code);
      expect(url.searchParams.get('state')).to.equal(body.state);
      expect(data.installation).to.include({
        app_id: partner.app.id,
        store_id: shop.store.id,
        status: 'active',
        webhook_url: 'https://partner.example.com/webhooks',
      });
      // A write scope brings its read (docs/apps.md, Scopes).
      expect(data.installation.scopes).to.deep.equal(['read_app_metadata', 'read_products', 'write_app_metadata']);
      const events = await app.platform.db
        .collection('events')
        .find({ type: 'app.installed', 'payload.installation.id': data.installation.id, created_at: { $gte: since } })
        .toArray();
      expect(events).to.have.length(1);
      expect(events[0]!.payload.contract_version).to.equal('2026-06-05.ws13.lifecycle');
    });

    it('refuses every rule of spec 2.1 with a clear 4xx and installs nothing', async () => {
      const cases: [string, Record<string, unknown>, number, string][] = [
        ['plain PKCE', { code_challenge_method: 'plain' }, 400, 'invalid_input'],
        ['a malformed challenge', { code_challenge: 'short' }, 400, 'invalid_input'],
        ['no state', { state: undefined }, 400, 'invalid_input'],
        ['a redirect_uri not in the manifest', { redirect_uri: 'https://partner.example.com/elsewhere' }, 400, 'invalid_redirect_uri'],
        ['a redirect_uri that only starts like one', { redirect_uri: `${redirectUri()}/../x` }, 400, 'invalid_redirect_uri'],
        ['scopes beyond the manifest', { scopes: ['read_products', 'write_products'] }, 400, 'invalid_scope'],
        ['no scopes', { scopes: [] }, 400, 'invalid_input'],
        ['a plain-http webhook target', { webhook_url: 'http://partner.example.com/hooks' }, 400, 'invalid_input'],
        ['an unknown field', { extra: 1 }, 400, 'invalid_input'],
        ['a store the merchant does not own', { store_id: other.store.id }, 403, 'store_forbidden'],
      ];
      for (const [what, over, status, code] of cases) {
        const { body } = authorizeBody(over);
        const res = await authorize(body);
        expect([res.status, res.body.error?.code], what).to.deep.equal([status, code]);
      }
      expect((await authorize(authorizeBody().body, shop, '0123456789abcdef01234567')).status).to.equal(404);
      const anonymous = await api.post(`/v1/app-store/apps/${partner.app.id}/oauth/authorize`, authorizeBody().body);
      expect(anonymous.status).to.equal(401);
      expect(await app.platform.db.collection('app_installations').countDocuments({ status: 'active' })).to.equal(0);
    });

    it('refuses an app that is not published', async () => {
      const draft = await givenPublishedApp(api, {}, { publish: false });
      const res = await authorize(authorizeBody().body, shop, draft.app.id);
      expect([res.status, res.body.error.code]).to.deep.equal([404, 'not_found']);
    });
  });

  describe('the token endpoint (authorization_code)', () => {
    it('exchanges a code with client_secret_basic or client_secret_post, as form or JSON, and the RFC body', async () => {
      const { tokens } = await install();
      expect(tokens).to.have.keys('access_token', 'token_type', 'expires_in', 'refresh_token', 'scope');
      expect(tokens.access_token).to.match(/^emp_at_/);
      expect(tokens.refresh_token).to.match(/^emp_rt_/);
      expect(tokens).to.include({ token_type: 'Bearer', expires_in: 3600, scope: 'read_app_metadata read_products write_app_metadata' });

      const { p, body } = authorizeBody();
      const code = (await authorize(body)).body.data.code;
      const res = await api.post('/v1/app-store/oauth/token', {
        grant_type: 'authorization_code',
        code,
        redirect_uri: body.redirect_uri,
        code_verifier: p.verifier,
        client_id: partner.credentials.oauth_client_id,
        client_secret: partner.credentials.client_secret,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.headers.get('cache-control')).to.equal('no-store');
      expect(res.headers.get('pragma')).to.equal('no-cache');
    });

    it('refuses a wrong verifier, a wrong redirect_uri, an expired code and another client, each with invalid_grant', async () => {
      const attempt = async (mutate: (p: { verifier: string }, body: Record<string, unknown>, code: string) => Promise<Reply>) => {
        const { p, body } = authorizeBody();
        const code = (await authorize(body)).body.data.code as string;
        return mutate(p, body, code);
      };
      const wrongVerifier = await attempt((_p, body, code) =>
        token({ grant_type: 'authorization_code', code, redirect_uri: body.redirect_uri as string, code_verifier: pkce().verifier }),
      );
      expect([wrongVerifier.status, wrongVerifier.body.error]).to.deep.equal([400, 'invalid_grant']);
      expect(wrongVerifier.body.error_description).to.match(/code_verifier/);
      expect(wrongVerifier.body).to.not.have.property('access_token');

      const wrongRedirect = await attempt((p, _body, code) =>
        token({ grant_type: 'authorization_code', code, redirect_uri: 'https://partner.example.com/other', code_verifier: p.verifier }),
      );
      expect([wrongRedirect.status, wrongRedirect.body.error]).to.deep.equal([400, 'invalid_grant']);

      const expired = await attempt(async (p, body, code) => {
        await app.platform.db
          .collection('oauth_codes')
          .updateOne(
            { used_at: null, redirect_uri: body.redirect_uri, code_challenge: body.code_challenge },
            { $set: { expires_at: new Date(Date.now() - 1000) } },
          );
        return token({ grant_type: 'authorization_code', code, redirect_uri: body.redirect_uri as string, code_verifier: p.verifier });
      });
      expect([expired.status, expired.body.error, expired.body.error_description]).to.deep.equal([400, 'invalid_grant', 'The authorization code has expired']);

      const stranger = await givenPublishedApp(api, {});
      const otherClient = await attempt((p, body, code) =>
        token({ grant_type: 'authorization_code', code, redirect_uri: body.redirect_uri as string, code_verifier: p.verifier }, 'basic', stranger.credentials),
      );
      expect([otherClient.status, otherClient.body.error]).to.deep.equal([400, 'invalid_grant']);

      const noVerifier = await attempt((_p, body, code) => token({ grant_type: 'authorization_code', code, redirect_uri: body.redirect_uri as string }));
      expect([noVerifier.status, noVerifier.body.error]).to.deep.equal([400, 'invalid_request']);
    });

    it('revokes every token issued from a code when the code is used a second time', async () => {
      const { p, body } = authorizeBody();
      const code = (await authorize(body)).body.data.code as string;
      const params = { grant_type: 'authorization_code', code, redirect_uri: body.redirect_uri as string, code_verifier: p.verifier };
      const first = await token(params);
      expect(first.status).to.equal(200);
      expect((await api.get('/v1/app/products', { token: first.body.access_token })).status).to.equal(200);
      const replay = await token(params);
      expect([replay.status, replay.body.error]).to.deep.equal([400, 'invalid_grant']);
      const dead = await api.get('/v1/app/products', { token: first.body.access_token });
      expect(dead.status).to.equal(401);
      expect(dead.headers.get('www-authenticate')).to.match(/^Bearer realm="emporium", error="invalid_token"/);
      const refreshed = await token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
      expect([refreshed.status, refreshed.body.error]).to.deep.equal([400, 'invalid_grant']);
    });

    it('authenticates clients as RFC 6749 says: 401 invalid_client with a Basic challenge, one method only', async () => {
      const bad = await token({ grant_type: 'authorization_code', code: 'x' }, 'basic', { ...partner.credentials, client_secret: 'emp_cs_wrong' });
      expect([bad.status, bad.body.error]).to.deep.equal([401, 'invalid_client']);
      expect(bad.headers.get('www-authenticate')).to.equal('Basic realm="emporium"');
      const none = await token({ grant_type: 'authorization_code', code: 'x' }, 'none');
      expect([none.status, none.body.error]).to.deep.equal([401, 'invalid_client']);
      const both = await api.send(
        'POST',
        '/v1/app-store/oauth/token',
        form({ grant_type: 'refresh_token', refresh_token: 'x', client_secret: partner.credentials.client_secret }),
        {
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            authorization: basic(partner.credentials.oauth_client_id, partner.credentials.client_secret),
          },
        },
      );
      expect([both.status, both.body.error]).to.deep.equal([400, 'invalid_request']);
      const unsupported = await token({ grant_type: 'password', username: 'a', password: 'b' });
      expect([unsupported.status, unsupported.body.error]).to.deep.equal([400, 'unsupported_grant_type']);
      const missing = await token({});
      expect([missing.status, missing.body.error]).to.deep.equal([400, 'invalid_request']);
      const repeated = await api.send('POST', '/v1/app-store/oauth/token', 'grant_type=refresh_token&grant_type=refresh_token', {
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: basic(partner.credentials.oauth_client_id, partner.credentials.client_secret),
        },
      });
      expect([repeated.status, repeated.body.error]).to.deep.equal([400, 'invalid_request']);
      const text = await api.send('POST', '/v1/app-store/oauth/token', 'grant_type=x', { headers: { 'content-type': 'text/plain' } });
      expect(text.status).to.equal(415);
    });
  });

  describe('refresh tokens (RFC 9700)', () => {
    it('rotates the refresh token on every use and revokes the whole family when an old one comes back', async () => {
      const { tokens } = await install();
      const second = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
      expect(second.status, JSON.stringify(second.body)).to.equal(200);
      expect(second.body.refresh_token).to.not.equal(tokens.refresh_token);
      const third = await token({ grant_type: 'refresh_token', refresh_token: second.body.refresh_token });
      expect(third.status).to.equal(200);
      // The first refresh token again, long after its rotation (beyond the grace): the family is revoked.
      await app.platform.db
        .collection('oauth_tokens')
        .updateMany(
          { used_at: { $ne: null } },
          { $set: { used_at: new Date(Date.now() - 10 * 60_000), retry_until: new Date(Date.now() - 10 * 60_000 + 30_000) } },
        );
      const replay = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
      expect([replay.status, replay.body.error]).to.deep.equal([400, 'invalid_grant']);
      for (const t of [tokens.access_token, second.body.access_token, third.body.access_token])
        expect((await api.get('/v1/app/products', { token: t })).status).to.equal(401);
      const latest = await token({ grant_type: 'refresh_token', refresh_token: third.body.refresh_token });
      expect([latest.status, latest.body.error]).to.deep.equal([400, 'invalid_grant']);
    });

    it('lets a client whose refresh response was lost retry once within the grace, answering the same rotation', async () => {
      const { tokens } = await install();
      const lost = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
      expect(lost.status).to.equal(200);
      // Kept for the retry, encrypted: neither token of the pair is stored in plaintext.
      const tokensDb = app.platform.db.collection('oauth_tokens');
      const original = await tokensDb.findOne({ token_hash: createHash('sha256').update(tokens.refresh_token).digest('hex') });
      expect(original!.rotation_answer).to.match(/^v1\./);
      for (const t of [lost.body.access_token, lost.body.refresh_token]) expect(await findPlaintext(app.platform.db, t)).to.deep.equal([]);
      const retried = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
      expect(retried.status, JSON.stringify(retried.body)).to.equal(200);
      // The retry is answered the pair the lost response carried, not a new one.
      expect(retried.body).to.deep.include({
        access_token: lost.body.access_token,
        refresh_token: lost.body.refresh_token,
        token_type: 'Bearer',
        scope: lost.body.scope,
      });
      expect(retried.body.expires_in).to.be.within(lost.body.expires_in - 5, lost.body.expires_in);
      expect((await api.get('/v1/app/products', { token: retried.body.access_token })).status).to.equal(200);
      // A second retry, still within the grace and with the pair never used: a replay, and the family goes.
      const again = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
      expect([again.status, again.body.error]).to.deep.equal([400, 'invalid_grant']);
      expect(again.body).to.not.have.property('access_token');
      expect((await api.get('/v1/app/products', { token: lost.body.access_token })).status).to.equal(401);
      expect((await token({ grant_type: 'refresh_token', refresh_token: lost.body.refresh_token })).body.error).to.equal('invalid_grant');
      // Never a chain: every token this family ever had, counted, is one rotation's worth.
      const family = await tokensDb.find({ family_id: original!.family_id }).toArray();
      expect(family.map((t) => t.kind).sort()).to.deep.equal(['access', 'access', 'refresh', 'refresh']);
    });

    it('refuses a retry once the rotated pair was used, or after the grace: a replay', async () => {
      const first = (await install()).tokens;
      const rotated = (await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token })).body;
      expect((await token({ grant_type: 'refresh_token', refresh_token: rotated.refresh_token })).status).to.equal(200);
      const used = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
      expect([used.status, used.body.error]).to.deep.equal([400, 'invalid_grant']);

      const second = (await install()).tokens;
      const pair = (await token({ grant_type: 'refresh_token', refresh_token: second.refresh_token })).body;
      // 31 seconds later (the grace is 30): as the rotation would be stored by then.
      await app.platform.db
        .collection('oauth_tokens')
        .updateMany(
          { used_at: { $ne: null }, revoked_at: null },
          { $set: { used_at: new Date(Date.now() - 31_000), retry_until: new Date(Date.now() - 1000) } },
        );
      const late = await token({ grant_type: 'refresh_token', refresh_token: second.refresh_token });
      expect([late.status, late.body.error]).to.deep.equal([400, 'invalid_grant']);
      expect((await api.get('/v1/app/products', { token: pair.access_token })).status).to.equal(401);

      // The maintenance sweep erases the kept answer once the grace is over; a retry then is a replay too.
      const third = (await install()).tokens;
      const thirdPair = (await token({ grant_type: 'refresh_token', refresh_token: third.refresh_token })).body;
      const kept = { token_hash: createHash('sha256').update(third.refresh_token).digest('hex') };
      expect((await app.platform.db.collection('oauth_tokens').findOne(kept))!.rotation_answer).to.be.a('string');
      await sweep('maintenance.sweep-oauth', { ...app.platform, clock: { now: () => new Date(Date.now() + 31_000) } });
      expect(await app.platform.db.collection('oauth_tokens').findOne(kept)).to.deep.include({ rotation_answer: null, retry_until: null });
      const swept = await token({ grant_type: 'refresh_token', refresh_token: third.refresh_token });
      expect([swept.status, swept.body.error]).to.deep.equal([400, 'invalid_grant']);
      expect((await api.get('/v1/app/products', { token: thirdPair.access_token })).status).to.equal(401);
    });

    it('narrows scopes on request and never widens them', async () => {
      const { tokens } = await install();
      const narrow = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, scope: 'read_products' });
      expect([narrow.status, narrow.body.scope]).to.deep.equal([200, 'read_products']);
      expect((await api.put('/v1/app/installation/metadata', { metadata: { a: 1 } }, { token: narrow.body.access_token })).status).to.equal(403);
      const wide = await token({ grant_type: 'refresh_token', refresh_token: narrow.body.refresh_token, scope: 'read_products read_orders' });
      expect([wide.status, wide.body.error]).to.deep.equal([400, 'invalid_scope']);
    });
  });

  describe('the app API (RFC 6750)', () => {
    it('reads the token store only, with the scope each route needs', async () => {
      const { tokens } = await install();
      const products = await api.get('/v1/app/products', { token: tokens.access_token });
      expect(products.status).to.equal(200);
      expect(products.body.data.map((p: { title: string }) => p.title)).to.deep.equal(['Mine']);
      const one = products.body.data[0].id as string;
      expect((await api.get(`/v1/app/products/${one}`, { token: tokens.access_token })).status).to.equal(200);
      const theirs = (await api.get('/v1/products', other.as)).body.data[0].id as string;
      expect((await api.get(`/v1/app/products/${theirs}`, { token: tokens.access_token })).status).to.equal(404);
      const elsewhere = await api.get('/v1/app/products', { token: tokens.access_token, storeId: other.store.id });
      expect([elsewhere.status, elsewhere.body.error.code]).to.deep.equal([403, 'store_forbidden']);

      const orders = await api.get('/v1/app/orders', { token: tokens.access_token });
      expect([orders.status, orders.body.error.code]).to.deep.equal([403, 'insufficient_scope']);
      expect(orders.headers.get('www-authenticate')).to.equal(
        'Bearer realm="emporium", error="insufficient_scope", error_description="This app\'s access token was not granted the read_orders scope", scope="read_orders"',
      );
      // The admin API takes the same token within its scopes.
      expect((await api.get('/v1/products', { token: tokens.access_token })).status).to.equal(200);
      expect((await api.get('/v1/orders', { token: tokens.access_token })).status).to.equal(403);
    });

    it('answers 401 with a Bearer challenge for no token, an unknown one and a merchant session', async () => {
      const none = await api.get('/v1/app/products');
      expect(none.status).to.equal(401);
      expect(none.headers.get('www-authenticate')).to.equal('Bearer realm="emporium"');
      const unknown = await api.get('/v1/app/products', { token: `emp_at_${randomBytes(32).toString('base64url')}` });
      expect(unknown.status).to.equal(401);
      expect(unknown.headers.get('www-authenticate')).to.match(/error="invalid_token"/);
      const merchant = await api.get('/v1/app/products', shop.as);
      expect(merchant.status).to.equal(401);
    });

    it('keeps metadata per installation: read with any token, changed with write_app_metadata, size-limited', async () => {
      const { tokens } = await install();
      expect((await api.get('/v1/app/installation/metadata', { token: tokens.access_token })).body.data).to.include({ version: 0 });
      const put = await api.put('/v1/app/installation/metadata', { metadata: { plan: 'pro', n: 3 } }, { token: tokens.access_token });
      expect(put.status, JSON.stringify(put.body)).to.equal(200);
      expect(put.body.data).to.deep.include({ metadata: { plan: 'pro', n: 3 }, version: 1 });
      const big = await api.put('/v1/app/installation/metadata', { metadata: { blob: 'x'.repeat(17 * 1024) } }, { token: tokens.access_token });
      expect([big.status, big.body.error.code]).to.deep.equal([413, 'metadata_too_large']);
      const notObject = await api.put('/v1/app/installation/metadata', { metadata: [1, 2] }, { token: tokens.access_token });
      expect(notObject.status).to.equal(400);
      // Keys a document cannot hold are refused, never a 500.
      for (const metadata of [{ $where: 1 }, { 'a.b': 1 }, { n: { $gt: 1 } }, { 'a\u0000b': 1 }]) {
        const res = await api.put('/v1/app/installation/metadata', { metadata }, { token: tokens.access_token });
        expect([res.status, res.body.error.code], JSON.stringify(metadata)).to.deep.equal([400, 'invalid_input']);
      }
      const deep = await api.put(
        '/v1/app/installation/metadata',
        { metadata: JSON.parse('{"a":'.repeat(25) + '1' + '}'.repeat(25)) },
        { token: tokens.access_token },
      );
      expect(deep.status).to.equal(400);
      // Nor values the database cannot hold (the fuzzer's finds: both were a 500): an infinite number, a list in a list.
      for (const [text, path] of [
        ['{"metadata":{"valueOf":1e999}}', 'body.metadata.valueOf: must be a finite number'],
        ['{"metadata":{"a":{"b":[1,[2]]}}}', 'body.metadata.a.b.1: must not be a list inside a list'],
      ]) {
        const res = await api.send('PUT', '/v1/app/installation/metadata', text, { token: tokens.access_token });
        expect([res.status, res.body.error.code], text).to.deep.equal([400, 'invalid_input']);
        expect(res.body.error.details.join('\n'), text).to.include(path);
      }
      expect((await api.get('/v1/app/installation/metadata', { token: tokens.access_token })).body.data.metadata).to.deep.equal({ plan: 'pro', n: 3 });
      // Another store's installation of the same app has its own metadata.
      const theirs = await install({}, other);
      expect((await api.get('/v1/app/installation/metadata', { token: theirs.tokens.access_token })).body.data.metadata).to.deep.equal({});
    });
  });

  describe('re-authorize and uninstall', () => {
    it('updates the scopes of an active installation (app.scopes_updated) and applies a narrower grant to live tokens at once', async () => {
      const { tokens, granted } = await install({ scopes: ['read_products', 'read_orders'] });
      expect((await api.get('/v1/app/orders', { token: tokens.access_token })).status).to.equal(200);
      const again = await authorize(authorizeBody({ scopes: ['read_products'] }).body);
      expect(again.body.data.installation.id).to.equal(granted.installation.id);
      expect((await api.get('/v1/app/orders', { token: tokens.access_token })).status).to.equal(403);
      expect((await api.get('/v1/app/products', { token: tokens.access_token })).status).to.equal(200);
      const events = await app.platform.db
        .collection('events')
        .find({ type: 'app.scopes_updated', 'payload.installation.id': granted.installation.id })
        .toArray();
      expect(events).to.have.length(1);
      expect(events[0]!.payload.previous_scopes).to.deep.equal(['read_orders', 'read_products']);
      expect(events[0]!.payload.installation.scopes).to.deep.equal(['read_products']);
    });

    it('kills every token at once on uninstall; a re-install is a fresh grant that never revives them', async () => {
      const { tokens, granted } = await install();
      const id = granted.installation.id as string;
      const lifecycle = (type: string) => app.platform.db.collection('events').countDocuments({ type, 'payload.installation.id': id });
      const [installedBefore, uninstalledBefore] = [await lifecycle('app.installed'), await lifecycle('app.uninstalled')];
      const removed = await api.delete(`/v1/app-store/installations/${id}`, shop.as);
      expect(removed.status, JSON.stringify(removed.body)).to.equal(200);
      expect(removed.body.data.status).to.equal('uninstalled');
      expect((await api.get('/v1/app/products', { token: tokens.access_token })).status).to.equal(401);
      expect((await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).body.error).to.equal('invalid_grant');
      expect((await api.delete(`/v1/app-store/installations/${id}`, shop.as)).status).to.equal(404);
      expect(await lifecycle('app.uninstalled')).to.equal(uninstalledBefore + 1);

      const again = await install();
      expect(again.granted.installation.id).to.equal(id);
      expect((await api.get('/v1/app/products', { token: again.tokens.access_token })).status).to.equal(200);
      expect((await api.get('/v1/app/products', { token: tokens.access_token })).status).to.equal(401);
      expect(await lifecycle('app.installed')).to.equal(installedBefore + 1);
    });

    it('keeps installations to their store: another merchant sees and removes nothing', async () => {
      const { granted } = await install();
      const id = granted.installation.id as string;
      expect((await api.get(`/v1/app-store/installations/${id}`, other.as)).status).to.equal(404);
      expect((await api.delete(`/v1/app-store/installations/${id}`, other.as)).status).to.equal(404);
      expect((await api.get(`/v1/app-store/installations/${id}`, { token: other.merchant.token, storeId: shop.store.id })).status).to.equal(403);
      const ids = async (as: GivenMerchantWithStore) =>
        (await api.get('/v1/app-store/installations?status=active', as.as)).body.data.map((i: { id: string }) => i.id);
      expect(await ids(other)).to.not.include(id);
      expect(await ids(shop)).to.deep.equal([id]);
    });
  });

  describe('the authorization endpoint by redirect (RFC 6749 4.1)', () => {
    it('redirects to the client with code and state, and errors after the client is known go there too', async () => {
      const p = pkce();
      const q = new URLSearchParams({
        client_id: partner.credentials.oauth_client_id,
        redirect_uri: redirectUri(),
        response_type: 'code',
        scope: 'read_products',
        state: 'abc',
        code_challenge: p.challenge,
        code_challenge_method: 'S256',
        store_id: shop.store.id,
        webhook_url: 'https://partner.example.com/webhooks',
      });
      const res = await fetch(`${app.url}/v1/app-store/oauth/authorize?${q}`, {
        headers: { authorization: `Bearer ${shop.merchant.token}` },
        redirect: 'manual',
      });
      expect(res.status).to.equal(302);
      const back = new URL(res.headers.get('location')!);
      expect(back.searchParams.get('state')).to.equal('abc');
      const code = back.searchParams.get('code')!;
      const exchanged = await token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri(), code_verifier: p.verifier });
      expect(exchanged.status).to.equal(200);

      q.set('code_challenge_method', 'plain');
      const refused = await fetch(`${app.url}/v1/app-store/oauth/authorize?${q}`, {
        headers: { authorization: `Bearer ${shop.merchant.token}` },
        redirect: 'manual',
      });
      expect(refused.status).to.equal(302);
      const error = new URL(refused.headers.get('location')!);
      expect([error.searchParams.get('error'), error.searchParams.get('state')]).to.deep.equal(['invalid_request', 'abc']);
      q.set('redirect_uri', 'https://evil.example.com/cb');
      const unknownRedirect = await fetch(`${app.url}/v1/app-store/oauth/authorize?${q}`, {
        headers: { authorization: `Bearer ${shop.merchant.token}` },
        redirect: 'manual',
      });
      expect(unknownRedirect.status).to.equal(400);
    });
  });

  it('publishes RFC 8414 metadata', async () => {
    const res = await api.get('/.well-known/oauth-authorization-server');
    expect(res.status).to.equal(200);
    expect(res.body).to.include({
      issuer: app.url,
      token_endpoint: `${app.url}/v1/app-store/oauth/token`,
      authorization_endpoint: `${app.url}/v1/app-store/oauth/authorize`,
    });
    expect(res.body.code_challenge_methods_supported).to.deep.equal(['S256']);
    expect(res.body.token_endpoint_auth_methods_supported).to.deep.equal(['client_secret_basic', 'client_secret_post']);
    expect(res.body.grant_types_supported).to.include.members(['authorization_code', 'refresh_token']);
    // Its human-readable documentation resolves: the docs/ pages, as Markdown; nothing else of the disk.
    const docs = await fetch(res.body.service_documentation);
    expect(docs.status).to.equal(200);
    expect(docs.headers.get('content-type')).to.equal('text/markdown; charset=utf-8');
    expect(await docs.text()).to.match(/^# /);
    for (const path of ['/docs/nope.md', '/docs/..%2Fpackage.json', '/docs/%2E%2E%2FREADME.md', '/docs/oauth.md.bak', '/docs/'])
      expect((await fetch(`${app.url}${path}`)).status, path).to.equal(404);
  });

  it('rate limits the token endpoint per client', async () => {
    const limited = await startTestApp('app_oauth_limit', { OAUTH_RATE_LIMIT: '3', OPERATOR_EMAILS: OPERATOR });
    try {
      const lapi = client(limited.url);
      const p = await givenPublishedApp(lapi, {});
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await lapi.send('POST', '/v1/app-store/oauth/token', form({ grant_type: 'refresh_token', refresh_token: 'emp_rt_x' }), {
          headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(p.credentials.oauth_client_id, p.credentials.client_secret) },
        });
        statuses.push(res.status);
        if (res.status === 429) expect([res.body.error, Number(res.headers.get('retry-after')) > 0]).to.deep.equal(['temporarily_unavailable', true]);
      }
      expect(statuses).to.deep.equal([400, 400, 400, 429, 429]);
    } finally {
      await limited.close();
    }
  });

  it('stores no code, token or client secret in plaintext, and logs none', async () => {
    await install();
    expect(secretsSeen.length).to.be.greaterThan(4);
    for (const secret of secretsSeen) {
      expect(await findPlaintext(app.platform.db, secret), secret.slice(0, 10)).to.deep.equal([]);
      expect(app.logLines.filter((l) => l.includes(secret))).to.deep.equal([]);
    }
  });
});
