import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { readOutbox } from '../../src/messages/index.js';
import { fanOutEvents } from '../../src/webhooks/deliveries/fan-out.js';
import { useTestApp } from '../helpers/app.js';
import { givenProduct } from '../helpers/catalog.js';
import { givenMerchantWithStore, unique, type GivenMerchantWithStore } from '../helpers/factories.js';
import { startWorker, stopAll, type RunningProcess } from '../helpers/processes.js';
import { csrfIn, placeFields, ShopBrowser } from '../helpers/shop.js';
import { until } from '../helpers/waiting.js';
import { bundleOf } from '../helpers/theme-uploads.js';

/** A storefront checkout paid through the sandbox: the shopper's confirmation and the merchant's new-order email, once each (docs/notifications.md). */
describe('Notifications: a storefront checkout paid through the sandbox provider', () => {
  const { app, api } = useTestApp('notifications_checkout');
  const running: RunningProcess[] = [];
  let shop: GivenMerchantWithStore;
  let variant: string;

  before(async () => {
    shop = await givenMerchantWithStore(api);
    const bundle = bundleOf('aurora');
    bundle.package.slug = `aurora-${randomBytes(3).toString('hex')}`;
    expect((await api.post('/v1/themes/packages/upload', { bundle, submission_mode: 'private_install' }, { token: shop.merchant.token })).status).to.equal(201);
    expect((await api.post(`/v1/themes/${bundle.package.slug}/install`, { store_id: shop.store.id }, { token: shop.merchant.token })).status).to.equal(201);
    await api.put('/v1/shipping', { rates: [{ code: 'standard', name: 'Standard', price: 900, country_code: 'CA' }] }, shop.as);
    await api.put('/v1/payments/providers/sandbox', { enabled: true, credentials: { key_secret: `shop_${randomBytes(12).toString('hex')}` } }, shop.as);
    variant = (await givenProduct(api, shop.as, { title: 'Linen Throw', handle: 'linen-throw', variants: [{ price: 4500, inventory_tracked: false }] }))
      .variants[0].id;
    await startWorker(app, 'webhooks', running);
  });
  after(() => stopAll(running));

  it('sends one order_confirmation to the shopper and one merchant_new_order, even when the events are fanned out twice', async () => {
    const email = `shopper-${unique()}@example.com`;
    const b = new ShopBrowser(app.url, `${shop.store.subdomain}.localhost`);
    await b.post('/cart/add', { id: variant, quantity: '2' });
    const token = csrfIn((await b.get('/checkout')).html)!;
    const address = {
      email,
      first_name: 'Sam',
      last_name: 'Shopper',
      address1: '1 Main St',
      city: 'Toronto',
      province_code: 'ON',
      country_code: 'CA',
      zip: 'M5V 2T6',
    };
    expect((await b.post('/checkout/information', { ...address, csrf_token: token })).status).to.equal(303);
    const placed = await b.post('/checkout/place', {
      ...placeFields((await b.get('/checkout/shipping')).html),
      shipping_option: 'standard',
      payment_provider: 'sandbox',
    });
    expect(placed.status).to.equal(303);
    const payment = await b.get(placed.location!);
    const providerOrder = /name="provider_order_id" value="([^"]+)"/.exec(payment.html)![1]!;
    // Placed, not yet paid: nothing is confirmed.
    expect(await readOutbox(app.platform, email)).to.have.length(0);
    const paid = await b.post(placed.location!.split('?')[0]!.replace(/\/payment$/, '/pay'), {
      provider: 'sandbox',
      provider_order_id: providerOrder,
      csrf_token: csrfIn(payment.html) ?? '',
    });
    expect(paid.status, paid.html).to.equal(303);
    expect((await b.get(paid.location!)).html).to.include(`A confirmation goes to <strong>${email}</strong>`);

    const [order] = (await api.get(`/v1/orders?q=${encodeURIComponent(email)}`, shop.as)).body.data;
    await until('the confirmation', async () => (await readOutbox(app.platform, email)).length > 0);
    await until('the merchant’s email', async () => (await readOutbox(app.platform, shop.merchant.email)).some((m) => m.kind === 'merchant_new_order'));
    // The order's events fanned out again (a retried job, the sweeper): nothing is sent twice.
    const events = await app.platform.db.collection('events').find({ 'payload.order.id': order.id }).toArray();
    await app.platform.db.collection('events').updateMany({ _id: { $in: events.map((e) => e._id) } }, { $set: { fanned_out_at: null } });
    await fanOutEvents(
      app.platform,
      events.map((e) => e._id.toHexString()),
      'test-again',
    );

    const toShopper = await readOutbox(app.platform, email);
    expect(toShopper.map((m) => m.kind)).to.deep.equal(['order_confirmation']);
    const confirmation = toShopper[0]!;
    expect(confirmation.subject).to.equal(`Order #${order.number} confirmed`);
    expect(confirmation.text).to.include('2 × Linen Throw').and.include('$90.00').and.include('Total  $99.00');
    expect(confirmation.text).to.include(`.localhost`).and.include(`/checkout/orders/${order.id}`);
    expect(confirmation.text).to.include('Sam Shopper').and.include('Toronto');
    expect(confirmation.html).to.include('<table').and.include('Linen Throw').and.include('$99.00').and.include(`/checkout/orders/${order.id}`);
    // The live theme's accent colour (Aurora's) frames the email.
    expect(confirmation.html).to.include('#b45309');
    const toMerchant = (await readOutbox(app.platform, shop.merchant.email)).filter((m) => m.kind === 'merchant_new_order');
    expect(toMerchant).to.have.length(1);
    expect(toMerchant[0]!.subject).to.include(`Order #${order.number} placed by ${email}`);
    expect(toMerchant[0]!.text).to.include(`/admin/stores/${shop.store.id}/orders/${order.id}`);
  });
});
