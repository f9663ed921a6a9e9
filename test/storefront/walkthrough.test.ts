import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { useTestApp } from '../helpers/app.js';
import { givenMerchantWithStore } from '../helpers/factories.js';
import { client } from '../helpers/http.js';

/** docs/storefront.md's walkthrough, step by step through the real server: a shopper from lookup to a paid order. */
describe('Storefront walkthrough (lookup, products, cart, checkout, sandbox payment)', () => {
  const { app } = useTestApp('storefront_walkthrough');

  it('takes a shopper from the store lookup to a paid order the merchant sees', async () => {
    const api = client(app.url);
    const shop = await givenMerchantWithStore(api);
    const location = (await api.post('/v1/inventory/locations', { name: 'Shop floor' }, shop.as)).body.data.id;
    const product = (await api.post('/v1/products', { title: 'Linen shirt', status: 'active', variants: [{ price: 4900 }] }, shop.as)).body.data;
    await api.post('/v1/inventory/levels/set', { variant_id: product.variants[0].id, location_id: location, available: 3 }, shop.as);
    await api.put('/v1/payments/providers/sandbox', { enabled: true, credentials: { key_secret: `walk_${randomBytes(12).toString('hex')}` } }, shop.as);

    const found = await api.get(`/v1/storefront/lookup?host=${shop.store.subdomain}.localhost`);
    expect(found.body.data.subdomain).to.equal(shop.store.subdomain);
    const listed = await api.get(`/v1/storefront/${shop.store.subdomain}/products`);
    const variant = listed.body.data[0].variants[0];
    expect(variant).to.include({ available: true });
    const cart = await api.post(`/v1/storefront/${shop.store.subdomain}/cart`, { lines: [{ variant_id: variant.id, quantity: 2 }] });
    expect(cart.body.data.cart.subtotal).to.equal(9800);
    const order = await api.post(
      `/v1/storefront/${shop.store.subdomain}/orders`,
      { email: 'shopper@example.com' },
      { headers: { 'x-cart-token': cart.body.data.token, 'idempotency-key': 'walk-1' } },
    );
    expect(order.status, JSON.stringify(order.body)).to.equal(201);
    const po = await api.post(`/v1/storefront/${shop.store.subdomain}/payments/sandbox/order`, {
      order_id: order.body.data.id,
      payment_secret: order.body.data.payment_secret,
    });
    expect(po.body.data.amount).to.equal(order.body.data.total);
    const paid = (
      await api.post(`/v1/storefront/${shop.store.subdomain}/payments/sandbox/simulate`, {
        provider_order_id: po.body.data.provider_order_id,
        payment_secret: order.body.data.payment_secret,
      })
    ).body.data;
    const verified = await api.post(`/v1/storefront/${shop.store.subdomain}/payments/sandbox/verify`, {
      order_id: order.body.data.id,
      payment_secret: order.body.data.payment_secret,
      ...paid,
    });
    expect(verified.body.data.financial_status).to.equal('paid');

    const seen = (await api.get(`/v1/orders/${order.body.data.id}`, shop.as)).body.data;
    expect(seen).to.include({ source: 'storefront', financial_status: 'paid', total: 9800 });
    const level = (await api.get(`/v1/inventory/levels?variant_id=${variant.id}&location_id=${location}`, shop.as)).body.data[0];
    expect([level.available, level.committed]).to.deep.equal([1, 2]);
    const types = (await app.platform.db.collection('events').find({}).toArray()).map((e) => e.type);
    for (const t of ['order.created', 'checkout.completed', 'order.paid']) expect(types, t).to.include(t);
  });
});
