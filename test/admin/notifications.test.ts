import { expect } from 'chai';
import { readOutbox } from '../../src/messages/index.js';
import { signedInAdmin, type AdminBrowser } from '../helpers/admin.js';
import { useTestApp } from '../helpers/app.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { givenOrder } from '../helpers/orders.js';

/** Settings → Notifications (docs/notifications.md, The admin): the list, a notification's edit page, its preview, reset and test. */
describe('Admin: Settings → Notifications', () => {
  const { app, api } = useTestApp('admin_notifications');
  let shop: GivenMerchantWithStore;
  let browser: AdminBrowser;
  const page = (rest = '') => `/admin/stores/${shop.store.id}/settings/notifications${rest}`;

  before(async () => {
    shop = await givenMerchantWithStore(api);
    browser = await signedInAdmin(app, shop.merchant);
    await givenOrder(api, shop.as, { email: 'latest@example.com', line_items: [{ title: 'Beeswax candle', price: 1200, quantity: 3 }] });
  });

  it('lists every notification under the sender, each linking to its page', async () => {
    const list = await browser.get(page());
    expect(list.status).to.equal(200);
    for (const title of ['Order confirmation', 'Shipping confirmation', 'Refund', 'Order cancelled', 'New order', 'Account invite', 'Password reset'])
      expect(list.html).to.contain(`>${title}</a>`);
    expect(list.html).to.contain(`href="${page('/order_confirmation')}"`);
  });

  it('shows a notification’s template with both parts previewed from the latest order, the HTML in a frame that runs nothing', async () => {
    const edit = await browser.get(page('/order_confirmation'));
    expect(edit.status).to.equal(200);
    expect(edit.html).to.contain('id="f-subject"').and.contain('Order {{ order.name }} confirmed');
    expect(edit.html).to.contain('Rendered with your latest order').and.contain('3 × Beeswax candle');
    expect(edit.html).to.match(/<iframe title="HTML preview" sandbox=""/);
    expect(edit.html).to.contain(`Send a test to ${shop.merchant.email}`).and.not.contain('Reset to default');
  });

  it('refuses invalid Liquid at its field with its line, saving nothing; saves a valid edit, previews unsaved input, resets', async () => {
    const bad = await browser.submit(page('/order_confirmation'), page('/order_confirmation'), {
      subject: 'Hi',
      text: 'one\n{% for x in %}',
      html: '<p>ok</p>',
    });
    expect(bad.status).to.equal(400);
    expect(bad.html).to.match(/id="f-text-error"[^>]*>line 2/);
    expect((await api.get('/v1/notifications/order_confirmation', shop.as)).body.data.customized).to.equal(false);

    const unsaved = await browser.submit(page('/order_confirmation'), page('/order_confirmation/preview'), {
      subject: 'Draft {{ order.name }}',
      text: 'Draft text',
      html: '<p>Draft</p><script>alert(1)</script>',
    });
    expect(unsaved.status).to.equal(200);
    expect(unsaved.html).to.contain('Draft text');
    expect((await api.get('/v1/notifications/order_confirmation', shop.as)).body.data.customized).to.equal(false);

    const saved = await browser.submit(page('/order_confirmation'), page('/order_confirmation'), {
      subject: 'Got it: {{ order.name }}',
      text: 'Saved text',
      html: '<p>Saved</p>',
    });
    expect(saved.status).to.equal(303);
    const after = await browser.get(saved.location!);
    expect(after.html).to.contain('The template is saved').and.contain('Reset to default').and.contain('Saved text');
    expect((await api.get('/v1/notifications/order_confirmation', shop.as)).body.data.subject).to.equal('Got it: {{ order.name }}');

    const reset = await browser.submit(page('/order_confirmation'), page('/order_confirmation/reset'), {});
    expect(reset.status).to.equal(303);
    expect((await api.get('/v1/notifications/order_confirmation', shop.as)).body.data.customized).to.equal(false);
  });

  it('sends a test to the merchant', async () => {
    const sent = await browser.submit(page('/shipping_confirmation'), page('/shipping_confirmation/test'), {});
    expect(sent.status).to.equal(303);
    expect((await browser.get(sent.location!)).html).to.contain(`A test went to ${shop.merchant.email}`);
    const [message] = await readOutbox(app.platform, shop.merchant.email);
    expect(message!.kind).to.equal('shipping_confirmation');
    expect(message!.html).to.contain('Beeswax candle');
  });

  it('gives another merchant’s store nothing', async () => {
    const other = await givenMerchantWithStore(api);
    const stranger = await signedInAdmin(app, other.merchant);
    expect((await stranger.get(page('/order_confirmation'))).status).to.equal(404);
    expect((await browser.get(page('/no_such_kind'))).status).to.equal(404);
  });
});
