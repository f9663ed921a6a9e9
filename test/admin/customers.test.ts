import { expect } from 'chai';
import { AdminBrowser, signedInAdmin } from '../helpers/admin.js';
import { useTestApp } from '../helpers/app.js';
import { givenAddress, givenCustomer } from '../helpers/customers.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { givenOrder } from '../helpers/orders.js';

/**
 * The admin's Customers (docs/admin.md, Customers): the list (search, pages over the API's
 * cursors, empty state), a customer's page (details, orders, addresses, total spent) with its
 * actions through the customers services: create, edit, addresses, the invitation, a privacy
 * request to the store's apps. Refusals: another merchant's store or customer (404, nothing
 * changed), a missing token, errors at their fields with the input kept, the API's refusals as
 * messages, names from the database escaped.
 */
describe('Admin: Customers', () => {
  const { app, api } = useTestApp('admin_customers');
  let shop: GivenMerchantWithStore;
  let browser: AdminBrowser;
  const customers = (path = '') => `/admin/stores/${shop.store.id}/customers${path}`;
  const customer = async (id: string) => (await api.get(`/v1/customers/${id}`, shop.as)).body.data;

  before(async () => {
    shop = await givenMerchantWithStore(api);
    browser = await signedInAdmin(app, shop.merchant);
  });

  it('says what to do when there are no customers yet', async () => {
    const list = await browser.get(customers());
    expect(list.status).to.equal(200);
    expect(list.html)
      .to.contain('No customers yet')
      .and.contain(`href="${customers('/new')}"`)
      .and.contain('aria-current="page">Customers');
  });

  it('lists customers with their orders and spending, escaped, searches them as the API does, and pages through them', async () => {
    const ada = await givenCustomer(api, shop.as, { first_name: '<b>Ada</b>', last_name: 'Lovelace', email: 'ada@lovelace.example' });
    await givenCustomer(api, shop.as, { first_name: 'Grace', last_name: 'Hopper', email: 'grace@hopper.example' });
    await givenOrder(api, shop.as, { customer_id: ada.id, financial_status: 'paid', line_items: [{ title: 'Lamp', price: 2500, quantity: 1 }] });
    const list = await browser.get(customers());
    expect(list.status).to.equal(200);
    expect(list.html).to.contain('&lt;b&gt;Ada&lt;/b&gt; Lovelace').and.not.contain('<b>Ada</b>');
    expect(list.html).to.contain('grace@hopper.example').and.contain('$25.00');

    const found = await browser.get(customers('?query=grace'));
    expect(found.html).to.contain('grace@hopper.example').and.contain('value="grace"').and.not.contain('ada@lovelace.example');
    expect((await browser.get(customers('?query=nobody'))).html).to.contain('No customer matches this search.');

    const one = await browser.get(customers('?limit=1'));
    const next = /rel="next" href="([^"]+)"/.exec(one.html)![1]!.replace(/&amp;/g, '&');
    const two = await browser.get(next);
    expect(two.status).to.equal(200);
    expect(two.html).to.contain('rel="prev"');
    expect((await browser.get(customers('?limit=0'))).status).to.equal(400);
  });

  it('adds a customer, keeping input and saying errors at their fields, and a taken email as a message at its field', async () => {
    const bad = await browser.submit(customers('/new'), customers('/new'), { email: 'not an email', first_name: '<i>Lin</i>', phone: 'call me' });
    expect(bad.status).to.equal(400);
    expect(bad.html)
      .to.contain('value="&lt;i&gt;Lin&lt;/i&gt;"')
      .and.match(/id="f-email"[^>]*aria-invalid="true"/);
    expect(bad.html).to.match(/id="f-phone"[^>]*aria-invalid="true"/);

    const made = await browser.submit(customers('/new'), customers('/new'), {
      email: 'Lin@Example.com',
      first_name: 'Lin',
      tags: 'vip, wholesale',
      accepts_marketing: 'on',
    });
    expect(made.status).to.equal(303);
    const id = /customers\/([0-9a-f]{24})$/.exec(made.location!)![1]!;
    expect(await customer(id)).to.include({ email: 'lin@example.com', first_name: 'Lin', accepts_marketing: true });
    expect((await customer(id)).tags).to.deep.equal(['vip', 'wholesale']);
    expect((await browser.get(made.location!)).html).to.contain('Lin is added.');

    const taken = await browser.submit(customers('/new'), customers('/new'), { email: 'lin@example.com' });
    expect(taken.status).to.equal(409);
    expect(taken.html).to.match(/id="f-email-error"[^>]*>A customer with that email already exists/);
  });

  it('shows a customer with their orders, addresses and total spent, and edits them', async () => {
    const c = await givenCustomer(api, shop.as, { first_name: 'Mary', last_name: 'Shelley', phone: '+44 20 7946 0000', note: 'Prefers <em>post</em>' });
    await givenAddress(api, shop.as, c.id, { city: 'Geneva', country_code: 'CH' });
    const o = await givenOrder(api, shop.as, { customer_id: c.id, financial_status: 'paid', line_items: [{ title: 'Quill', price: 1200, quantity: 2 }] });
    const page = customers(`/${c.id}`);
    const shown = await browser.get(page);
    expect(shown.status).to.equal(200);
    expect(shown.html).to.contain('Mary Shelley').and.contain('Geneva').and.contain(`#${o.number}`).and.contain('$24.00');
    expect(shown.html).to.contain('Prefers &lt;em&gt;post&lt;/em&gt;').and.contain('badge--ok">default');

    const bad = await browser.submit(page, page, { email: '', first_name: 'Mary' });
    expect(bad.status).to.equal(400);
    expect(bad.html).to.match(/id="f-email"[^>]*aria-invalid="true"/);
    const saved = await browser.submit(page, page, { email: c.email, first_name: 'Mary W.', last_name: 'Shelley', phone: '', note: '', tags: 'author' });
    expect([saved.status, saved.location]).to.deep.equal([303, page]);
    expect(await customer(c.id)).to.include({ first_name: 'Mary W.', phone: null, note: null, accepts_marketing: false });
    expect((await browser.get(page)).html).to.contain('The customer is saved.');
  });

  it('adds, edits, makes default and removes (after a confirm step) a customer’s addresses', async () => {
    const c = await givenCustomer(api, shop.as);
    const page = customers(`/${c.id}`);
    const bad = await browser.submit(page, `${page}/addresses`, { address1: '', city: 'Oslo', country_code: 'ZZ' });
    expect(bad.status).to.equal(400);
    expect(bad.html)
      .to.match(/id="f-address1"[^>]*aria-invalid="true"/)
      .and.contain('value="Oslo"');
    expect((await browser.submit(page, `${page}/addresses`, { address1: '1 Karl Johans gate', city: 'Oslo', country_code: 'no' })).status).to.equal(303);
    expect((await browser.submit(page, `${page}/addresses`, { address1: '2 Rue de Rivoli', city: 'Paris', country_code: 'FR' })).status).to.equal(303);
    const listed = (await api.get(`/v1/customers/${c.id}/addresses`, shop.as)).body.data;
    expect(listed.map((a: any) => [a.city, a.country_code, a.default])).to.deep.equal([
      ['Oslo', 'NO', true],
      ['Paris', 'FR', false],
    ]);
    const [oslo, paris] = listed;

    const edit = `${page}/addresses/${paris.id}`;
    expect((await browser.get(edit)).html).to.contain('value="2 Rue de Rivoli"');
    expect((await browser.submit(edit, edit, { address1: '3 Rue de Rivoli', city: 'Paris', country_code: 'FR' })).status).to.equal(303);
    expect((await browser.submit(page, `${edit}/default`, {})).status).to.equal(303);
    expect((await customer(c.id)).default_address_id).to.equal(paris.id);

    const confirm = await browser.get(`${page}/addresses/${oslo.id}/delete`);
    expect(confirm.status).to.equal(200);
    expect(confirm.html).to.contain('Remove this address?');
    const removed = await browser.post(`${page}/addresses/${oslo.id}/delete`, { csrf_token: AdminBrowser.csrfOf(confirm) });
    expect(removed.status).to.equal(303);
    const left = (await api.get(`/v1/customers/${c.id}/addresses`, shop.as)).body.data;
    expect(left.map((a: any) => a.address1)).to.deep.equal(['3 Rue de Rivoli']);
    // Gone: its page is a 404 page.
    expect((await browser.get(`${page}/addresses/${oslo.id}`)).status).to.equal(404);
  });

  it('invites a customer to open an account, and shows the service’s refusals as messages', async () => {
    const c = await givenCustomer(api, shop.as, { email: `invitee-${Date.now()}@example.com` });
    const page = customers(`/${c.id}`);
    const sent = await browser.submit(page, `${page}/invite`, {});
    expect(sent.status).to.equal(303);
    expect((await browser.get(page)).html).to.contain(`An invitation to open an account is sent to ${c.email}.`);
    // The invitations' rate limit (5 an hour) is a message, not an error page.
    for (let i = 0; i < 5; i++) await browser.submit(page, `${page}/invite`, {});
    const shown = await browser.get(page);
    expect(shown.status).to.equal(200);
    expect(shown.html).to.contain('role="status">Too many attempts; try again later');
  });

  it('passes a privacy request on to the store’s apps after a confirm step, once however often the form is sent', async () => {
    const c = await givenCustomer(api, shop.as);
    const page = customers(`/${c.id}`);
    for (const kind of ['data-request', 'redact']) {
      const confirm = await browser.get(`${page}/${kind}`);
      expect(confirm.status).to.equal(200);
      const fields = { csrf_token: AdminBrowser.csrfOf(confirm), form_key: /name="form_key" value="([^"]+)"/.exec(confirm.html)![1]! };
      const [a, b] = [await browser.post(`${page}/${kind}`, fields), await browser.post(`${page}/${kind}`, fields)];
      expect([a.status, b.status, a.location]).to.deep.equal([303, 303, page]);
      expect((await browser.get(page)).html).to.contain('request is sent to 0 apps.');
    }
    const recorded = await app.platform.db.collection('compliance_requests').countDocuments({ 'customer.id': c.id });
    expect(recorded).to.equal(2);
  });

  it('refuses another merchant, another store’s customer, a missing or cross-site token, changing nothing', async () => {
    const c = await givenCustomer(api, shop.as, { first_name: 'Kept' });
    const page = customers(`/${c.id}`);
    const other = await givenMerchantWithStore(api);
    const stranger = await signedInAdmin(app, other.merchant);
    const theirs = await stranger.get(page);
    expect(theirs.status).to.equal(404);
    expect(theirs.html).to.not.contain(c.email);
    const strangerCsrf = AdminBrowser.csrfOf(await stranger.get('/admin/stores/new'));
    expect((await stranger.post(page, { csrf_token: strangerCsrf, email: c.email, first_name: 'Taken' })).status).to.equal(404);
    // The customer in the stranger's own store's path: not theirs either.
    const inTheirs = `/admin/stores/${other.store.id}/customers/${c.id}`;
    expect((await stranger.get(inTheirs)).status).to.equal(404);
    expect((await stranger.post(inTheirs, { csrf_token: strangerCsrf, email: c.email, first_name: 'Taken' })).status).to.equal(404);
    expect((await stranger.post(`${inTheirs}/invite`, { csrf_token: strangerCsrf })).status).to.equal(404);
    expect((await stranger.get(`${inTheirs}/redact`)).status).to.equal(404);
    expect((await browser.get(customers('/not-an-id'))).status).to.equal(404);

    const csrf = AdminBrowser.csrfOf(await browser.get(page));
    for (const [fields, headers] of [
      [{ email: c.email, first_name: 'Taken' }, {}],
      [{ email: c.email, first_name: 'Taken', csrf_token: strangerCsrf }, {}],
      [{ email: c.email, first_name: 'Taken', csrf_token: csrf }, { 'sec-fetch-site': 'cross-site' }],
    ] as const) {
      expect((await browser.post(page, fields, headers)).status, JSON.stringify(fields)).to.equal(403);
    }
    expect((await browser.get(page, { authorization: `Bearer ${shop.merchant.token}` })).status).to.equal(403);
    expect((await customer(c.id)).first_name).to.equal('Kept');
  });
});
