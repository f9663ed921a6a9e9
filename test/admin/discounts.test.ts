import { expect } from 'chai';
import { AdminBrowser, signedInAdmin } from '../helpers/admin.js';
import { useTestApp } from '../helpers/app.js';
import { givenCoupon } from '../helpers/coupons.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';

/**
 * The admin's Discounts (docs/admin.md, Discounts): coupons (list with usage, create, edit with
 * limits and dates, disable, delete after a confirm step) and gift cards (issue, the code shown
 * once, then only masked; balance; disable after a confirm step), through the coupons and gift
 * cards services. Refusals: another merchant's store or coupon (404, nothing changed), a missing
 * token, errors at their fields with the input kept, the API's refusals as messages.
 */
describe('Admin: Discounts', () => {
  const { app, api } = useTestApp('admin_discounts');
  let shop: GivenMerchantWithStore;
  let browser: AdminBrowser;
  const discounts = (path = '') => `/admin/stores/${shop.store.id}/discounts${path}`;
  const coupon = async (id: string) => (await api.get(`/v1/coupons/${id}`, shop.as)).body;
  const card = async (id: string) => (await api.get(`/v1/products/gift-cards/${id}`, shop.as)).body.data;

  before(async () => {
    shop = await givenMerchantWithStore(api);
    browser = await signedInAdmin(app, shop.merchant);
  });

  it('says what to do when there are no coupons or gift cards yet', async () => {
    const coupons = await browser.get(discounts());
    expect(coupons.status).to.equal(200);
    expect(coupons.html)
      .to.contain('No coupons yet')
      .and.contain(`href="${discounts('/coupons/new')}"`)
      .and.contain('aria-current="page">Discounts');
    expect((await browser.get(discounts('/gift-cards'))).html).to.contain('No gift cards yet');
  });

  it('creates a coupon with limits and dates, keeping input and saying errors at their fields, and a taken code at its field', async () => {
    const bad = await browser.submit(discounts('/coupons/new'), discounts('/coupons/new'), { code: 'x', type: 'percentage', value: '120', usage_limit: 'ten' });
    expect(bad.status).to.equal(400);
    expect(bad.html)
      .to.match(/id="f-code"[^>]*aria-invalid="true"/)
      .and.match(/id="f-usage_limit-error"[^>]*>must be a whole number/);
    expect(bad.html).to.contain('value="120"');

    const made = await browser.submit(discounts('/coupons/new'), discounts('/coupons/new'), {
      code: 'SUMMER10',
      type: 'fixed_amount',
      value: '10.50',
      minimum_subtotal: '50',
      usage_limit: '100',
      usage_limit_per_customer: '1',
      starts_at: '2030-06-01',
      ends_at: '2030-08-31',
      active: 'on',
    });
    expect(made.status).to.equal(303);
    const id = /coupons\/([0-9a-f]{24})$/.exec(made.location!)![1]!;
    expect((await coupon(id)).data).to.include({
      code: 'SUMMER10',
      type: 'fixed_amount',
      value: 1050,
      minimum_subtotal: 5000,
      usage_limit: 100,
      usage_limit_per_customer: 1,
      starts_at: '2030-06-01T00:00:00.000Z',
      ends_at: '2030-09-01T00:00:00.000Z',
      active: true,
    });
    const page = await browser.get(made.location!);
    expect(page.html).to.contain('Coupon SUMMER10 is added.').and.contain('value="10.50"').and.contain('value="2030-08-31"');

    const taken = await browser.submit(discounts('/coupons/new'), discounts('/coupons/new'), { code: 'summer10', type: 'free_shipping', active: 'on' });
    expect(taken.status).to.equal(409);
    expect(taken.html).to.match(/id="f-code-error"[^>]*>This store already has a coupon with that code/);
  });

  it('lists coupons with their usage, edits and disables one, and deletes one after a confirm step', async () => {
    const c = await givenCoupon(api, shop.as, { code: 'TENOFF', type: 'percentage', value: 10, usage_limit: 5 });
    const list = await browser.get(discounts());
    expect(list.html).to.contain('TENOFF').and.contain('10% off').and.contain('0 of 5').and.contain('badge--ok">active');

    const at = discounts(`/coupons/${c.id}`);
    const rule = await browser.submit(at, at, { code: 'TENOFF', type: 'free_shipping', value: '10' });
    // A rule across fields is the service's (on the coupon as it would become): its refusal, at the field.
    expect(rule.status).to.equal(409);
    expect(rule.html).to.match(/id="f-value-error"[^>]*>is not allowed for free_shipping/);
    const saved = await browser.submit(at, at, { code: 'TENOFF', type: 'percentage', value: '15', usage_limit: '' });
    expect([saved.status, saved.location]).to.deep.equal([303, at]);
    expect((await coupon(c.id)).data).to.include({ value: 15, usage_limit: null, active: false });
    expect((await browser.get(discounts())).html).to.contain('>disabled<');

    const confirm = await browser.get(`${at}/delete`);
    expect(confirm.status).to.equal(200);
    expect(confirm.html).to.contain('Delete coupon TENOFF?');
    const deleted = await browser.post(`${at}/delete`, { csrf_token: AdminBrowser.csrfOf(confirm) });
    expect([deleted.status, deleted.location]).to.deep.equal([303, discounts()]);
    expect((await coupon(c.id)).error.code).to.equal('not_found');
    expect((await browser.get(at)).status).to.equal(404);
  });

  it('issues a gift card whose code is shown once, then only masked, with its balance, and disables it after a confirm step', async () => {
    const bad = await browser.submit(discounts('/gift-cards/new'), discounts('/gift-cards/new'), { initial_value: '25.999', code: 'short' });
    expect(bad.status).to.equal(400);
    expect(bad.html)
      .to.match(/id="f-initial_value"[^>]*aria-invalid="true"/)
      .and.match(/id="f-code"[^>]*aria-invalid="true"/);

    const issued = await browser.submit(discounts('/gift-cards/new'), discounts('/gift-cards/new'), { initial_value: '25', note: '<b>For Ada</b>' });
    expect(issued.status).to.equal(201);
    const code = /<strong>([A-Z0-9 ]{19})<\/strong>/.exec(issued.html)![1]!;
    const id = /gift-cards\/([0-9a-f]{24})"/.exec(issued.html)![1]!;
    const last = code.replace(/ /g, '').slice(-4);
    expect(await card(id)).to.include({ initial_value: 2500, balance: 2500, status: 'active', last_characters: last });

    const list = await browser.get(discounts('/gift-cards'));
    const page = await browser.get(discounts(`/gift-cards/${id}`));
    expect(list.html).to.contain(`•••• ${last}`).and.contain('$25.00');
    expect(page.html).to.contain(`•••• ${last}`).and.contain('$25.00').and.contain('&lt;b&gt;For Ada&lt;/b&gt;');
    for (const shown of [list, page, await browser.get(discounts('/gift-cards/new'))]) {
      expect(shown.html).to.not.contain(code).and.not.contain(code.replace(/ /g, ''));
    }

    const taken = await browser.submit(discounts('/gift-cards/new'), discounts('/gift-cards/new'), { initial_value: '5', code: code });
    expect(taken.status).to.equal(409);
    expect(taken.html).to.match(/id="f-code-error"[^>]*>This store already has a gift card with that code/);

    const at = discounts(`/gift-cards/${id}`);
    const confirm = await browser.get(`${at}/disable`);
    expect(confirm.html).to.contain(`Disable gift card •••• ${last}?`);
    const disabled = await browser.post(`${at}/disable`, { csrf_token: AdminBrowser.csrfOf(confirm) });
    expect([disabled.status, disabled.location]).to.deep.equal([303, at]);
    expect((await card(id)).status).to.equal('disabled');
    expect((await browser.get(at)).html)
      .to.contain('is disabled.')
      .and.contain('badge--bad">disabled')
      .and.not.contain('Disable gift card</a>');
  });

  it('issues one gift card when the same Issue form is sent twice, even at once, and both answers show its code', async () => {
    const cards = async () => (await api.get('/v1/products/gift-cards?limit=100', shop.as)).body.data.length as number;
    const before = await cards();
    const form = await browser.get(discounts('/gift-cards/new'));
    const key = /name="form_key" value="([^"]+)"/.exec(form.html)?.[1];
    expect(key, 'the Issue form carries a key').to.be.a('string');
    const fields = { csrf_token: AdminBrowser.csrfOf(form), form_key: key!, initial_value: '10' };
    const sent = await Promise.all([1, 2].map(() => browser.post(discounts('/gift-cards/new'), fields)));
    const codes = sent.map((r) => /<strong>([A-Z0-9 ]{19})<\/strong>/.exec(r.html)?.[1]);
    expect(sent.map((r) => r.status)).to.deep.equal([201, 201]);
    expect(codes[0]).to.be.a('string').and.equal(codes[1]);
    expect(await cards()).to.equal(before + 1);
    // The same key with another value is another request: refused, nothing issued.
    const changed = await browser.post(discounts('/gift-cards/new'), { ...fields, initial_value: '11' });
    expect(changed.status).to.be.within(400, 499);
    expect(await cards()).to.equal(before + 1);
  });

  it('refuses another merchant, another store’s coupon, a missing or cross-site token, changing nothing', async () => {
    const c = await givenCoupon(api, shop.as, { code: 'KEEPME', type: 'percentage', value: 5 });
    const at = discounts(`/coupons/${c.id}`);
    const other = await givenMerchantWithStore(api);
    const stranger = await signedInAdmin(app, other.merchant);
    expect((await stranger.get(at)).status).to.equal(404);
    expect((await stranger.get(discounts('/gift-cards'))).status).to.equal(404);
    const strangerCsrf = AdminBrowser.csrfOf(await stranger.get('/admin/stores/new'));
    expect((await stranger.post(`${at}/delete`, { csrf_token: strangerCsrf })).status).to.equal(404);
    const inTheirs = `/admin/stores/${other.store.id}/discounts/coupons/${c.id}`;
    expect((await stranger.get(inTheirs)).status).to.equal(404);
    expect((await stranger.post(`${inTheirs}/delete`, { csrf_token: strangerCsrf })).status).to.equal(404);

    for (const [fields, headers] of [
      [{}, {}],
      [{ csrf_token: strangerCsrf }, {}],
      [{ csrf_token: AdminBrowser.csrfOf(await browser.get(at)) }, { 'sec-fetch-site': 'cross-site' }],
    ] as const) {
      expect((await browser.post(`${at}/delete`, fields, headers)).status, JSON.stringify(fields)).to.equal(403);
    }
    expect((await coupon(c.id)).data).to.include({ code: 'KEEPME', active: true });
  });
});
