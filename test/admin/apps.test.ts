import { expect } from 'chai';
import { AdminBrowser, signedInAdmin } from '../helpers/admin.js';
import { useTestApp } from '../helpers/app.js';
import { givenAppAndCustomer } from '../helpers/callers.js';
import { givenAppRating, givenPublishedApp, installApp, type GivenApp } from '../helpers/apps.js';
import { givenMerchant, givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { PartnerApp } from '../helpers/partner-app.js';
import type { ShopResponse } from '../helpers/shop.js';

const OPERATOR = 'op-admin-apps@example.com';

/** The hidden and submit fields of the form posting to `action` on a page. */
function formFields(html: string, action: string): Record<string, string> {
  const start = html.indexOf(`action="${action}"`);
  expect(start, `a form to ${action}`).to.be.greaterThan(-1);
  const form = html.slice(start, html.indexOf('</form>', start));
  const fields: Record<string, string> = {};
  for (const m of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[m[1]!] = m[2]!.replace(/&amp;/g, '&').replace(/&quot;/g, '"');
  return fields;
}

/**
 * The admin's Apps (docs/admin.md, Apps) through the real server and a partner's app as a local
 * HTTP server (test/helpers/partner-app.ts): the App Store and a listing, an install from it
 * through the consent page and back to the admin (and Cancel back to the listing), the installed
 * apps, an installation's settings (bridge capabilities, embed URL, Update permissions), Uninstall
 * after its confirm step, and the extensions and functions with Enable/Disable and the run log.
 * Refusals: another merchant's store or app, a missing token, an API token.
 */
describe('Admin: Apps', () => {
  const { app, api } = useTestApp('admin_apps', { OPERATOR_EMAILS: OPERATOR });
  let operator: string;
  let partner: PartnerApp;
  let published: GivenApp;
  let shop: GivenMerchantWithStore;
  let browser: AdminBrowser;
  const admin = (path = '') => `/admin/stores/${shop.store.id}${path}`;

  /** The platform's side of a browser's redirect: the path and query of a location on the platform. */
  const onPlatform = (location: string | null) => {
    const url = new URL(location!);
    expect(url.origin).to.equal(app.url);
    return `${url.pathname}${url.search}`;
  };
  /** The partner's side of a redirect: its answer's location. */
  const atPartner = async (location: string | null) => {
    expect(location!.startsWith(partner.url), location!).to.equal(true);
    const res = await fetch(location!, { redirect: 'manual' });
    expect(res.status, await res.clone().text()).to.equal(302);
    return res.headers.get('location');
  };
  /** Install from a page's form: the app's install URL, the consent page, and its decision; the location the partner sends the browser to after. */
  async function throughConsent(from: string, action: string, decision: 'install' | 'cancel'): Promise<{ consent: ShopResponse; back: string }> {
    const started = await browser.submit(from, action, {});
    expect(started.status, started.html.slice(0, 300)).to.equal(303);
    const authorize = onPlatform(await atPartner(started.location));
    const consent = await browser.get(authorize);
    expect(consent.status, consent.html.slice(0, 500)).to.equal(200);
    const decided = await browser.post('/v1/app-store/oauth/authorize/consent', {
      ...formFields(consent.html, '/v1/app-store/oauth/authorize/consent'),
      decision,
    });
    expect(decided.status).to.equal(302);
    return { consent, back: onPlatform(await atPartner(decided.location)) };
  }

  before(async () => {
    operator = (await givenMerchant(api, { email: OPERATOR })).token;
    partner = await new PartnerApp(app.url).start();
    published = await partner.publish(api, operator, {
      name: 'Label <Maker>',
      handle: 'label-maker',
      description: 'Prints labels for your orders.\nAnd <b>packing</b> slips.',
    });
    await givenPublishedApp(api, operator, { name: 'Stock Sync', description: 'Keeps stock in line with your warehouse.' });
    shop = await givenMerchantWithStore(api);
    browser = await signedInAdmin(app, shop.merchant);
  });
  after(() => partner.close());

  it('lists the catalog with its partner and rating, searches it, and shows a listing with its scopes in plain words and its reviews', async () => {
    const reviewer = await givenMerchantWithStore(api);
    await installApp(api, published, reviewer, { scopes: ['read_orders'] });
    await givenAppRating(api, reviewer, published, { rating: 5, title: '<i>Great</i>', body: 'Saves me an hour a day.' });

    const store = await browser.get(admin('/app-store'));
    expect(store.status).to.equal(200);
    expect(store.html)
      .to.contain('Label &lt;Maker&gt;')
      .and.contain('Stock Sync')
      .and.contain('by Acme Apps')
      .and.contain('★ 5.0 · 1 review')
      .and.contain('aria-current="page">Apps')
      .and.not.contain('Installed</span>');
    const found = await browser.get(admin('/app-store?q=warehouse'));
    expect(found.html).to.contain('Stock Sync').and.not.contain('Label &lt;Maker&gt;');
    const none = await browser.get(admin('/app-store?q=nothing-like-this'));
    expect(none.html).to.contain('No app matches');

    const listing = await browser.get(admin(`/app-store/${published.app.id}`));
    expect(listing.status).to.equal(200);
    expect(listing.html)
      .to.contain('See your orders')
      .and.contain('See your products and collections')
      .and.contain('&lt;i&gt;Great&lt;/i&gt;')
      .and.contain('And &lt;b&gt;packing&lt;/b&gt; slips.')
      .and.contain(`action="${admin(`/app-store/${published.app.id}/install`)}"`);
    expect((await browser.get(admin('/app-store/0123456789abcdef01234567'))).status).to.equal(404);
  });

  it('installs from the App Store through the consent page and comes back to the app’s page; Cancel comes back to the listing', async () => {
    const listing = admin(`/app-store/${published.app.id}`);
    const cancelled = await throughConsent(listing, `${listing}/install`, 'cancel');
    expect(cancelled.consent.html).to.contain('Install Label &lt;Maker&gt;?');
    expect(cancelled.back).to.equal(listing);
    expect(partner.callbacks.at(-1)).to.deep.equal({ error: 'access_denied' });
    expect((await api.get('/v1/app-store/installations', shop.as)).body.data).to.deep.equal([]);

    const installed = await throughConsent(listing, `${listing}/install`, 'install');
    expect(installed.back).to.equal(admin('/apps/label-maker/settings'));
    expect(partner.callbacks.at(-1)).to.deep.equal({ scope: 'read_orders read_products' });
    const page = await browser.get(installed.back);
    expect(page.status).to.equal(200);
    expect(page.html).to.contain('Label &lt;Maker&gt;</h1>').and.contain('badge--ok">active').and.contain('See your orders');

    const list = await browser.get(admin('/apps'));
    expect(list.html)
      .to.contain(`href="${admin('/apps/label-maker/settings')}"`)
      .and.contain('2 permissions');
    expect((await browser.get(listing)).html)
      .to.contain('Installed</span>')
      .and.contain('Manage the app');
    expect((await browser.get(admin('/app-store'))).html).to.contain('Installed</span>');
  });

  it('switches the bridge capabilities the app declares, refuses one it does not at its field, and checks the embed URL', async () => {
    const settings = admin('/apps/label-maker/settings');
    const installation = (await api.get('/v1/app-store/installations', shop.as)).body.data[0].id as string;
    const embedding = async () => (await api.get(`/v1/app-store/installations/${installation}/embedding`, shop.as)).body.data;

    const saved = await browser.submit(settings, admin('/apps/label-maker/capabilities'), { resize: 'on' });
    expect(saved.status).to.equal(303);
    expect((await embedding()).bridge_capabilities).to.deep.equal({ toast: false, resize: true });
    const shown = await browser.get(settings);
    expect(shown.html).to.match(/id="cap-toast" name="toast" value="on"\s+aria/);
    expect(shown.html).to.match(/id="cap-navigation-redirect" name="navigation.redirect" value="on" disabled/);

    const refused = await browser.submit(settings, admin('/apps/label-maker/capabilities'), { toast: 'on', 'navigation.redirect': 'on' });
    expect(refused.status).to.equal(400);
    expect(refused.html).to.match(/id="cap-navigation-redirect-error" class="field__error">the app does not declare this capability/);
    expect((await embedding()).bridge_capabilities).to.deep.equal({ toast: false, resize: true });

    const badUrl = await browser.submit(settings, admin('/apps/label-maker/embed-url'), { embed_url: 'http://labels.example.com/embed' });
    expect(badUrl.status).to.equal(400);
    expect(badUrl.html).to.match(/id="f-embed_url-error" class="field__error">must use https/);
    const url = await browser.submit(settings, admin('/apps/label-maker/embed-url'), { embed_url: 'https://labels.example.com/embed' });
    expect(url.status).to.equal(303);
    expect((await embedding()).embed_url).to.equal('https://labels.example.com/embed');
    await browser.submit(settings, admin('/apps/label-maker/embed-url'), { embed_url: '' });
    expect((await embedding()).embed_url).to.equal(null);
  });

  it('offers Update permissions when the published app asks for more, through the consent page’s Update', async () => {
    const settings = admin('/apps/label-maker/settings');
    expect((await browser.get(settings)).html).to.not.contain('Update permissions');
    const version = await api.post(
      `/v1/app-store/developers/apps/${published.app.id}/versions`,
      { manifest: { ...published.app.published, scopes: ['read_orders', 'read_products', 'read_customers'] } },
      { token: published.developer.merchant.token },
    );
    expect(version.status, JSON.stringify(version.body)).to.equal(201);
    const approved = await api.post(`/v1/operations/app-reviews/${version.body.data.latest_version.id}/approve`, undefined, { token: operator });
    expect(approved.status, JSON.stringify(approved.body)).to.equal(200);

    const asks = await browser.get(settings);
    expect(asks.html).to.contain('The app now asks for more').and.contain('See your customers and their addresses').and.contain('Update permissions');
    partner.scopes = ['read_customers', 'read_orders', 'read_products'];
    const updated = await throughConsent(settings, admin('/apps/label-maker/permissions'), 'install');
    expect(updated.consent.html).to.contain('Update Label &lt;Maker&gt;?').and.contain('It will also be able to');
    expect(updated.back).to.equal(settings);
    const after = await browser.get(settings);
    expect(after.html).to.contain('See your customers and their addresses');
    expect(after.html).to.not.contain('Update permissions');
  });

  it('lists the extensions and functions, enables and disables with the version it read, and shows the run log and quality checklist', async () => {
    const page = admin('/apps/label-maker/extensions');
    const installation = (await api.get('/v1/app-store/installations', shop.as)).body.data[0].id as string;
    const rows = async () => (await api.get(`/v1/app-store/installations/${installation}/extensions`, shop.as)).body.data;
    const listed = await browser.get(page);
    expect(listed.status).to.equal(200);
    expect(listed.html).to.contain('Order labels').and.contain('admin.order.details').and.contain('Hide express').and.contain('Quality checklist');
    const { extensions, functions } = await rows();
    const [labels, hide] = [extensions[0], functions[0]];
    expect([labels.state, hide.state]).to.deep.equal(['enabled', 'disabled']);

    const disabled = await browser.submit(page, `${page}/${labels.id}`, { version: String(labels.version), state: 'disabled' });
    expect(disabled.status).to.equal(303);
    const enabled = await browser.submit(page, `${page}/${hide.id}`, { version: String(hide.version), state: 'enabled' });
    expect(enabled.status).to.equal(303);
    const now = await rows();
    expect(now.extensions[0]).to.include({ state: 'disabled', version: labels.version + 1 });
    expect(now.extensions[0].last_transition).to.include({ from: 'enabled', to: 'disabled', reason: 'merchant' });
    expect(now.functions[0].state).to.equal('enabled');

    const stale = await browser.submit(page, `${page}/${labels.id}`, { version: String(labels.version), state: 'enabled' });
    expect(stale.status).to.equal(409);
    expect(stale.html).to.contain('Order labels changed since this page was shown: it is disabled now');
    expect((await rows()).extensions[0].state).to.equal('disabled');

    // The function runs at checkout: its run in the log, as the merchant sees it (exact figures).
    await api.put('/v1/shipping', { rates: [{ code: 'express', name: 'Express', price: 2500, country_code: 'CA' }] }, shop.as);
    const product = await api.post(
      '/v1/products',
      { title: 'Mug', status: 'active', variants: [{ price: 1000, sku: 'MUG', inventory_tracked: false }] },
      shop.as,
    );
    const cart = await api.post(`/v1/storefront/${shop.store.subdomain}/cart`, { lines: [{ variant_id: product.body.data.variants[0].id, quantity: 1 }] });
    await api.get(`/v1/storefront/${shop.store.subdomain}/cart/checkout-options?country_code=CA`, { headers: { 'x-cart-token': cart.body.data.token } });
    const log = await browser.get(`${page}/${hide.id}/runs`);
    expect(log.status).to.equal(200);
    expect(log.html).to.contain('Run log of <code>hide-express</code>').and.contain('badge--ok">ok').and.contain('operations');
    expect((await browser.get(`${page}/not-an-id/runs`)).status).to.equal(404);
    expect((await browser.get(`${page}/${labels.id}/runs`)).status, 'an extension has no run log').to.equal(404);
  });

  it('uninstalls after a confirm step that says what follows: its tokens stop working, its rows revoked, listed greyed', async () => {
    const at = admin('/apps/label-maker');
    const confirm = await browser.get(`${at}/uninstall`);
    expect(confirm.status).to.equal(200);
    expect(confirm.html)
      .to.contain('every token it holds stops working')
      .and.contain('Its webhooks stop')
      .and.contain('are revoked')
      .and.contain('48 hours later')
      .and.contain('shop.redact');
    const token = partner.tokens.at(-1)!;
    expect((await api.get('/v1/app/products?limit=1', { token })).status).to.equal(200);
    const done = await browser.submit(`${at}/uninstall`, `${at}/uninstall`, {});
    expect(done.status).to.equal(303);
    expect(done.location).to.equal(admin('/apps'));
    expect((await api.get('/v1/app/products?limit=1', { token })).status).to.equal(401);
    const list = await browser.get(admin('/apps'));
    expect(list.html).to.contain('is uninstalled').and.contain('Uninstalled <time');
    const settings = await browser.get(`${at}/settings`);
    expect(settings.html).to.contain('Install again from the App Store').and.not.contain('/capabilities');
    const extensions = await browser.get(`${at}/extensions`);
    expect(extensions.html).to.contain('cannot be enabled again').and.not.contain('>Enable<').and.not.contain('>Disable<');
  });

  it('refuses another merchant’s store and app (404, nothing changed), a post without its token, with another browser’s or from another site, and API tokens (an app’s, a customer’s, the merchant’s own)', async () => {
    const other = await givenMerchantWithStore(api);
    const theirs = await signedInAdmin(app, other.merchant);
    const mine = await givenPublishedApp(api, operator, { name: 'Mine', scopes: ['read_products'], bridge: { capabilities: ['toast'] } });
    const { token: appToken } = await installApp(api, mine, shop, { scopes: ['read_products'] });
    const handle = mine.app.handle as string;
    const csrf = AdminBrowser.csrfOf(await theirs.get(`/admin/stores/${other.store.id}/app-store/${mine.app.id}`));
    for (const path of [
      '/app-store',
      `/app-store/${mine.app.id}`,
      '/apps',
      `/apps/${handle}/settings`,
      `/apps/${handle}/extensions`,
      `/apps/${handle}/uninstall`,
    ]) {
      expect((await theirs.get(admin(path))).status, path).to.equal(404);
    }
    for (const path of [`/apps/${handle}/uninstall`, `/apps/${handle}/capabilities`, `/app-store/${mine.app.id}/install`]) {
      expect((await theirs.post(admin(path), { csrf_token: csrf, toast: 'on' })).status, path).to.equal(404);
    }
    // Their own store, but an app installed only in this one: 404 too.
    expect((await theirs.get(`/admin/stores/${other.store.id}/apps/${handle}/settings`)).status).to.equal(404);
    const noToken = await browser.post(admin(`/apps/${handle}/uninstall`), {});
    expect(noToken.status).to.equal(403);
    const foreign = await browser.post(admin(`/apps/${handle}/uninstall`), { csrf_token: csrf });
    expect(foreign.status).to.equal(403);
    const own = AdminBrowser.csrfOf(await browser.get(admin(`/apps/${handle}/uninstall`)));
    const crossSite = await browser.post(admin(`/apps/${handle}/uninstall`), { csrf_token: own }, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).to.equal(403);
    const { customerToken } = await givenAppAndCustomer(api, operator, shop);
    for (const token of [appToken, customerToken, shop.merchant.token]) {
      const bearer = await new AdminBrowser(app.url, '127.0.0.1').get(admin('/apps'), { authorization: `Bearer ${token}` });
      expect(bearer.status).to.equal(403);
      expect(bearer.html).to.not.contain('Mine');
    }
    const installations = (await api.get('/v1/app-store/installations?status=active', shop.as)).body.data as { id: string; app_id: string }[];
    const installation = installations.find((i) => i.app_id === mine.app.id);
    expect(installation, 'still installed').to.not.equal(undefined);
    expect((await api.get(`/v1/app-store/installations/${installation!.id}/embedding`, shop.as)).body.data.bridge_capabilities).to.deep.equal({});
  });
});
