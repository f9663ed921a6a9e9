import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { readOutbox } from '../../src/messages/index.js';
import { useTestApp } from '../helpers/app.js';
import { givenProduct } from '../helpers/catalog.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { csrfIn, placeFields, ShopBrowser } from '../helpers/shop.js';
import { bundleOf } from '../helpers/theme-uploads.js';

/**
 * A shopper's orders, addresses and consent in the shop (docs/shop.md, docs/customer-accounts.md):
 * guest orders joined to the account when the email is proven, saved addresses at checkout, the
 * country's province select and its rules, addresses printed in the country's order, newsletter.
 */
describe('Shop: guest orders claimed, saved addresses, provinces, newsletter', () => {
  const { app, api } = useTestApp('shop-customers');
  const US = {
    first_name: 'Ada',
    last_name: 'Lovelace',
    address1: '12 Hudson Street',
    city: 'New York',
    province_code: 'NY',
    zip: '10013',
    country_code: 'US',
  };

  async function openShop(): Promise<{ shop: GivenMerchantWithStore; variant: string }> {
    const shop = await givenMerchantWithStore(api);
    const bundle = bundleOf('aurora');
    bundle.package.slug = `aurora-${randomBytes(3).toString('hex')}`;
    expect((await api.post('/v1/themes/packages/upload', { bundle, submission_mode: 'private_install' }, { token: shop.merchant.token })).status).to.equal(201);
    expect((await api.post(`/v1/themes/${bundle.package.slug}/install`, { store_id: shop.store.id }, { token: shop.merchant.token })).status).to.equal(201);
    await api.put(
      '/v1/shipping',
      {
        rates: [
          { code: 'standard', name: 'Standard', price: 900, country_code: 'US' },
          { code: 'standard', name: 'World', price: 2000, country_code: '*' },
        ],
      },
      shop.as,
    );
    await api.put('/v1/payments/providers/sandbox', { enabled: true, credentials: { key_secret: `shop_${randomBytes(12).toString('hex')}` } }, shop.as);
    const product = await givenProduct(api, shop.as, { title: 'Linen Throw', handle: 'linen-throw', variants: [{ price: 4500, inventory_tracked: false }] });
    return { shop, variant: product.variants[0].id };
  }
  const browser = (shop: GivenMerchantWithStore) => new ShopBrowser(app.url, `${shop.store.subdomain}.localhost`);

  /** A checkout through the shop's pages: answers the order's id. */
  async function checkout(
    b: ShopBrowser,
    variant: string,
    email: string,
    address: Record<string, string> = US,
    extra: Record<string, string> = {},
  ): Promise<string> {
    const before = csrfIn((await b.get('/account')).html);
    await b.post('/cart/add', { id: variant, quantity: '1', ...(before ? { csrf_token: before } : {}) });
    const token = csrfIn((await b.get('/checkout')).html)!;
    const info = await b.post('/checkout/information', { email, ...address, ...extra, csrf_token: token });
    expect([info.status, info.location], info.html.slice(0, 2000)).to.deep.equal([303, '/checkout/shipping']);
    const shipping = await b.get('/checkout/shipping');
    const placed = await b.post('/checkout/place', { ...placeFields(shipping.html), shipping_option: 'standard', payment_provider: 'sandbox' });
    expect(placed.status).to.equal(303);
    return placed.location!.split('/')[3]!;
  }

  async function activationToken(email: string): Promise<string> {
    const [message] = (await readOutbox(app.platform, email)).filter((m) => m.kind === 'account_activation');
    return /emp_csact_[A-Za-z0-9_-]{43}/.exec(message!.text!)![0];
  }

  let a: { shop: GivenMerchantWithStore; variant: string };
  let other: { shop: GivenMerchantWithStore; variant: string };
  before(async () => {
    a = await openShop();
    other = await openShop();
  });

  it('claims a guest’s orders when the sign-up is activated: that email’s, in that store, counted once', async () => {
    const email = `guest-${randomBytes(4).toString('hex')}@example.com`;
    const guest = browser(a.shop);
    const mine = await checkout(guest, a.variant, email);
    const someoneElses = await checkout(browser(a.shop), a.variant, `someone-${randomBytes(4).toString('hex')}@example.com`);
    const otherStores = await checkout(browser(other.shop), other.variant, email);

    // Sign-up with the email of the guest order: it proves nothing, so no account yet; the message's token does.
    const b = browser(a.shop);
    const form = await b.get('/account/register');
    const signedUp = await b.post('/account/register', { email, password: 'a-long-password', csrf_token: csrfIn(form.html) ?? '' });
    expect([signedUp.status, signedUp.location]).to.deep.equal([303, '/account/activate']);
    const page = await b.get('/account/activate');
    expect(page.html).to.include('we sent it a message');
    expect((await b.get('/account')).location).to.equal('/account/login');

    // Another store's shop refuses this store's token, and leaves it usable.
    const token = await activationToken(email);
    const elsewhere = browser(other.shop);
    const wrong = await elsewhere.post('/account/activate', {
      token,
      password: 'a-longer-password',
      csrf_token: csrfIn((await elsewhere.get('/account/activate')).html) ?? '',
    });
    expect(wrong.status).to.equal(401);

    // The email's link is the shop's own activation page with the token (both parts).
    const [message] = (await readOutbox(app.platform, email)).filter((m) => m.kind === 'account_activation');
    const link = `/account/activate?token=${token}`;
    expect(message!.text).to.include(link);
    expect(message!.html).to.include(`${link}"`).and.include('Activate your account');
    const activate = await b.get(link);
    expect(activate.html).to.include(token);
    const done = await b.post('/account/activate', { token, password: 'a-longer-password', csrf_token: csrfIn(activate.html) ?? '' });
    expect([done.status, done.location]).to.deep.equal([303, '/account']);
    const account = await b.get('/account');
    expect(account.html).to.include(`/checkout/orders/${mine}`);
    expect(account.html).not.to.include(someoneElses);

    // The orders API agrees: the order is the customer's, the customer's stats count it once, and the other store's order is still a guest's.
    const order = await api.get(`/v1/orders/${mine}`, a.shop.as);
    const customerId = (order.body as { data: { customer_id: string } }).data.customer_id;
    expect(customerId).to.be.a('string');
    const customer = await api.get(`/v1/customers/${customerId}`, a.shop.as);
    expect((customer.body as { data: { orders_count: number } }).data.orders_count).to.equal(1);
    expect(((await api.get(`/v1/orders/${someoneElses}`, a.shop.as)).body as { data: { customer_id: unknown } }).data.customer_id).to.equal(null);
    expect(((await api.get(`/v1/orders/${otherStores}`, other.shop.as)).body as { data: { customer_id: unknown } }).data.customer_id).to.equal(null);
    // Another merchant cannot read this store's order.
    expect((await api.get(`/v1/orders/${mine}`, other.shop.as)).status).to.equal(404);
  });

  it('a bare sign-up with a new email opens the account at once and claims nothing', async () => {
    const email = `fresh-${randomBytes(4).toString('hex')}@example.com`;
    const b = browser(a.shop);
    const form = await b.get('/account/register');
    const signedUp = await b.post('/account/register', { email, password: 'a-long-password', csrf_token: csrfIn(form.html) ?? '' });
    expect([signedUp.status, signedUp.location]).to.deep.equal([303, '/account']);
    expect((await b.get('/account')).html).to.include('You have not placed any orders yet');
  });

  it('saves a checkout address once (the first the default) and offers it at the next checkout', async () => {
    const email = `saver-${randomBytes(4).toString('hex')}@example.com`;
    const b = browser(a.shop);
    const form = await b.get('/account/register');
    expect((await b.post('/account/register', { email, password: 'a-long-password', csrf_token: csrfIn(form.html) ?? '' })).location).to.equal('/account');
    const start = await b.get('/account');
    expect(start.html).to.include('No saved addresses');
    await checkout(b, a.variant, email, US, { save_address: 'on' });
    await checkout(b, a.variant, email, { ...US, first_name: 'ada' }, { save_address: 'on' }); // the same, case aside: not saved again
    const account = await b.get('/account');
    expect(account.html.match(/12 Hudson Street/g)).to.have.length(1);
    expect(account.html).to.include('New York, New York 10013');
    expect(account.html).to.include('Default');

    await b.post('/cart/add', { id: a.variant, quantity: '1', csrf_token: csrfIn((await b.get('/account')).html) ?? '' });
    const page = await b.get('/checkout');
    expect(page.html).to.include('Use a saved address');
    expect(page.html).to.include('Save this address to my account');
    const id = /<option value="([a-f0-9]{24})" selected>/.exec(page.html)![1]!;
    const filled = await b.get(`/checkout?address=${id}`);
    expect(filled.html).to.include('value="12 Hudson Street"');
    // A guest is offered neither.
    const guest = browser(a.shop);
    await guest.post('/cart/add', { id: a.variant, quantity: '1' });
    const guestPage = await guest.get('/checkout');
    expect(guestPage.html).not.to.include('Save this address');
    expect(guestPage.html).not.to.include('Use a saved address');
  });

  it('preselects the country and asks for the country’s province: a select of its subdivisions, validated', async () => {
    const b = browser(a.shop);
    await b.post('/cart/add', { id: a.variant, quantity: '1' });
    const page = await b.get('/checkout');
    expect(page.html).to.include('<option value="US" selected>United States</option>');
    expect(page.html).to.match(/<select id="f-province_code" name="province_code"/);
    expect(page.html).to.include('<option value="NY">New York</option>');
    expect(page.html).to.include('>State');
    expect(page.html).to.include('/assets/scripts/checkout-address.js');
    const token = csrfIn(page.html)!;
    const email = 'provinces@example.com';
    const missing = await b.post('/checkout/information', { ...US, email, province_code: '', csrf_token: token });
    expect(missing.status).to.equal(400);
    expect(missing.html).to.include('choose a state');
    const foreign = await b.post('/checkout/information', { ...US, email, province_code: 'ON', csrf_token: token });
    expect(foreign.status).to.equal(400);
    expect(foreign.html).to.include('choose a state of this country');
    // The country changed without JavaScript: the form comes back with Japan's prefectures, what was typed kept.
    const japan = await b.post('/checkout/information', { ...US, email, country_code: 'JP', province_code: 'NY', csrf_token: token });
    expect(japan.status).to.equal(400);
    expect(japan.html).to.include('Prefecture');
    expect(japan.html).to.include('<option value="13">Tokyo</option>');
    expect(japan.html).to.include('value="12 Hudson Street"');
    // Germany names no province: one left from before is dropped.
    const germany = await b.post('/checkout/information', {
      ...US,
      email,
      country_code: 'DE',
      city: 'Berlin',
      zip: '10115',
      province_code: 'NY',
      csrf_token: token,
    });
    expect([germany.status, germany.location]).to.deep.equal([303, '/checkout/shipping']);
    // The script's data.
    const format = await b.get('/checkout/address-format/JP');
    const body = JSON.parse(format.html) as { province: { label: string; required: boolean }; provinces: { code: string; name: string }[] };
    expect(body.province).to.deep.include({ label: 'Prefecture', required: true });
    expect(body.provinces).to.deep.include({ code: '13', name: 'Tokyo' });
    expect((await b.get('/checkout/address-format/QQ')).status).to.equal(404);
  });

  it('prints addresses in the country’s order with the province’s name (US, JP, GB, DE)', async () => {
    const cases: [Record<string, string>, string][] = [
      [US, 'Ada Lovelace<br>12 Hudson Street<br>New York, New York 10013<br>United States'],
      [
        { last_name: 'Tanaka', address1: '1-2-3 Shibuya', city: 'Shibuya-ku', province_code: '13', zip: '150-0002', country_code: 'JP' },
        'Tanaka<br>1-2-3 Shibuya, Shibuya-ku, Tokyo<br>150-0002<br>Japan',
      ],
      [
        { last_name: 'Smith', address1: '10 Downing Street', city: 'London', zip: 'SW1A 2AA', country_code: 'GB' },
        'Smith<br>10 Downing Street<br>London<br>SW1A 2AA<br>United Kingdom',
      ],
      [
        { last_name: 'Müller', address1: 'Hauptstraße 5', city: 'Berlin', zip: '10115', country_code: 'DE' },
        'Müller<br>Hauptstraße 5<br>10115 Berlin<br>Germany',
      ],
    ];
    for (const [address, printed] of cases) {
      const b = browser(a.shop);
      const id = await checkout(b, a.variant, 'printed@example.com', address);
      const confirmation = await b.get(`/checkout/orders/${id}`);
      expect(confirmation.html, address.country_code).to.include(printed);
    }
  });

  it('refuses a province of another country in the API too (400), and takes none where the country names none', async () => {
    const bad = await api.post(
      '/v1/orders',
      { email: 'api@example.com', line_items: [{ variant_id: a.variant, quantity: 1 }], shipping_address: { ...US, province_code: 'ON' } },
      a.shop.as,
    );
    expect(bad.status, JSON.stringify(bad.body)).to.equal(400);
    expect(JSON.stringify(bad.body)).to.include('province_code');
  });

  it('signs up for the newsletter: a subscribed customer once, no account, an invalid email a 400', async () => {
    const email = `news-${randomBytes(4).toString('hex')}@example.com`;
    const b = browser(a.shop);
    const home = await b.get('/');
    expect(home.html).to.include('action="/contact"');
    expect(home.html).to.include('name="contact[email]"');
    const fields = { form_type: 'customer', 'contact[email]': email, 'contact[tags]': 'newsletter', form_id: 'email-form-thanks' };
    const first = await b.post('/contact', fields, { Referer: `${app.url}/collections/all` });
    expect(first.status).to.equal(303);
    expect(first.location).to.match(/customer_posted=true#email-form-thanks$/);
    const again = await b.post('/contact', fields);
    expect([again.status, again.location]).to.deep.equal([303, '/?customer_posted=true#email-form-thanks']);
    const list = await api.get(`/v1/customers?query=${encodeURIComponent(email)}`, a.shop.as);
    const found = (list.body as { data: { email: string; accepts_marketing: boolean; tags: string[] }[] }).data;
    expect(found.map((c) => [c.email, c.accepts_marketing, c.tags])).to.deep.equal([[email, true, ['newsletter']]]);
    // Another store knows nothing of it.
    const there = await api.get(`/v1/customers?query=${encodeURIComponent(email)}`, other.shop.as);
    expect((there.body as { data: unknown[] }).data).to.deep.equal([]);
    // No account: the email cannot log in.
    const login = await api.post('/v1/storefront/customer/login', { subdomain: a.shop.store.subdomain, email, password: 'anything-at-all' });
    expect(login.status).to.equal(401);
    const invalid = await b.post('/contact', { ...fields, 'contact[email]': 'not-an-email' });
    expect(invalid.status).to.equal(400);
    expect(invalid.html).to.include('enter an email address');
  });
});
