import { expect } from 'chai';
import { AdminBrowser, signedInAdmin } from '../helpers/admin.js';
import { useTestApp } from '../helpers/app.js';
import { givenPublishedApp, installApp, type GivenApp } from '../helpers/apps.js';
import { givenProduct } from '../helpers/catalog.js';
import { givenMerchant, givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { givenOrder } from '../helpers/orders.js';
import type { ShopResponse } from '../helpers/shop.js';

const OPERATOR = 'op-admin-embed@example.com';
const SANDBOX = 'allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox';

/** An app that embeds, declares every capability, and has an admin_ui extension on a product's page. */
const EMBEDDING = {
  name: 'Stock <Helper>',
  bridge: { capabilities: ['api.fetch', 'toast', 'resize', 'navigation.redirect'] },
  extensions: [
    { kind: 'admin_ui', handle: 'stock-panel', name: 'Stock panel', target: 'admin.product.details' },
    { kind: 'admin_ui', handle: 'order-notes', name: 'Order <notes>', target: 'admin.order.details', config: { bridge_capabilities: ['api.fetch'] } },
  ],
};

/**
 * The embedded app host over HTTP (docs/admin.md, The embedded app host; docs/app-bridge.md):
 * the host page for the store's owner only, its frame (the embed URL, no token, the sandbox, the
 * CSP naming the embed origin), the refusals without a frame, and every refusal of the bridge
 * endpoint the host script asks: 4xx, never anything else.
 */
describe('Admin: the embedded app host', () => {
  const { app, api } = useTestApp('admin_apps_embed', { OPERATOR_EMAILS: OPERATOR });
  let shop: GivenMerchantWithStore;
  let other: GivenMerchantWithStore;
  let browser: AdminBrowser;
  let partner: GivenApp;
  let installationId: string;
  let operatorToken: string;

  const hostPath = (handle = partner.app.handle as string, store = shop.store.id) => `/admin/stores/${store}/apps/${handle}`;
  const csrfOfHost = (page: ShopResponse) => /data-csrf="([^"]+)"/.exec(page.html)?.[1] ?? '';
  let csrf: string;
  /** One action through the bridge endpoint, as the host script sends it. */
  const bridge = async (fields: Record<string, string>, o: { handle?: string; store?: string; headers?: Record<string, string>; as?: AdminBrowser } = {}) => {
    const res = await (o.as ?? browser).post(`${hostPath(o.handle, o.store)}/bridge`, { csrf_token: csrf, ...fields }, o.headers);
    return { status: res.status, body: res.headers['content-type']?.toString().startsWith('application/json') ? JSON.parse(res.html) : null, res };
  };
  const embedding = (body: Record<string, unknown>) => api.patch(`/v1/app-store/installations/${installationId}/embedding`, body, shop.as);

  before(async () => {
    operatorToken = (await givenMerchant(api, { email: OPERATOR })).token;
    shop = await givenMerchantWithStore(api);
    other = await givenMerchantWithStore(api);
    partner = await givenPublishedApp(api, operatorToken, EMBEDDING);
    ({ installationId } = await installApp(api, partner, shop, { scopes: ['read_products'] }));
    browser = await signedInAdmin(app, shop.merchant);
    await givenProduct(api, shop.as, { title: 'Enamel Mug' });
    csrf = csrfOfHost(await browser.get(hostPath()));
  });

  describe('GET /admin/stores/:id/apps/:handle', () => {
    it("frames the app at its embed URL with the store's id and subdomain and no token, sandboxed, under a CSP that names only its origin", async () => {
      const page = await browser.get(hostPath());
      expect(page.status).to.equal(200);
      expect(page.html).to.contain('<title>Stock &lt;Helper&gt; · ').and.contain('<h1>Stock &lt;Helper&gt;</h1>');
      const src = /<iframe[^>]* src="([^"]+)"/.exec(page.html)![1]!.replaceAll('&amp;', '&');
      const url = new URL(src);
      expect(url.origin).to.equal(`https://${partner.app.handle}.example.com`);
      expect(Object.fromEntries(url.searchParams)).to.deep.equal({ embedded: '1', store_id: shop.store.id, store: shop.store.subdomain });
      expect(page.html)
        .to.not.match(/eyJ[A-Za-z0-9_-]+\./)
        .and.not.contain('session_token');
      expect(page.html).to.contain(`sandbox="${SANDBOX}"`).and.contain('allow=""').and.contain('referrerpolicy="strict-origin"');
      expect(page.html).to.not.contain('allow-top-navigation');
      expect(page.html).to.contain(`data-origin="${url.origin}"`).and.contain('/assets/scripts/app-bridge-host.js?v=');
      const csp = String(page.headers['content-security-policy']);
      expect(csp).to.contain(`frame-src ${url.origin};`).and.contain("script-src 'self';").and.contain("frame-ancestors 'none'");
      // Without JavaScript it says so plainly, with the way back.
      expect(page.html).to.match(/<noscript>[\s\S]*needs JavaScript[\s\S]*href="\/admin\/stores\/[0-9a-f]+\/apps"[\s\S]*<\/noscript>/);
    });

    it("is a 404 page for another merchant's store, an app the store has not installed and a handle that is no app's; an Authorization header is refused", async () => {
      const foreign = await browser.get(hostPath(partner.app.handle, other.store.id));
      expect(foreign.status).to.equal(404);
      expect(foreign.html).to.not.contain('<iframe');
      for (const handle of ['no-such-app', 'Stock', '%2e%2e', 'constructor']) {
        const missing = await browser.get(hostPath(handle));
        expect(missing.status, handle).to.equal(404);
      }
      const theirs = await signedInAdmin(app, other.merchant);
      expect((await theirs.get(hostPath(partner.app.handle, other.store.id))).status).to.equal(404);
      const bearer = await browser.get(hostPath(), { authorization: `Bearer ${shop.merchant.token}` });
      expect(bearer.status).to.equal(403);
      expect(bearer.html).to.not.contain('<iframe');
    });

    it("says why, with no frame, for an app that does not open in the admin and an embed URL on the admin's own origin", async () => {
      const plain = await givenPublishedApp(api, operatorToken, { embedded: { enabled: false, admin_path: '/' } });
      await installApp(api, plain, shop, { scopes: ['read_products'] });
      const notEmbedded = await browser.get(hostPath(plain.app.handle));
      expect(notEmbedded.status).to.equal(409);
      expect(notEmbedded.html).to.contain('does not open inside the admin').and.not.contain('<iframe');

      const same = await givenPublishedApp(api, operatorToken);
      const sameInstall = await installApp(api, same, shop, { scopes: ['read_products'] });
      const patched = await api.patch(`/v1/app-store/installations/${sameInstall.installationId}/embedding`, { embed_url: `${app.url}/admin` }, shop.as);
      expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
      const sameOrigin = await browser.get(hostPath(same.app.handle));
      expect(sameOrigin.status).to.equal(409);
      expect(sameOrigin.html).to.contain('the admin&#39;s own origin').and.not.contain('<iframe');
      expect((await bridge({ type: 'handshake' }, { handle: same.app.handle })).status).to.equal(409);
    });
  });

  describe('POST /admin/stores/:id/apps/:handle/bridge', () => {
    it('answers a handshake with a fresh session token, the store, the locale and the capabilities as resolved', async () => {
      const { status, body } = await bridge({ type: 'handshake' });
      expect(status).to.equal(200);
      expect(body.ok).to.equal(true);
      expect(body.result.session_token.split('.')).to.have.length(3);
      expect(body.result).to.deep.include({
        expires_in: 60,
        store: { id: shop.store.id, subdomain: shop.store.subdomain, name: (await api.get(`/v1/stores/${shop.store.id}`, shop.as)).body.data.name },
        locale: 'en',
        capabilities: { 'api.fetch': true, toast: true, resize: true, 'navigation.redirect': false },
        extension: null,
      });
    });

    it('answers toast, resize and api.fetch within their bounds', async () => {
      expect((await bridge({ type: 'toast', message: '  Saved  ' })).body).to.deep.equal({
        ok: true,
        result: { message: 'Saved', tone: 'info', duration: 5000 },
      });
      expect((await bridge({ type: 'resize', height: '20' })).body.result).to.deep.equal({ height: 100 });
      expect((await bridge({ type: 'resize', height: '99999' })).body.result).to.deep.equal({ height: 10000 });
      expect((await bridge({ type: 'resize', height: '321.6' })).body.result).to.deep.equal({ height: 322 });
      const read = await bridge({ type: 'api.fetch', method: 'GET', path: '/products' });
      expect(read.status).to.equal(200);
      expect(read.body.result.status).to.equal(200);
      expect(read.body.result.data.items.map((p: { title: string }) => p.title)).to.deep.equal(['Enamel Mug']);
    });

    it('refuses a post without the token, with a foreign one, from another site, with an Authorization header, and for another merchant’s store', async () => {
      const noToken = await browser.post(`${hostPath()}/bridge`, { type: 'toast', message: 'hi' });
      expect(noToken.status).to.equal(403);
      const foreignToken = await browser.post(`${hostPath()}/bridge`, { csrf_token: 'x'.repeat(43), type: 'toast', message: 'hi' });
      expect(foreignToken.status).to.equal(403);
      expect((await bridge({ type: 'toast', message: 'hi' }, { headers: { 'sec-fetch-site': 'cross-site' } })).status).to.equal(403);
      expect((await bridge({ type: 'toast', message: 'hi' }, { headers: { origin: 'https://evil.example' } })).status).to.equal(403);
      expect((await bridge({ type: 'toast', message: 'hi' }, { headers: { authorization: `Bearer ${shop.merchant.token}` } })).status).to.equal(403);
      const foreignStore = await bridge({ type: 'handshake' }, { store: other.store.id });
      expect(foreignStore.status).to.equal(404);
      expect(foreignStore.body).to.equal(null);
      // The other merchant, with their own session and token, cannot reach this store's app either; their token is not this session's.
      const theirs = await signedInAdmin(app, other.merchant);
      const theirCsrf = /name="csrf_token" value="([^"]+)"/.exec((await theirs.get('/admin/account')).html)![1]!;
      expect((await theirs.post(`${hostPath()}/bridge`, { csrf_token: theirCsrf, type: 'handshake' })).status).to.equal(404);
      expect((await bridge({ type: 'handshake', csrf_token: theirCsrf })).status).to.equal(403);
    });

    it('refuses what an action asks wrongly: 400 with its code, never a 500', async () => {
      const cases: [Record<string, string>, string][] = [
        [{ type: 'toast', message: 'x'.repeat(201) }, 'invalid_input'],
        [{ type: 'toast', message: '   ' }, 'invalid_input'],
        [{ type: 'toast', message: 'hi', duration: '10' }, 'invalid_input'],
        [{ type: 'resize', height: 'tall' }, 'invalid_input'],
        [{ type: 'explode' }, 'invalid_input'],
        [
          Object.fromEntries([
            ['type', 'toast'],
            ['message', 'hi'],
            ['__proto__', 'x'],
          ]) as Record<string, string>,
          'invalid_input',
        ],
        [{ type: 'api.fetch', method: 'POST', path: '/products' }, 'bridge_method_not_allowed'],
        [{ type: 'api.fetch', method: 'GET', path: '/../products' }, 'invalid_bridge_path'],
        [{ type: 'api.fetch', method: 'GET', path: 'https://evil.example/products' }, 'invalid_bridge_path'],
        [{ type: 'api.fetch', method: 'GET', path: '/customers' }, 'invalid_bridge_path'],
        [{ type: 'api.fetch', method: 'GET', path: '/products?limit=abc' }, 'invalid_input'],
        [{ type: 'handshake', extension: 'Not A Handle' }, 'extension_not_found'],
      ];
      for (const [fields, code] of cases) {
        const { status, body } = await bridge(fields);
        expect(status, JSON.stringify(fields)).to.be.within(400, 499);
        expect(body.ok, JSON.stringify(fields)).to.equal(false);
        expect(body.error.code, JSON.stringify(fields)).to.equal(code);
      }
    });

    it("refuses a read outside the installation's scopes with its status", async () => {
      const { status, body } = await bridge({ type: 'api.fetch', method: 'GET', path: '/orders' });
      expect(status).to.equal(403);
      expect(body.error.code).to.equal('insufficient_scope');
    });

    it("redirects only where granted: this store's admin paths or the app's own origin", async () => {
      const off = await bridge({ type: 'navigation.redirect', to: `/admin/stores/${shop.store.id}/orders` });
      expect(off.status).to.equal(403);
      expect(off.body.error.code).to.equal('capability_disabled');
      expect((await embedding({ bridge_capabilities: { 'navigation.redirect': true } })).status).to.equal(200);
      const admin = await bridge({ type: 'navigation.redirect', to: `/admin/stores/${shop.store.id}/orders?status=open` });
      expect(admin.body).to.deep.equal({ ok: true, result: { target: 'admin', url: `/admin/stores/${shop.store.id}/orders?status=open` } });
      const own = `https://${partner.app.handle}.example.com/app/settings`;
      expect((await bridge({ type: 'navigation.redirect', to: own })).body.result).to.deep.equal({ target: 'app', url: own });
      for (const to of [
        `/admin/stores/${other.store.id}/orders`,
        `/admin/stores/${shop.store.id}/../${other.store.id}`,
        '/admin/account',
        '//evil.example/x',
        'https://evil.example/',
        'javascript:alert(1)',
        `/admin/stores/${shop.store.id}\\x`,
      ]) {
        const refused = await bridge({ type: 'navigation.redirect', to });
        expect(refused.status, to).to.equal(400);
        expect(refused.body.error.code, to).to.equal('redirect_refused');
      }
      expect((await embedding({ bridge_capabilities: {} })).status).to.equal(200);
    });

    it('refuses an action whose capability the merchant turned off, at once', async () => {
      expect((await embedding({ bridge_capabilities: { toast: false } })).status).to.equal(200);
      const refused = await bridge({ type: 'toast', message: 'hi' });
      expect(refused.status).to.equal(403);
      expect(refused.body.error.code).to.equal('capability_disabled');
      expect((await bridge({ type: 'resize', height: '300' })).status).to.equal(200);
      expect((await embedding({ bridge_capabilities: {} })).status).to.equal(200);
      expect((await bridge({ type: 'toast', message: 'hi' })).status).to.equal(200);
    });
  });

  describe('admin_ui extensions', () => {
    const productPage = async () => {
      const product = (await api.get('/v1/products', shop.as)).body.data[0];
      return browser.get(`/admin/stores/${shop.store.id}/products/${product.id}`);
    };
    const rows = async () => (await api.get(`/v1/app-store/installations/${installationId}/extensions`, shop.as)).body.data.extensions;

    it("frames each live extension of a product's page, its origin in the CSP; a disabled one is gone at once, and its frame's actions with it", async () => {
      const page = await productPage();
      expect(page.status).to.equal(200);
      expect(page.html).to.contain('Stock panel').and.contain('data-extension="stock-panel"').and.contain(`sandbox="${SANDBOX}"`);
      const src = new URL(/<iframe[^>]* src="([^"]+)"/.exec(page.html)![1]!.replaceAll('&amp;', '&'));
      expect(src.pathname).to.equal('/app/product/details');
      expect(src.searchParams.get('extension')).to.equal('stock-panel');
      expect(String(page.headers['content-security-policy'])).to.contain(`frame-src ${src.origin};`);
      expect((await bridge({ type: 'handshake', extension: 'stock-panel' })).body.result.extension).to.equal('stock-panel');

      const row = (await rows()).find((r: { handle: string }) => r.handle === 'stock-panel');
      const off = await api.patch(`/v1/app-store/installations/${installationId}/extensions/${row.id}`, { state: 'disabled', version: row.version }, shop.as);
      expect(off.status, JSON.stringify(off.body)).to.equal(200);
      const after = await productPage();
      expect(after.html).to.not.contain('Stock panel').and.not.contain('<iframe');
      expect(String(after.headers['content-security-policy'])).to.not.contain('frame-src');
      const refused = await bridge({ type: 'toast', message: 'hi', extension: 'stock-panel' });
      expect(refused.status).to.equal(404);
      expect(refused.body.error.code).to.equal('extension_not_found');
    });

    it("frames an order's page's extension with its own capability layer, its name escaped", async () => {
      const order = await givenOrder(api, shop.as, { email: 'buyer@example.com', line_items: [{ title: 'Gift wrapping', price: 400, quantity: 1 }] });
      const page = await browser.get(`/admin/stores/${shop.store.id}/orders/${order.id}`);
      expect(page.status).to.equal(200);
      expect(page.html).to.contain('Order &lt;notes&gt;').and.contain('data-extension="order-notes"').and.not.contain('Stock panel');
      const src = new URL(/<iframe[^>]* src="([^"]+)"/.exec(page.html)![1]!.replaceAll('&amp;', '&'));
      expect(src.pathname).to.equal('/app/order/details');
      expect(String(page.headers['content-security-policy'])).to.contain(`frame-src ${src.origin};`);
      // The extension lists only api.fetch: its toast is off in its frame, on in the app's own.
      const shaken = await bridge({ type: 'handshake', extension: 'order-notes' });
      expect(shaken.body.result.capabilities).to.deep.equal({ 'api.fetch': true, toast: false, resize: false, 'navigation.redirect': false });
      expect((await bridge({ type: 'toast', message: 'hi', extension: 'order-notes' })).body.error.code).to.equal('capability_disabled');
      expect((await bridge({ type: 'toast', message: 'hi' })).status).to.equal(200);
    });
  });

  describe('while an operator suspends the app', () => {
    it('is a page that says so, with no frame, and every action is refused; undone, it works again', async () => {
      const path = '/v1/operations/runtime/security/enforcement-events';
      const suspended = await api.post(path, { action: 'suspend_app', app_id: partner.app.id, reason: 'abuse report' }, { token: operatorToken });
      expect(suspended.status, JSON.stringify(suspended.body)).to.equal(201);
      const page = await browser.get(hostPath());
      expect(page.status).to.equal(403);
      expect(page.html).to.contain('suspended').and.not.contain('<iframe');
      const refused = await bridge({ type: 'handshake' });
      expect(refused.status).to.equal(403);
      expect(refused.body.error.code).to.equal('app_suspended');
      const undone = await api.post(`${path}/${suspended.body.data.id}/undo`, { reason: 'resolved' }, { token: operatorToken });
      expect(undone.status, JSON.stringify(undone.body)).to.equal(200);
      expect((await bridge({ type: 'handshake' })).status).to.equal(200);
    });
  });

  describe('after an uninstall', () => {
    it('is a 404 page, and every action is refused', async () => {
      expect((await api.delete(`/v1/app-store/installations/${installationId}`, shop.as)).status).to.equal(200);
      expect((await browser.get(hostPath())).status).to.equal(404);
      const actions: Record<string, string>[] = [
        { type: 'handshake' },
        { type: 'toast', message: 'hi' },
        { type: 'resize', height: '200' },
        { type: 'api.fetch', method: 'GET', path: '/products' },
      ];
      for (const fields of actions) {
        const { status, body } = await bridge(fields);
        expect(status, fields.type).to.equal(404);
        expect(body.error.code, fields.type).to.equal('not_found');
      }
    });
  });
});
