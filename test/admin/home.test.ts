import { expect } from 'chai';
import { signedInAdmin } from '../helpers/admin.js';
import { useTestApp } from '../helpers/app.js';
import { givenLocation, givenStockedVariant } from '../helpers/catalog.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { givenOrder } from '../helpers/orders.js';

/**
 * The admin's Home (docs/admin.md, Home): today's and the last 30 days' orders and sales from
 * the orders domain's day figures, the orders to fulfil with a link to them, the low-stock
 * variants, the shop's address and live theme; text from the database escaped.
 */
describe('Admin: Home', () => {
  const { app, api } = useTestApp('admin_home');
  let shop: GivenMerchantWithStore;

  before(async () => {
    shop = await givenMerchantWithStore(api);
  });

  it('says a new store has no orders and nothing to ship, and where its shop is', async () => {
    const browser = await signedInAdmin(app, shop.merchant);
    const home = await browser.get(`/admin/stores/${shop.store.id}`);
    expect(home.status).to.equal(200);
    expect(home.html).to.contain('Orders today').and.contain('$0.00').and.contain('Nothing to ship');
    expect(home.html).to.contain(`http://${shop.store.subdomain}.localhost:`).and.contain('None yet: install a theme');
    expect(home.html).to.contain('No tracked variant has 5 or fewer for sale.');
  });

  it('counts the orders and sales of today and the month, the orders to fulfil, and the low stock, escaped', async () => {
    const location = await givenLocation(api, shop.as);
    const low = await givenStockedVariant(api, shop.as, location, 3, 1000);
    await api.patch(`/v1/products/${low.product}`, { title: 'Mug <script>alert(1)</script>' }, shop.as);
    const plenty = await givenStockedVariant(api, shop.as, location, 50, 2000);
    const paid = await givenOrder(api, shop.as, { financial_status: 'paid', line_items: [{ variant_id: plenty.variant, quantity: 1 }] });
    await givenOrder(api, shop.as); // pending: an order, no sale
    expect((await api.post(`/v1/orders/${paid.id}/refund`, { amount: 500 }, shop.as)).status).to.equal(200);

    const browser = await signedInAdmin(app, shop.merchant);
    const home = await browser.get(`/admin/stores/${shop.store.id}`);
    expect(home.status).to.equal(200);
    const stats = [...home.html.matchAll(/<div class="stat__label">([^<]+)<\/div>\s*<div class="stat__value">([^<]+)<\/div>/g)].map((m) => [m[1], m[2]]);
    expect(stats).to.deep.equal([
      ['Orders today', '2'],
      ['Sales today', '$15.00'],
      ['Orders, last 30 days', '2'],
      ['Sales, last 30 days', '$15.00'],
    ]);
    expect(home.html).to.match(/2\s+orders have units to ship/);
    expect(home.html).to.contain(`href="/admin/stores/${shop.store.id}/orders?status=open&amp;fulfillment_status=unfulfilled%2Cpartial"`);
    expect(home.html).to.contain('Mug &lt;script&gt;alert(1)&lt;/script&gt;').and.not.contain('<script>alert(1)');
    expect(home.html).to.contain(`/admin/stores/${shop.store.id}/products/${low.product}`);
  });
});
