import { expect } from 'chai';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { ObjectId } from 'mongodb';
import { checkEmbedUrl, resolveCapabilities, resolveEmbedUrl } from '../../src/apps/bridge/embedding.js';
import { installations } from '../../src/apps/installations/models.js';
import type { Config } from '../../src/config.js';
import { useTestApp } from '../helpers/app.js';
import { givenDeveloper, givenPublishedApp, givenSubmittedApp, installApp, validManifest, type GivenApp } from '../helpers/apps.js';
import { givenMerchant, givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';

const OPERATOR = 'op-embed@example.com';
const ALL_ON_BUT_REDIRECT = { 'api.fetch': true, toast: true, resize: true, 'navigation.redirect': false };

/** Bridge capabilities and the admin embed (spec 2.4; docs/apps.md, Embedded apps). */
describe('Embedded apps: bridge capabilities and the admin embed URL', () => {
  const { app, api } = useTestApp('app_bridge_caps', { OPERATOR_EMAILS: OPERATOR });
  let operatorToken: string;
  let shop: GivenMerchantWithStore;
  let other: GivenMerchantWithStore;

  type Installed = { partner: GivenApp; token: string; installationId: string };

  /** Install the app in a store with these scopes, through authorize and the token endpoint. */
  const install = async (partner: GivenApp, into: GivenMerchantWithStore, scopes = ['read_products']): Promise<Installed> => ({
    partner,
    ...(await installApp(api, partner, into, { scopes, webhookUrl: 'https://partner.example.com/h' })),
  });

  /** The app with every capability declared, an admin path and three extensions. */
  const FULL = {
    bridge: { capabilities: ['api.fetch', 'toast', 'resize', 'navigation.redirect'] },
    embedded: { enabled: true, admin_path: '/admin?tab=home' },
    extensions: [
      {
        kind: 'admin_ui',
        handle: 'product-panel',
        name: 'Product panel',
        target: 'admin.product.details',
        config: { url: 'https://panel.example.com/embed', bridge_capabilities: ['api.fetch', 'navigation.redirect'] },
      },
      { kind: 'admin_ui', handle: 'order-panel', name: 'Order panel', target: 'admin.order.details' },
      { kind: 'theme_app_block', handle: 'badge', name: 'Badge', target: 'section' },
    ],
  };

  let plain: Installed;
  let full: Installed;
  let narrow: Installed;

  const capabilities = (t: string, query = '') => api.get(`/v1/app-store/bridge/capabilities${query}`, { token: t });
  const embedding = (id: string, body: Record<string, unknown>, as = shop.as) => api.patch(`/v1/app-store/installations/${id}/embedding`, body, as);
  const embed = (id: string, query = '', as = shop.as) => api.get(`/v1/app-store/installations/${id}/embed${query}`, as);
  const stored = (id: string) => installations(app.platform.db).findOne({ _id: new ObjectId(id) });

  before(async () => {
    operatorToken = (await givenMerchant(api, { email: OPERATOR })).token;
    shop = await givenMerchantWithStore(api);
    other = await givenMerchantWithStore(api);
    plain = await install(await givenPublishedApp(api, operatorToken), shop);
    full = await install(await givenPublishedApp(api, operatorToken, FULL), shop);
    narrow = await install(await givenPublishedApp(api, operatorToken, { bridge: { capabilities: ['toast'] }, embedded: { enabled: false } }), shop);
  });

  describe('GET /v1/app-store/bridge/capabilities', () => {
    it('answers the defaults for an app that declares the default capabilities: api.fetch, toast, resize on, navigation.redirect off', async () => {
      const res = await capabilities(plain.token);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data).to.deep.equal({
        capabilities: ALL_ON_BUT_REDIRECT,
        sources: { 'api.fetch': 'default', toast: 'default', resize: 'default', 'navigation.redirect': 'admin_embed' },
        extension: null,
      });
    });

    it('turns off what the app does not declare (admin embed config), and the bridge refuses a fetch without api.fetch', async () => {
      const res = await capabilities(narrow.token);
      expect(res.body.data.capabilities).to.deep.equal({ 'api.fetch': false, toast: true, resize: false, 'navigation.redirect': false });
      expect(res.body.data.sources).to.deep.equal({
        'api.fetch': 'admin_embed',
        toast: 'default',
        resize: 'admin_embed',
        'navigation.redirect': 'admin_embed',
      });
      const fetched = await api.post('/v1/app-store/bridge/fetch', { method: 'GET', path: '/shop', store_id: shop.store.id }, { token: narrow.token });
      expect([fetched.status, fetched.body.error.code]).to.deep.equal([403, 'capability_disabled']);
      const allowed = await api.post('/v1/app-store/bridge/fetch', { method: 'GET', path: '/shop', store_id: shop.store.id }, { token: plain.token });
      expect(allowed.status).to.equal(200);
    });

    it('keeps navigation.redirect off when it is declared but not enabled by the installation', async () => {
      const res = await capabilities(full.token);
      expect(res.body.data.capabilities).to.deep.equal(ALL_ON_BUT_REDIRECT);
      expect(res.body.data.sources['navigation.redirect']).to.equal('default');
    });

    it("narrows by the extension's config for an extension embed (?extension=<handle>)", async () => {
      const res = await capabilities(full.token, '?extension=product-panel');
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data).to.deep.equal({
        capabilities: { 'api.fetch': true, toast: false, resize: false, 'navigation.redirect': false },
        sources: { 'api.fetch': 'default', toast: 'extension', resize: 'extension', 'navigation.redirect': 'default' },
        extension: 'product-panel',
      });
      // An extension without bridge_capabilities in its config narrows nothing.
      expect((await capabilities(full.token, '?extension=order-panel')).body.data.capabilities).to.deep.equal(ALL_ON_BUT_REDIRECT);
    });

    it("applies the installation's settings last: they switch navigation.redirect on, turn others off, and win over the extension", async () => {
      const set = await embedding(full.installationId, { bridge_capabilities: { 'navigation.redirect': true, 'api.fetch': false } });
      expect(set.status, JSON.stringify(set.body)).to.equal(200);
      expect(set.body.data.bridge_capabilities).to.deep.equal({ 'api.fetch': false, 'navigation.redirect': true });
      const main = await capabilities(full.token);
      expect(main.body.data.capabilities).to.deep.equal({ 'api.fetch': false, toast: true, resize: true, 'navigation.redirect': true });
      expect(main.body.data.sources).to.deep.include({ 'api.fetch': 'installation', 'navigation.redirect': 'installation' });
      const fetched = await api.post('/v1/app-store/bridge/fetch', { method: 'GET', path: '/shop', store_id: shop.store.id }, { token: full.token });
      expect([fetched.status, fetched.body.error.code]).to.deep.equal([403, 'capability_disabled']);
      const panel = await capabilities(full.token, '?extension=product-panel');
      expect(panel.body.data.capabilities).to.deep.equal({ 'api.fetch': false, toast: false, resize: false, 'navigation.redirect': true });

      // The settings are replaced as a whole: toast on now, navigation.redirect back to off.
      await embedding(full.installationId, { bridge_capabilities: { toast: true } });
      const again = await capabilities(full.token, '?extension=product-panel');
      expect(again.body.data.capabilities).to.deep.equal({ 'api.fetch': true, toast: true, resize: false, 'navigation.redirect': false });
      expect(again.body.data.sources).to.deep.include({ toast: 'installation', resize: 'extension' });
      expect((await embedding(full.installationId, { bridge_capabilities: null })).body.data.bridge_capabilities).to.deep.equal({});
    });

    it('refuses an extension handle that is not an admin_ui extension of the calling app, and any other query', async () => {
      for (const handle of ['nope', 'badge']) {
        const res = await capabilities(full.token, `?extension=${handle}`);
        expect([res.status, res.body.error.code], handle).to.deep.equal([404, 'extension_not_found']);
      }
      // Another app's token never sees this app's extension.
      expect((await capabilities(plain.token, '?extension=product-panel')).status).to.equal(404);
      for (const query of ['?extension=Product_Panel', '?extension=', '?capability=toast', '?extension=a&extension=b']) {
        const res = await capabilities(full.token, query);
        expect(res.status, query).to.equal(400);
        expect(res.body.error.code, query).to.equal('invalid_input');
      }
    });

    it('is for app tokens only: no token and a merchant session get 401', async () => {
      expect((await api.get('/v1/app-store/bridge/capabilities')).status).to.equal(401);
      expect((await api.get('/v1/app-store/bridge/capabilities', shop.as)).status).to.equal(401);
    });
  });

  describe('PATCH /v1/app-store/installations/:id/embedding', () => {
    it('refuses an unknown capability, a non-boolean, navigation.redirect for an app that does not declare it, and a bad embed_url, changing nothing', async () => {
      const before = await stored(plain.installationId);
      const bad: [Record<string, unknown>, string][] = [
        [{ bridge_capabilities: { camera: true } }, 'invalid_input'],
        [{ bridge_capabilities: { toast: 'yes' } }, 'invalid_input'],
        [{ bridge_capabilities: ['toast'] }, 'invalid_input'],
        [{ bridge_capabilities: { 'navigation.redirect': true } }, 'invalid_input'],
        [{ embed_url: 'http://embed.example.com/' }, 'invalid_input'],
        [{ embed_url: 'https://user:pw@embed.example.com/' }, 'invalid_input'],
        [{ embed_url: 'javascript:alert(1)' }, 'invalid_input'],
        [{ embed_url: '' }, 'invalid_input'],
        [{ bridge_capabilities: { toast: false }, embed_url: 'ftp://x.example.com' }, 'invalid_input'],
        [{ other: 1 }, 'invalid_input'],
      ];
      for (const [body, code] of bad) {
        const res = await embedding(plain.installationId, body);
        expect([res.status, res.body.error?.code], JSON.stringify(body)).to.deep.equal([400, code]);
      }
      const redirect = await embedding(plain.installationId, { bridge_capabilities: { 'navigation.redirect': true } });
      expect(redirect.body.error.details).to.deep.equal([
        'body.bridge_capabilities.navigation.redirect: the app does not declare this capability (its bridge.capabilities: api.fetch, resize, toast)',
      ]);
      expect(await stored(plain.installationId)).to.deep.equal(before);
      // Off is always accepted (a capability the app does not use stays off anyway).
      const off = await embedding(plain.installationId, { bridge_capabilities: { 'navigation.redirect': false } });
      expect(off.status).to.equal(200);
      await embedding(plain.installationId, { bridge_capabilities: null });
    });

    it('accepts http://localhost in development and test, and answers the settings on GET', async () => {
      const res = await embedding(plain.installationId, { embed_url: 'http://localhost:8080/embed' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data).to.include({ installation_id: plain.installationId, embed_url: 'http://localhost:8080/embed' });
      const read = await api.get(`/v1/app-store/installations/${plain.installationId}/embedding`, shop.as);
      expect(read.body.data).to.deep.equal(res.body.data);
      await embedding(plain.installationId, { embed_url: null });
    });
  });

  describe('GET /v1/app-store/installations/:id/embed', () => {
    const urlOf = (res: { body: { data: { url: string } } }) => new URL(res.body.data.url);

    it('resolves app_url + embedded.admin_path, with the store parameters, a session token beside it and the capabilities', async () => {
      const res = await embed(full.installationId);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.headers.get('cache-control')).to.equal('no-store');
      const url = urlOf(res);
      expect(`${url.origin}${url.pathname}`).to.equal(`${new URL(full.partner.app.published.app_url).origin}/app/admin`);
      expect(Object.fromEntries(url.searchParams)).to.deep.equal({ tab: 'home', embedded: '1', store_id: shop.store.id, store: shop.store.subdomain });
      expect(res.body.data).to.include({
        source: 'app_url',
        extension: null,
        token_type: 'urn:ietf:params:oauth:token-type:id_token',
        expires_in: app.config.apps.sessionTokenTtlSeconds,
      });
      expect(res.body.data.capabilities).to.deep.equal(ALL_ON_BUT_REDIRECT);
      expect(res.body.data.capability_sources).to.have.keys('api.fetch', 'toast', 'resize', 'navigation.redirect');
      expect(res.body.data.url).to.not.include(res.body.data.session_token);
    });

    it('hands out a session token that verifies with the platform JWKS, for this merchant, store, installation and app', async () => {
      const res = await embed(full.installationId);
      const jwks = createRemoteJWKSet(new URL(`${app.url}/.well-known/jwks.json`));
      const { payload, protectedHeader } = await jwtVerify(res.body.data.session_token, jwks, {
        issuer: app.url,
        audience: full.partner.credentials.oauth_client_id,
        algorithms: ['ES256'],
      });
      expect(protectedHeader.typ).to.equal('emp-session+jwt');
      expect(payload).to.deep.include({ sub: shop.merchant.id, store_id: shop.store.id, installation_id: full.installationId });
    });

    it('resolves an extension embed from its config url, else from its target', async () => {
      const configured = await embed(full.installationId, '?extension=product-panel');
      expect(configured.status, JSON.stringify(configured.body)).to.equal(200);
      expect(configured.body.data).to.deep.include({ source: 'extension_config', extension: { handle: 'product-panel', target: 'admin.product.details' } });
      expect(configured.body.data.url).to.equal(
        `https://panel.example.com/embed?embedded=1&store_id=${shop.store.id}&store=${shop.store.subdomain}&extension=product-panel&target=admin.product.details`,
      );
      expect(configured.body.data.capabilities).to.deep.equal({ 'api.fetch': true, toast: false, resize: false, 'navigation.redirect': false });
      const targeted = await embed(full.installationId, '?extension=order-panel');
      expect(targeted.body.data.source).to.equal('extension_target');
      const url = urlOf(targeted);
      expect(`${url.origin}${url.pathname}`).to.equal(`${new URL(full.partner.app.published.app_url).origin}/app/order/details`);
      expect(url.searchParams.get('extension')).to.equal('order-panel');
    });

    it("puts the installation's embed_url (install config) first, for the app's embed and its extensions", async () => {
      await embedding(full.installationId, { embed_url: 'https://eu.partner.example.com/embed' });
      for (const query of ['', '?extension=product-panel', '?extension=order-panel']) {
        const res = await embed(full.installationId, query);
        expect(res.body.data.source, query).to.equal('install_config');
        expect(`${urlOf(res).origin}${urlOf(res).pathname}`).to.equal('https://eu.partner.example.com/embed');
      }
      await embedding(full.installationId, { embed_url: null });
      expect((await embed(full.installationId)).body.data.source).to.equal('app_url');
    });

    it('refuses (409, no URL) an embed URL that breaks the rules, and an app that does not embed', async () => {
      await installations(app.platform.db).updateOne({ _id: new ObjectId(plain.installationId) }, { $set: { embed: { url: 'http://intranet.example.com/' } } });
      const refused = await embed(plain.installationId);
      expect([refused.status, refused.body.error.code]).to.deep.equal([409, 'embed_url_refused']);
      expect(refused.body.error.details).to.deep.equal(['install_config: http://intranet.example.com/']);
      await installations(app.platform.db).updateOne({ _id: new ObjectId(plain.installationId) }, { $set: { embed: null } });

      const notEmbedded = await embed(narrow.installationId);
      expect([notEmbedded.status, notEmbedded.body.error.code]).to.deep.equal([409, 'app_not_embedded']);
      for (const query of ['?extension=badge', '?extension=nope']) expect((await embed(full.installationId, query)).status, query).to.equal(404);
      expect((await embed(full.installationId, '?extension=UPPER')).status).to.equal(400);
    });

    it("gives another merchant nothing: another store's credentials are 404, a store not theirs 403; app tokens 401", async () => {
      const before = await stored(full.installationId);
      const theirs = { token: other.merchant.token, storeId: other.store.id };
      expect((await embed(full.installationId, '', theirs)).status).to.equal(404);
      expect((await api.get(`/v1/app-store/installations/${full.installationId}/embedding`, theirs)).status).to.equal(404);
      expect((await embedding(full.installationId, { embed_url: 'https://evil.example.com/' }, theirs)).status).to.equal(404);
      const notTheirs = { token: other.merchant.token, storeId: shop.store.id };
      expect((await embed(full.installationId, '', notTheirs)).status).to.equal(403);
      expect((await embedding(full.installationId, { bridge_capabilities: { toast: false } }, notTheirs)).status).to.equal(403);
      expect((await api.get(`/v1/app-store/installations/${full.installationId}/embed`, { token: full.token })).status).to.equal(401);
      expect((await api.patch(`/v1/app-store/installations/${full.installationId}/embedding`, {}, { token: full.token })).status).to.equal(401);
      expect((await embed('not-an-id')).status).to.equal(404);
      expect(await stored(full.installationId)).to.deep.equal(before);
    });

    it("is not found once the app is uninstalled; a re-install keeps the merchant's settings", async () => {
      const partner = await givenPublishedApp(api, operatorToken);
      const gone = await install(partner, shop);
      expect((await embedding(gone.installationId, { embed_url: 'https://kept.example.com/', bridge_capabilities: { toast: false } })).status).to.equal(200);
      expect((await api.delete(`/v1/app-store/installations/${gone.installationId}`, shop.as)).status).to.equal(200);
      expect((await embed(gone.installationId)).status).to.equal(404);
      expect((await embedding(gone.installationId, { embed_url: null })).status).to.equal(404);
      expect((await api.get(`/v1/app-store/installations/${gone.installationId}/embedding`, shop.as)).status).to.equal(404);
      const back = await install(partner, shop);
      expect(back.installationId).to.equal(gone.installationId);
      const settings = await api.get(`/v1/app-store/installations/${back.installationId}/embedding`, shop.as);
      expect(settings.body.data).to.deep.include({ embed_url: 'https://kept.example.com/', bridge_capabilities: { toast: false } });
      expect((await capabilities(back.token)).body.data.capabilities.toast).to.equal(false);
    });
  });

  describe('the rules, without the server', () => {
    const staging = () => ({ ...app.config, env: 'staging' }) as Config;
    const development = () => ({ ...app.config, env: 'development' }) as Config;
    const manifest = { app_url: 'https://localhost:3000/app', embedded: { enabled: true, admin_path: '/' } };

    it('allows localhost only in development (and test): staging refuses every loopback host, https or not', () => {
      for (const url of [
        'https://localhost/embed',
        'https://localhost:3000/',
        'https://127.0.0.1/',
        'https://[::1]/',
        'https://app.localhost/',
        'https://LOCALHOST./',
      ]) {
        const verdict = checkEmbedUrl(staging(), url);
        expect(verdict.ok, url).to.equal(false);
      }
      expect(checkEmbedUrl(staging(), 'http://localhost:3000/')).to.deep.equal({ ok: false, reason: 'must use https when APP_ENV is staging' });
      expect(checkEmbedUrl(staging(), 'https://localhost/')).to.deep.include({
        ok: false,
        reason: 'must not point at localhost: localhost is allowed only in development (APP_ENV is staging)',
      });
      expect(checkEmbedUrl(staging(), 'https://embed.example.com/').ok).to.equal(true);
      expect(checkEmbedUrl(development(), 'http://localhost:3000/').ok).to.equal(true);
      expect(checkEmbedUrl(development(), 'http://embed.example.com/').ok).to.equal(false);
    });

    it('refuses a resolved localhost URL outside development instead of falling back to a later source', () => {
      const resolved = resolveEmbedUrl(staging(), { manifest, extension: null, installEmbedUrl: null });
      expect(resolved).to.deep.include({ ok: false, source: 'app_url', candidate: 'https://localhost:3000/app/' });
      const ext = { target: 'admin.product.details', config: { url: 'https://localhost:4000/x' } };
      expect(
        resolveEmbedUrl(staging(), { manifest: { ...manifest, app_url: 'https://app.example.com' }, extension: ext, installEmbedUrl: null }),
      ).to.deep.include({ ok: false, source: 'extension_config' });
      const local = resolveEmbedUrl(development(), { manifest, extension: null, installEmbedUrl: null });
      expect(local.ok && local.url.href).to.equal('https://localhost:3000/app/');
    });

    it('resolves in the documented order: install config, extension config, extension target, app_url', () => {
      const m = { app_url: 'https://app.example.com/base/', embedded: { enabled: true, admin_path: '/home' } };
      const ext = { target: 'admin.customer.index', config: { url: 'https://ext.example.com/' } };
      const href = (r: ReturnType<typeof resolveEmbedUrl>) => (r.ok ? [r.source, r.url.href] : [r.source, r.reason]);
      expect(href(resolveEmbedUrl(app.config, { manifest: m, extension: ext, installEmbedUrl: 'https://install.example.com/' }))).to.deep.equal([
        'install_config',
        'https://install.example.com/',
      ]);
      expect(href(resolveEmbedUrl(app.config, { manifest: m, extension: ext, installEmbedUrl: null }))).to.deep.equal([
        'extension_config',
        'https://ext.example.com/',
      ]);
      expect(href(resolveEmbedUrl(app.config, { manifest: m, extension: { ...ext, config: {} }, installEmbedUrl: null }))).to.deep.equal([
        'extension_target',
        'https://app.example.com/base/customer/index',
      ]);
      expect(href(resolveEmbedUrl(app.config, { manifest: m, extension: null, installEmbedUrl: null }))).to.deep.equal([
        'app_url',
        'https://app.example.com/base/home',
      ]);
    });

    it('ignores stored settings that no longer fit: capabilities the app stopped declaring, a config that is not a list', () => {
      const resolved = resolveCapabilities({
        declared: ['toast'],
        extension: { config: { bridge_capabilities: 'toast' } },
        installation: [
          { capability: 'navigation.redirect', enabled: true },
          { capability: 'camera' as 'toast', enabled: true },
        ],
      });
      expect(resolved.capabilities).to.deep.equal({ 'api.fetch': false, toast: true, resize: false, 'navigation.redirect': false });
    });
  });

  describe('the manifest: admin_ui extension config', () => {
    it('refuses an extension url that breaks the URL rules and unknown bridge capabilities', async () => {
      const res = await api.post(
        '/v1/app-store/developers/apps/manifest/validate',
        {
          manifest: validManifest({
            extensions: [
              {
                kind: 'admin_ui',
                handle: 'a',
                name: 'A',
                target: 'admin.product.details',
                config: { url: 'http://evil.example.com/', bridge_capabilities: ['toast', 'camera'] },
              },
              { kind: 'admin_ui', handle: 'b', name: 'B', target: 'admin.order.details', config: { url: 7, bridge_capabilities: 'toast' } },
            ],
          }),
        },
        { token: (await givenDeveloper(api)).merchant.token },
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data.ok).to.equal(false);
      expect(res.body.data.issues).to.deep.equal([
        'extensions.0.config.url: must use https; plain http is allowed only to localhost, 127.0.0.0/8 or [::1]',
        'extensions.0.config.bridge_capabilities.1: must be one of api.fetch, toast, resize, navigation.redirect',
        'extensions.1.config.url: must be a URL string',
        'extensions.1.config.bridge_capabilities: must be a list of bridge capabilities (api.fetch, toast, resize, navigation.redirect)',
      ]);
      // Submitted as is, it is valid.
      await givenSubmittedApp(api, FULL);
    });
  });
});
