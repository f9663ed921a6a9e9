import { expect } from 'chai';
import { AdminBrowser, signedInAdmin } from '../helpers/admin.js';
import { useTestApp } from '../helpers/app.js';
import { givenLocation, givenStockedVariant } from '../helpers/catalog.js';
import { anAddress, givenCustomer } from '../helpers/customers.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { givenOrder } from '../helpers/orders.js';

/**
 * The admin's Orders (docs/admin.md, Orders): the list (filters, pages over the API's cursors,
 * badges, empty states) and an order's page (lines, customer, addresses, shipping, payments,
 * timeline) with its actions through the orders services and their guards: fulfil, refund, mark
 * paid, cancel after a confirm step. Refusals: another merchant's store or order (404, nothing
 * changed), a missing or cross-site token, errors at their fields with the input kept, the API's
 * refusals as messages on the page.
 */
describe('Admin: Orders', () => {
  const { app, api } = useTestApp('admin_orders');
  let shop: GivenMerchantWithStore;
  let browser: AdminBrowser;
  let location: string;
  let mug: { product: string; variant: string };
  const stock = async (variant: string) =>
    (await api.get(`/v1/inventory/levels?variant_id=${variant}&location_id=${location}`, shop.as)).body.data[0]?.available as number;
  const order = async (id: string) => (await api.get(`/v1/orders/${id}`, shop.as)).body.data;
  const orders = (path = '') => `/admin/stores/${shop.store.id}/orders${path}`;

  /** A paid order of two mugs and a custom line, to a customer whose name is markup, shipped to an address, with a shipping line. */
  async function givenPaidOrder() {
    const customer = await givenCustomer(api, shop.as, { first_name: '<b>Ada</b>', last_name: 'Lovelace', email: `ada-${Date.now()}@example.com` });
    return givenOrder(api, shop.as, {
      customer_id: customer.id,
      financial_status: 'paid',
      line_items: [
        { variant_id: mug.variant, quantity: 2 },
        { title: 'Gift wrap <i>deluxe</i>', price: 300, quantity: 1 },
      ],
      shipping_address: anAddress({ first_name: 'Ada', last_name: 'Lovelace', city: 'London', country_code: 'GB', zip: 'N1 1AA' }),
      shipping_line: { title: 'Royal Mail', price: 500 },
    });
  }

  before(async () => {
    shop = await givenMerchantWithStore(api);
    browser = await signedInAdmin(app, shop.merchant);
    location = await givenLocation(api, shop.as);
    mug = await givenStockedVariant(api, shop.as, location, 20, 1200);
  });

  it('says what to do when there are no orders yet', async () => {
    const list = await browser.get(orders());
    expect(list.status).to.equal(200);
    expect(list.html).to.contain('No orders yet').and.contain('aria-current="page">Orders');
  });

  it('lists orders newest first with their states, filters them as the API does, and pages through them', async () => {
    const first = await givenPaidOrder();
    const second = await givenOrder(api, shop.as);
    const third = await givenOrder(api, shop.as, { email: 'grace@hopper.example' });
    const list = await browser.get(orders());
    expect(list.status).to.equal(200);
    const numbers = [...list.html.matchAll(/>#(\d+)<\/a>/g)].map((m) => Number(m[1]));
    expect(numbers).to.deep.equal([third.number, second.number, first.number]);
    expect(list.html).to.contain('&lt;b&gt;Ada&lt;/b&gt; Lovelace').and.not.contain('<b>Ada</b>');
    expect(list.html).to.contain('badge--ok">paid').and.contain('badge--warn">pending').and.contain('badge--warn">unfulfilled');

    const byEmail = await browser.get(orders('?q=grace%40hopper.example'));
    expect([...byEmail.html.matchAll(/>#(\d+)<\/a>/g)].map((m) => Number(m[1]))).to.deep.equal([third.number]);
    expect(byEmail.html).to.contain('value="grace@hopper.example"').and.contain('Clear filters');
    const none = await browser.get(orders('?status=cancelled'));
    expect(none.html).to.contain('No order matches these filters.');
    const paid = await browser.get(orders('?financial_status=paid&fulfillment_status=unfulfilled%2Cpartial'));
    expect([...paid.html.matchAll(/>#(\d+)<\/a>/g)].map((m) => Number(m[1]))).to.deep.equal([first.number]);

    // A page at a time: Next carries the API's cursor, Previous the trail back.
    const one = await browser.get(orders('?limit=1'));
    const next = /rel="next" href="([^"]+)"/.exec(one.html)![1]!.replace(/&amp;/g, '&');
    const two = await browser.get(next);
    expect([...two.html.matchAll(/>#(\d+)<\/a>/g)].map((m) => Number(m[1]))).to.deep.equal([second.number]);
    expect(two.html).to.contain('rel="prev"');
    expect((await browser.get(orders('?status=closed'))).status).to.equal(400);
  });

  it('shows an order: lines, customer, address, shipping, payments and its timeline, escaped', async () => {
    const o = await givenPaidOrder();
    const page = await browser.get(orders(`/${o.id}`));
    expect(page.status).to.equal(200);
    expect(page.html).to.contain(`Order #${o.number}`).and.contain('Gift wrap &lt;i&gt;deluxe&lt;/i&gt;').and.not.contain('<i>deluxe');
    expect(page.html).to.contain('&lt;b&gt;Ada&lt;/b&gt; Lovelace').and.contain('London').and.contain('Royal Mail');
    expect(page.html).to.contain('Order placed (by the merchant)').and.contain('Payment of');
    expect(page.html)
      .to.contain(`action="${orders(`/${o.id}/fulfil`)}"`)
      .and.contain(`action="${orders(`/${o.id}/refund`)}"`);
  });

  it('fulfils some lines with tracking (303, flash), keeping input and saying errors at their fields', async () => {
    const o = await givenPaidOrder();
    const [mugLine, wrapLine] = o.line_items;
    const page = orders(`/${o.id}`);
    const bad = await browser.submit(page, `${page}/fulfil`, {
      location_id: location,
      [`ship_${mugLine.id}`]: 'two',
      [`ship_${wrapLine.id}`]: '0',
      tracking_number: 'TRK <1>',
      tracking_url: 'javascript:alert(1)',
    });
    expect(bad.status).to.equal(400);
    expect(bad.html).to.contain('must be a whole number of units').and.contain('value="two"').and.contain('value="TRK &lt;1&gt;"');
    expect(bad.html).to.match(/id="f-tracking_url"[^>]*aria-invalid="true"/);

    const over = await browser.submit(page, `${page}/fulfil`, { location_id: location, [`ship_${mugLine.id}`]: '3', [`ship_${wrapLine.id}`]: '0' });
    expect(over.status).to.equal(409);
    expect(over.html).to.contain('That is more than is left to fulfil');

    const done = await browser.submit(page, `${page}/fulfil`, {
      location_id: location,
      [`ship_${mugLine.id}`]: '1',
      [`ship_${wrapLine.id}`]: '0',
      tracking_number: 'TRK-1',
      tracking_url: 'https://track.example/TRK-1',
    });
    expect(done.status).to.equal(303);
    expect(done.location).to.equal(page);
    const after = await order(o.id);
    expect(after.fulfillment_status).to.equal('partial');
    expect(after.fulfillments[0]).to.include({ tracking_number: 'TRK-1', tracking_url: 'https://track.example/TRK-1' });
    const shown = await browser.get(page);
    expect(shown.html).to.contain('Fulfilled 1 unit.').and.contain('href="https://track.example/TRK-1"').and.contain('badge--warn">partial');
  });

  it('refunds a line with restock once however often the form is sent, and shows an over-refund as a message', async () => {
    const o = await givenPaidOrder();
    const [mugLine] = o.line_items;
    const page = orders(`/${o.id}`);
    await browser.submit(page, `${page}/fulfil`, { location_id: location, [`ship_${mugLine.id}`]: '2', [`ship_${o.line_items[1].id}`]: '1' });
    const before = await stock(mug.variant);

    const over = await browser.submit(page, `${page}/refund`, { amount: '100000' });
    expect(over.status).to.equal(409);
    expect(over.html).to.contain('can be refunded').and.contain('value="100000"');
    const badAmount = await browser.submit(page, `${page}/refund`, { amount: '1.234' });
    expect(badAmount.status).to.equal(400);
    expect(badAmount.html).to.match(/id="f-amount-error"[^>]*>must be an amount such as 12.50/);
    const nothing = await browser.submit(page, `${page}/refund`, {});
    expect(nothing.status).to.equal(400);
    expect(nothing.html).to.contain('Give units of lines, an amount, or both');

    // The same form sent twice (a double click): one refund.
    const form = await browser.get(page);
    const fields = {
      csrf_token: AdminBrowser.csrfOf(form),
      form_key: /name="form_key" value="([^"]+)"/.exec(form.html.slice(form.html.indexOf(`${page}/refund`)))![1]!,
      [`refund_${mugLine.id}`]: '1',
      restock: 'on',
      restock_location_id: location,
      reason: 'broken',
    };
    const [a, b] = [await browser.post(`${page}/refund`, fields), await browser.post(`${page}/refund`, fields)];
    expect([a.status, b.status]).to.deep.equal([303, 303]);
    const after = await order(o.id);
    expect(after.refunds).to.have.length(1);
    expect(after.refunds[0]).to.include({ amount: 1200, restock: true, reason: 'broken' });
    expect(after.financial_status).to.equal('partially_refunded');
    expect(await stock(mug.variant)).to.equal(before + 1);
    expect((await browser.get(page)).html)
      .to.contain('Refunded $12.00.')
      .and.contain('Refunded $12.00 for 1 × Item');
  });

  it('marks a pending order paid, and cancels an order after a confirm step; a refusal is a message on the order', async () => {
    const pending = await givenOrder(api, shop.as);
    const page = orders(`/${pending.id}`);
    expect((await browser.submit(page, `${page}/mark-paid`, {})).status).to.equal(303);
    expect((await order(pending.id)).financial_status).to.equal('paid');

    const o = await givenOrder(api, shop.as, { line_items: [{ variant_id: mug.variant, quantity: 1 }] });
    const at = orders(`/${o.id}`);
    const confirm = await browser.get(`${at}/cancel`);
    expect(confirm.status).to.equal(200);
    expect(confirm.html).to.contain(`Cancel order #${o.number}?`).and.contain(`action="${at}/cancel"`);
    const before = await stock(mug.variant);
    const cancelled = await browser.post(`${at}/cancel`, { csrf_token: AdminBrowser.csrfOf(confirm) });
    expect([cancelled.status, cancelled.location]).to.deep.equal([303, at]);
    expect((await order(o.id)).cancelled_at).to.be.a('string');
    expect(await stock(mug.variant)).to.equal(before + 1);
    const again = await browser.post(`${at}/cancel`, { csrf_token: AdminBrowser.csrfOf(confirm) });
    expect(again.status).to.equal(303);
    const shown = await browser.get(at);
    expect(shown.html).to.contain('The order is cancelled').and.contain('badge--bad">cancelled').and.not.contain('Cancel order</a>');
  });

  it('refuses another merchant, another store’s order, a missing or cross-site token, changing nothing', async () => {
    const o = await givenPaidOrder();
    const page = orders(`/${o.id}`);
    const other = await givenMerchantWithStore(api);
    const stranger = await signedInAdmin(app, other.merchant);
    const theirs = await stranger.get(page);
    expect(theirs.status).to.equal(404);
    expect(theirs.html).to.contain('Store not found').and.not.contain(`#${o.number}`);
    const strangerCsrf = AdminBrowser.csrfOf(await stranger.get('/admin/stores/new'));
    expect((await stranger.post(`${page}/refund`, { csrf_token: strangerCsrf, amount: '1' })).status).to.equal(404);
    // The order in the stranger's own store's path: not theirs either.
    expect((await stranger.get(`/admin/stores/${other.store.id}/orders/${o.id}`)).status).to.equal(404);
    expect((await stranger.post(`/admin/stores/${other.store.id}/orders/${o.id}/refund`, { csrf_token: strangerCsrf, amount: '1' })).status).to.equal(404);

    const csrf = AdminBrowser.csrfOf(await browser.get(page));
    for (const [fields, headers] of [
      [{ amount: '1' }, {}],
      [{ amount: '1', csrf_token: strangerCsrf }, {}],
      [{ amount: '1', csrf_token: csrf }, { 'sec-fetch-site': 'cross-site' }],
      [{ amount: '1', csrf_token: csrf }, { origin: 'https://evil.example' }],
    ] as const) {
      const refused = await browser.post(`${page}/refund`, fields, headers);
      expect(refused.status, JSON.stringify(fields)).to.equal(403);
    }
    const bearer = await browser.get(page, { authorization: `Bearer ${shop.merchant.token}` });
    expect(bearer.status).to.equal(403);
    expect((await order(o.id)).refunds).to.deep.equal([]);
  });
});
