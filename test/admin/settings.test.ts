import { expect } from 'chai';
import { AdminBrowser, signedInAdmin } from '../helpers/admin.js';
import { useTestApp } from '../helpers/app.js';
import { givenProduct } from '../helpers/catalog.js';
import { givenCustomer } from '../helpers/customers.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';

/**
 * The admin's Settings (docs/admin.md, Settings): the landing page, store details, shipping rates,
 * taxes, payment providers (keys write-only) and the notifications sender, each through the
 * service the REST API uses and read back through the API. Refusals: another merchant's store
 * (404, nothing changed), a missing or cross-site token, bad values at their fields with the input
 * kept.
 */
describe('Admin: Settings', () => {
  const { app, api } = useTestApp('admin_settings');
  let shop: GivenMerchantWithStore;
  let browser: AdminBrowser;
  const settings = (path = '') => `/admin/stores/${shop.store.id}/settings${path}`;
  const store = async () => (await api.get(`/v1/stores/${shop.store.id}`, { token: shop.merchant.token })).body.data;
  const shipping = async () => (await api.get('/v1/shipping', shop.as)).body.data;
  const taxes = async () => (await api.get('/v1/taxes', shop.as)).body.data;
  const provider = async (name: string) => (await api.get('/v1/payments/providers', shop.as)).body.data.find((p: any) => p.provider === name);

  before(async () => {
    shop = await givenMerchantWithStore(api);
    browser = await signedInAdmin(app, shop.merchant);
  });

  it('lists the settings pages, the other engineer’s Webhooks and Your account among them, as the last section of the navigation', async () => {
    const page = await browser.get(settings());
    expect(page.status).to.equal(200);
    expect(page.html).to.contain('aria-current="page">Settings');
    for (const path of ['/store', '/shipping', '/taxes', '/payments', '/locations', '/notifications', '/webhooks'])
      expect(page.html).to.contain(`href="${settings(path)}"`);
    expect(page.html).to.contain('href="/admin/account"');
    const nav = page.html.slice(page.html.indexOf('<nav'), page.html.indexOf('</nav>'));
    expect(nav.lastIndexOf('>Settings<')).to.be.greaterThan(nav.indexOf('>Discounts<'));
  });

  it('edits the store’s name, language and currency, shows the shop’s address, and keeps input with errors at their fields', async () => {
    const page = await browser.get(settings('/store'));
    expect(page.html).to.contain('value="Test Store"').and.contain('id="f-currency"').and.contain(`${shop.store.subdomain}.`).and.contain('cannot change');

    const bad = await browser.submit(settings('/store'), settings('/store'), { name: ' ', locale: 'not a locale!', currency: 'ZZZ' });
    expect(bad.status).to.equal(400);
    expect(bad.html)
      .to.match(/id="f-name"[^>]*aria-invalid="true"/)
      .and.match(/id="f-locale-error"[^>]*>must be a locale code/)
      .and.match(/id="f-currency-error"[^>]*>must be an ISO 4217 currency code/)
      .and.contain('value="not a locale!"');
    expect((await store()).name).to.equal('Test Store');

    const saved = await browser.submit(settings('/store'), settings('/store'), { name: 'Lumen <b>&</b> Loom', locale: 'fr-ca', currency: 'eur' });
    expect(saved.status).to.equal(303);
    expect(await store()).to.include({ name: 'Lumen <b>&</b> Loom', locale: 'fr-CA', currency: 'EUR' });
    const after = await browser.get(saved.location!);
    expect(after.html).to.contain('The store details are saved.').and.contain('Lumen &lt;b&gt;&amp;&lt;/b&gt; Loom').and.not.contain('<b>&</b>');
  });

  it('shows the currency read-only once something is priced in it, and a currency posted anyway is refused, changing nothing', async () => {
    const own = await givenMerchantWithStore(api);
    await givenProduct(api, own.as);
    const merchant = await signedInAdmin(app, own.merchant);
    const at = `/admin/stores/${own.store.id}/settings/store`;
    const page = await merchant.get(at);
    expect(page.html).to.contain('USD: it cannot change now');
    expect(page.html).to.not.contain('id="f-currency"');
    const renamed = await merchant.submit(at, at, { name: 'Renamed', locale: 'en' });
    expect(renamed.status).to.equal(303);
    const refused = await merchant.submit(at, at, { name: 'Other', locale: 'en', currency: 'JPY' });
    expect(refused.status).to.equal(409);
    expect(refused.html).to.contain('so its currency cannot change');
    const read = (await api.get(`/v1/stores/${own.store.id}`, { token: own.merchant.token })).body.data;
    expect(read).to.include({ name: 'Renamed', currency: 'USD' });
  });

  it('adds, edits and removes shipping rates as the API stores them, with errors at their rows’ fields', async () => {
    const empty = await browser.get(settings('/shipping'));
    expect(empty.html).to.contain('Add a rate').and.contain('name="rows" value="1"');

    const bad = await browser.submit(settings('/shipping'), settings('/shipping'), {
      rows: '3',
      r0_name: 'Standard',
      r0_code: 'standard',
      r0_price: '4.999',
      r0_country: 'US',
      r1_name: 'Standard again',
      r1_code: 'standard',
      r1_price: '5',
      r1_country: 'us',
      r2_name: 'World',
      r2_code: 'world',
      r2_country: '*',
      r2_province: 'CA',
    });
    expect(bad.status).to.equal(400);
    expect(bad.html)
      .to.match(/id="f-r0_price-error"[^>]*>must be an amount such as 12.50/)
      .and.match(/id="f-r1_code-error"[^>]*>another rate already covers standard to US/)
      .and.match(/id="f-r2_price-error"[^>]*>is required/)
      .and.match(/id="f-r2_province-error"[^>]*>must be null for every country/)
      .and.contain('value="Standard again"');
    expect((await shipping()).rates).to.deep.equal([]);

    const saved = await browser.submit(settings('/shipping'), settings('/shipping'), {
      rows: '3',
      r0_name: 'Standard',
      r0_code: 'standard',
      r0_price: '4.99',
      r0_country: 'us',
      r0_province: 'ca',
      r0_max: '100',
      r1_name: 'Free over $100',
      r1_code: 'free',
      r1_price: '0',
      r1_country: 'US',
      r1_min: '100.00',
      r2_name: 'World',
      r2_code: 'world',
      r2_price: '25',
      r2_country: '*',
    });
    expect(saved.status, saved.html.slice(0, 2000)).to.equal(303);
    expect((await shipping()).rates).to.deep.equal([
      { code: 'standard', name: 'Standard', price: 499, country_code: 'US', province_code: 'CA', min_subtotal: null, max_subtotal: 10000 },
      { code: 'free', name: 'Free over $100', price: 0, country_code: 'US', province_code: null, min_subtotal: 10000, max_subtotal: null },
      { code: 'world', name: 'World', price: 2500, country_code: '*', province_code: null, min_subtotal: null, max_subtotal: null },
    ]);
    const page = await browser.get(saved.location!);
    expect(page.html).to.contain('The shipping rates are saved: 3 rates.').and.contain('value="4.99"').and.contain('name="rows" value="4"');

    const edited = await browser.submit(settings('/shipping'), settings('/shipping'), {
      rows: '4',
      r0_name: 'Standard',
      r0_code: 'standard',
      r0_price: '5.50',
      r0_country: 'US',
      r0_province: 'CA',
      r1_name: 'Free over $100',
      r1_code: 'free',
      r1_price: '0',
      r1_country: 'US',
      r1_remove: 'on',
      r2_name: 'World',
      r2_code: 'world',
      r2_price: '25',
      r2_country: '*',
    });
    expect(edited.status).to.equal(303);
    const rates = (await shipping()).rates;
    expect(rates.map((r: any) => [r.code, r.price, r.max_subtotal])).to.deep.equal([
      ['standard', 550, null],
      ['world', 2500, null],
    ]);
  });

  it('sets tax rates and whether shipping is taxed as the API stores them, a rate as a percent', async () => {
    expect((await browser.get(settings('/taxes'))).html).to.match(/name="shipping_taxable" value="on" checked/);
    const bad = await browser.submit(settings('/taxes'), settings('/taxes'), {
      rows: '2',
      r0_country: 'DE',
      r0_name: 'MwSt',
      r0_rate: '120',
      r1_country: 'Germany',
      r1_name: 'VAT',
      r1_rate: '19',
      shipping_taxable: 'on',
    });
    expect(bad.status).to.equal(400);
    expect(bad.html)
      .to.match(/id="f-r0_rate-error"[^>]*>must be a percent from 0 to 100/)
      .and.match(/id="f-r1_country-error"[^>]*>must be an ISO 3166-1 alpha-2 code/)
      .and.contain('value="Germany"');

    const saved = await browser.submit(settings('/taxes'), settings('/taxes'), {
      rows: '3',
      r0_country: 'de',
      r0_name: 'MwSt',
      r0_rate: '19',
      r1_country: 'US',
      r1_province: 'NY',
      r1_name: 'Sales tax',
      r1_rate: '8.875',
      r2_country: 'US',
      r2_province: 'CA',
      r2_name: 'Sales tax',
      r2_rate: '7.25',
    });
    expect(saved.status).to.equal(400);
    expect(saved.html).to.match(/id="f-r1_rate-error"[^>]*>must be a percent from 0 to 100, with at most 2 decimals/);

    const ok = await browser.submit(settings('/taxes'), settings('/taxes'), {
      rows: '3',
      r0_country: 'de',
      r0_name: 'MwSt',
      r0_rate: '19',
      r1_country: 'US',
      r1_province: 'CA',
      r1_name: 'Sales tax',
      r1_rate: '7.25',
    });
    expect(ok.status).to.equal(303);
    expect(await taxes()).to.deep.include({
      shipping_taxable: false,
      rates: [
        { country_code: 'DE', province_code: null, name: 'MwSt', rate_bps: 1900 },
        { country_code: 'US', province_code: 'CA', name: 'Sales tax', rate_bps: 725 },
      ],
    });
    const page = await browser.get(ok.location!);
    expect(page.html)
      .to.contain('The taxes are saved: 2 rates.')
      .and.contain('value="7.25"')
      .and.not.match(/name="shipping_taxable" value="on" checked/);
  });

  it('turns the sandbox on with its secret, which no admin page ever shows again, only its last four characters', async () => {
    const secret = 'sandboxSecret_0123456789abcdefWXYZ';
    const refused = await browser.submit(settings('/payments'), settings('/payments/sandbox'), { enabled: 'on' });
    expect(refused.status).to.equal(400);
    expect(refused.html).to.match(/id="f-sandbox-key_secret-error"[^>]*>is required to enable sandbox/);
    expect((await provider('sandbox')).enabled).to.equal(false);

    const on = await browser.submit(settings('/payments'), settings('/payments/sandbox'), { enabled: 'on', key_secret: secret });
    expect(on.status).to.equal(303);
    expect(await provider('sandbox')).to.include({ enabled: true, credentials_set: true });
    const page = await browser.get(on.location!);
    expect(page.html).to.contain('Sandbox is saved and on.').and.contain('Set, ending in WXYZ.');

    // A Stripe key refused (a live key in test mode): the page again, the key not in it.
    const live = 'sk_live_51AbCdEfGhIjKlMnOpQrStUv';
    const mismatch = await browser.submit(settings('/payments'), settings('/payments/stripe'), { enabled: 'on', test_mode: 'on', secret_key: live });
    expect(mismatch.status).to.equal(400);
    expect(mismatch.html)
      .to.match(/must be false for a sk_live_ secret key/)
      .and.not.contain(live);
    const stripe = await browser.submit(settings('/payments'), settings('/payments/stripe'), { enabled: 'on', secret_key: live });
    expect(stripe.status).to.equal(303);
    expect(await provider('stripe')).to.include({ enabled: true, test_mode: false });
    // An empty key keeps the stored one; off stays off.
    const off = await browser.submit(settings('/payments'), settings('/payments/sandbox'), { key_secret: '' });
    expect(off.status).to.equal(303);
    expect(await provider('sandbox')).to.include({ enabled: false, credentials_set: true });
    const manual = await browser.submit(settings('/payments'), settings('/payments/manual'), { enabled: 'on', instructions: 'Pay <i>by</i> bank transfer.' });
    expect(manual.status).to.equal(303);
    expect((await provider('manual')).instructions).to.equal('Pay <i>by</i> bank transfer.');

    for (const path of ['', '/store', '/shipping', '/taxes', '/payments', '/notifications']) {
      const html = (await browser.get(settings(path))).html;
      expect(html, path).to.not.contain(secret).and.not.contain(live).and.not.contain('sk_live_51');
    }
    const payments = (await browser.get(settings('/payments'))).html;
    expect(payments).to.contain('ending in StUv').and.contain('Pay &lt;i&gt;by&lt;/i&gt; bank transfer.');
    expect(payments.match(/type="password" value=""/g)).to.have.length(5);
    expect((await browser.submit(settings('/payments'), settings('/payments/constructor'), { enabled: 'on' })).status).to.equal(404);
  });

  it('sets the sender of the store’s emails, which a customer’s invitation then comes from, and clears it', async () => {
    expect((await browser.get(settings('/notifications'))).html).to.contain('the platform’s own sender');
    const bad = await browser.submit(settings('/notifications'), settings('/notifications'), { name: 'Lumen', email: 'not-an-email' });
    expect(bad.status).to.equal(400);
    expect(bad.html)
      .to.match(/id="f-email-error"[^>]*>must be an email address/)
      .and.contain('value="not-an-email"');
    expect((await store()).email_sender).to.equal(null);

    const saved = await browser.submit(settings('/notifications'), settings('/notifications'), { name: 'Lumen & Loom', email: ' Hello@Lumen.Example ' });
    expect(saved.status).to.equal(303);
    expect((await store()).email_sender).to.deep.equal({ name: 'Lumen & Loom', email: 'hello@lumen.example' });
    expect((await browser.get(saved.location!)).html)
      .to.contain('The sender is saved.')
      .and.contain('value="hello@lumen.example"');

    const customer = await givenCustomer(api, shop.as, { email: `sender-${Date.now()}@example.com` });
    expect((await api.post(`/v1/customers/${customer.id}/invite`, {}, shop.as)).status).to.equal(202);
    const message = await app.platform.db.collection('outbound_messages').findOne({ to: customer.email, kind: 'account_invite' });
    expect(message?.from).to.deep.equal({ name: 'Lumen & Loom', email: 'hello@lumen.example' });

    const cleared = await browser.submit(settings('/notifications'), settings('/notifications'), { name: '', email: '' });
    expect(cleared.status).to.equal(303);
    expect((await store()).email_sender).to.equal(null);
  });

  it('refuses another merchant, a missing or cross-site token and an Authorization header, changing nothing', async () => {
    const before = { store: await store(), shipping: await shipping(), taxes: await taxes() };
    const other = await givenMerchantWithStore(api);
    const stranger = await signedInAdmin(app, other.merchant);
    const strangerCsrf = AdminBrowser.csrfOf(await stranger.get('/admin/stores/new'));
    for (const path of ['', '/store', '/shipping', '/taxes', '/payments', '/notifications']) {
      const page = await stranger.get(settings(path));
      expect(page.status, path).to.equal(404);
      expect(page.html).to.not.contain(before.store.name.replace(/&/g, '&amp;').replace(/</g, '&lt;'));
    }
    const posts: [string, Record<string, string>][] = [
      ['/store', { name: 'Taken', locale: 'en' }],
      ['/shipping', { rows: '1', r0_name: 'X', r0_code: 'x', r0_price: '1', r0_country: 'US' }],
      ['/taxes', { rows: '1', r0_country: 'US', r0_name: 'X', r0_rate: '1' }],
      ['/payments/manual', { enabled: 'on', instructions: 'Taken' }],
      ['/notifications', { name: 'Taken', email: 'taken@example.com' }],
    ];
    for (const [path, fields] of posts) expect((await stranger.post(settings(path), { csrf_token: strangerCsrf, ...fields })).status, path).to.equal(404);

    const csrf = AdminBrowser.csrfOf(await browser.get(settings('/store')));
    for (const [path, fields] of posts) {
      expect((await browser.post(settings(path), fields)).status, `${path} without a token`).to.equal(403);
      expect((await browser.post(settings(path), { ...fields, csrf_token: strangerCsrf })).status, `${path} with another’s token`).to.equal(403);
      expect((await browser.post(settings(path), { ...fields, csrf_token: csrf }, { 'sec-fetch-site': 'cross-site' })).status, `${path} cross-site`).to.equal(
        403,
      );
    }
    const bearer = await new AdminBrowser(app.url, '127.0.0.1').get(settings('/payments'), { authorization: `Bearer ${shop.merchant.token}` });
    expect(bearer.status).to.equal(403);
    expect({ store: await store(), shipping: await shipping(), taxes: await taxes() }).to.deep.equal(before);
    expect((await provider('manual')).instructions).to.equal('Pay <i>by</i> bank transfer.');
  });
});
