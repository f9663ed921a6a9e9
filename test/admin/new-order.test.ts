import { expect } from 'chai';
import { AdminBrowser, signedInAdmin } from '../helpers/admin.js';
import { useTestApp } from '../helpers/app.js';
import { givenLocation, givenProduct, givenStockedVariant } from '../helpers/catalog.js';
import { givenCustomer } from '../helpers/customers.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';

/**
 * The admin's Create order (docs/admin.md, Orders): lines chosen through the page's query string
 * (a search of the catalog, Add links), the order form through the orders service of
 * `POST /v1/orders` (a customer found by email, an address, shipping, paid or pending, a custom
 * line), one order however often a form is sent, and the refusals: stock short (a message,
 * nothing made), the schema's issues at their fields, another merchant's store, another store's
 * variant in the address, a missing or cross-site token, a bearer header; titles escaped.
 */
describe('Admin: Create order', () => {
  const { app, api } = useTestApp('admin_new_order');
  let shop: GivenMerchantWithStore;
  let browser: AdminBrowser;
  let location: string;
  let mug: { product: string; variant: string };
  let tee: { id: string; variants: { id: string }[] };
  const page = (query = '') => `/admin/stores/${shop.store.id}/orders/new${query}`;
  const stock = async (variant: string) =>
    (await api.get(`/v1/inventory/levels?variant_id=${variant}&location_id=${location}`, shop.as)).body.data[0]?.available as number;
  const orderCount = async () => (await api.get('/v1/orders?limit=250', shop.as)).body.data.length as number;
  const unescape = (href: string) => href.replace(/&amp;/g, '&');
  /** The form's own fields of a page (its CSRF token and form key), to post with `fields`. */
  const formOf = (html: string) => ({
    csrf_token: AdminBrowser.csrfOf({ html } as never),
    form_key: /name="form_key" value="([^"]+)"/.exec(html)![1]!,
  });

  before(async () => {
    shop = await givenMerchantWithStore(api);
    browser = await signedInAdmin(app, shop.merchant);
    location = await givenLocation(api, shop.as);
    mug = await givenStockedVariant(api, shop.as, location, 5, 1200);
    tee = await givenProduct(api, shop.as, {
      title: '<b>Harbour</b> Tee',
      options: [{ name: 'Size', values: ['S', 'M'] }],
      variants: [
        { option_values: ['S'], price: 2400, sku: 'TEE-S', inventory_tracked: false },
        { option_values: ['M'], price: 2600, sku: 'TEE-M', inventory_tracked: false },
      ],
    });
  });

  it('is linked from the orders list, searches the catalog and adds lines through its query string, escaped', async () => {
    expect((await browser.get(`/admin/stores/${shop.store.id}/orders`)).html).to.contain(`href="${page()}"`);
    const found = await browser.get(page('?q=harbour'));
    expect(found.status).to.equal(200);
    expect(found.html).to.contain('&lt;b&gt;Harbour&lt;/b&gt; Tee · S').and.contain('TEE-M').and.not.contain('<b>Harbour</b>');
    expect(found.html).to.contain('$24.00').and.not.contain('Item ');
    const add = unescape(new RegExp(`href="([^"]+lines=${tee.variants[1]!.id}%3A1[^"]*)"`).exec(found.html)![1]!);
    expect(add).to.contain('q=harbour');

    const once = await browser.get(add);
    expect(once.html)
      .to.contain(`name="variant_0" value="${tee.variants[1]!.id}"`)
      .and.match(/name="quantity_0"[^>]*value="1"/);
    // Add again: one more unit on its line; another product: a line of its own.
    const again = await browser.get(unescape(new RegExp(`href="([^"]+lines=${tee.variants[1]!.id}%3A2[^"]*)"`).exec(once.html)![1]!));
    expect(again.html).to.match(/name="quantity_0"[^>]*value="2"/);
    const both = await browser.get(page(`?lines=${tee.variants[1]!.id}:2,${mug.variant}:1&q=item`));
    expect(both.html).to.contain(`name="variant_1" value="${mug.variant}"`).and.contain('Item ');
    // Remove: the page without that line.
    expect(both.html).to.contain(`href="${page(`?lines=${mug.variant}%3A1&amp;q=item`)}"`);
  });

  it('drops a malformed line and another store’s variant from its address with a message, never an error', async () => {
    const other = await givenMerchantWithStore(api);
    const theirs = await givenProduct(api, other.as, { title: 'Not yours' });
    const shown = await browser.get(page(`?lines=${theirs.variants[0].id}:1,nonsense,${mug.variant}:0,${mug.variant}:2`));
    expect(shown.status).to.equal(200);
    expect(shown.html).to.contain('1 product of this page’s address is not in this store and left out.');
    expect(shown.html).to.contain('2 lines of this page’s address could not be read and are left out.');
    expect(shown.html).to.contain(`name="variant_0" value="${mug.variant}"`).and.not.contain(theirs.variants[0].id).and.not.contain('Not yours');
    expect((await browser.get(page('?lines=' + 'a'.repeat(5000)))).status).to.equal(200);
    expect((await browser.get(page('?sort=title'))).status).to.equal(400);
  });

  it('creates a paid order for the customer with that email, with an address and shipping, committing its stock', async () => {
    const customer = await givenCustomer(api, shop.as, { email: `ada-${Date.now()}@example.com`, first_name: 'Ada' });
    const before = await stock(mug.variant);
    const form = await browser.get(page(`?lines=${mug.variant}:2`));
    const made = await browser.post(page(), {
      ...formOf(form.html),
      variant_0: mug.variant,
      quantity_0: '2',
      custom_quantity: '1',
      email: customer.email.toUpperCase(),
      first_name: 'Ada',
      last_name: 'Lovelace',
      address1: '12 Harbour Street',
      city: 'Bristol',
      zip: 'BS1 4RN',
      country_code: 'gb',
      shipping_title: 'Royal Mail',
      shipping_price: '4.95',
      financial_status: 'paid',
      location_id: location,
      note: 'Paid by bank transfer',
    });
    expect(made.status, made.html.slice(0, 2000)).to.equal(303);
    const id = /\/orders\/([0-9a-f]{24})$/.exec(made.location!)![1]!;
    const o = (await api.get(`/v1/orders/${id}`, shop.as)).body.data;
    expect(o.customer_id).to.equal(customer.id);
    expect(o.financial_status).to.equal('paid');
    expect(o.line_items.map((l: any) => [l.variant_id, l.quantity, l.location_id])).to.deep.equal([[mug.variant, 2, location]]);
    expect(o.shipping_address).to.include({ address1: '12 Harbour Street', city: 'Bristol', country_code: 'GB', province_code: null });
    expect(o.shipping_line).to.include({ title: 'Royal Mail', price: 495 });
    expect([o.subtotal, o.total, o.paid_amount]).to.deep.equal([2400, 2400 + 495 + o.tax_total, o.total]);
    expect(o.note).to.equal('Paid by bank transfer');
    expect(await stock(mug.variant)).to.equal(before - 2);
    expect((await browser.get(made.location!)).html).to.contain(`Order #${o.number} is created.`);
  });

  it('creates a pending order with a custom line and no customer', async () => {
    const form = await browser.get(page());
    expect(form.html).to.contain('No products yet');
    const made = await browser.post(page(), { ...formOf(form.html), custom_title: 'Engraving <i>gold</i>', custom_price: '7.50', custom_quantity: '2' });
    expect(made.status, made.html.slice(0, 2000)).to.equal(303);
    const o = (await api.get(`/v1/orders/${/([0-9a-f]{24})$/.exec(made.location!)![1]}`, shop.as)).body.data;
    expect(o).to.include({ financial_status: 'pending', customer_id: null, email: null, subtotal: 1500 });
    expect(o.line_items[0]).to.include({ variant_id: null, title: 'Engraving <i>gold</i>', unit_price: 750, quantity: 2 });
  });

  it('makes one order when the same form is sent twice', async () => {
    const form = await browser.get(page(`?lines=${tee.variants[0]!.id}:1`));
    const fields = { ...formOf(form.html), variant_0: tee.variants[0]!.id, quantity_0: '1', custom_quantity: '1', financial_status: 'pending' };
    const count = await orderCount();
    const [a, b] = [await browser.post(page(), fields), await browser.post(page(), fields)];
    expect([a.status, b.status]).to.deep.equal([303, 303]);
    expect(b.location).to.equal(a.location);
    expect(await orderCount()).to.equal(count + 1);
  });

  it('shows stock short, a coupon that does not apply and the schema’s issues on the form, input kept, nothing made', async () => {
    const form = await browser.get(page(`?lines=${mug.variant}:1`));
    const count = await orderCount();
    const available = await stock(mug.variant);
    const base = { ...formOf(form.html), variant_0: mug.variant, custom_quantity: '1', email: 'walk-in@example.com' };

    const short = await browser.post(page(), { ...base, quantity_0: '99' });
    expect(short.status).to.equal(409);
    expect(short.html)
      .to.contain('Not enough stock for this order')
      .and.match(new RegExp(`Item [0-9a-f]{6}: 99 requested, ${available} available`))
      .and.contain('value="walk-in@example.com"')
      .and.match(/name="quantity_0"[^>]*value="99"/);

    const coupon = await browser.post(page(), { ...base, quantity_0: '1', coupon_code: 'NOPE' });
    expect(coupon.status).to.equal(400);
    expect(coupon.html).to.contain('The coupon cannot be used on this order: not_found').and.contain('value="NOPE"');

    const bad = await browser.post(page(), { ...base, quantity_0: 'two', email: 'not an email', shipping_price: '4.999', address1: '1 Main St' });
    expect(bad.status).to.equal(400);
    expect(bad.html).to.contain('must be a whole number').and.contain('must be an email address').and.contain('value="4.999"');
    expect(bad.html)
      .to.match(/id="f-city-error"[^>]*>is required/)
      .and.match(/id="f-shipping_price-error"/)
      .and.not.contain('Add at least one product');

    const huge = await browser.post(page(), { ...base, quantity_0: '200000', custom_title: 'Crate', custom_price: '99999999999', custom_quantity: '9' });
    expect(huge.status).to.equal(400);
    expect(huge.html)
      .to.match(/id="f-quantity_0-error"[^>]*>Too big/)
      .and.match(/id="f-custom_price-error"[^>]*>Too big/);

    const theirs = await givenProduct(api, (await givenMerchantWithStore(api)).as, { title: 'Not yours' });
    const foreign = await browser.post(page(), { ...base, variant_0: theirs.variants[0].id, quantity_0: '1', custom_title: 'Crate', custom_price: '1' });
    expect(foreign.status).to.equal(400);
    expect(foreign.html).to.contain('A product of this order is not in this store any more: it is left out').and.not.contain('Not yours');

    const empty = await browser.post(page(), { ...formOf(form.html), variant_0: mug.variant, quantity_0: '0', custom_quantity: '1' });
    expect(empty.status).to.equal(400);
    expect(empty.html).to.contain('Add at least one product or a custom line');
    expect(await orderCount()).to.equal(count);
    expect(await stock(mug.variant)).to.equal(available);
  });

  it('refuses another merchant, a missing or cross-site token and a bearer header, making nothing', async () => {
    const count = await orderCount();
    const other = await givenMerchantWithStore(api);
    const stranger = await signedInAdmin(app, other.merchant);
    const theirs = await stranger.get(page());
    expect(theirs.status).to.equal(404);
    const strangerCsrf = AdminBrowser.csrfOf(await stranger.get('/admin/stores/new'));
    expect((await stranger.post(page(), { csrf_token: strangerCsrf, custom_title: 'X', custom_price: '1', custom_quantity: '1' })).status).to.equal(404);

    const form = await browser.get(page());
    const fields = { custom_title: 'X', custom_price: '1', custom_quantity: '1' };
    for (const [sent, headers] of [
      [fields, {}],
      [{ ...fields, csrf_token: strangerCsrf }, {}],
      [{ ...fields, ...formOf(form.html) }, { 'sec-fetch-site': 'cross-site' }],
    ] as const) {
      expect((await browser.post(page(), sent, headers)).status, JSON.stringify(sent)).to.equal(403);
    }
    expect((await browser.get(page(), { authorization: `Bearer ${shop.merchant.token}` })).status).to.equal(403);
    expect(await orderCount()).to.equal(count);
  });
});
