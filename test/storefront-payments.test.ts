import { expect } from 'chai';
import { createHmac, randomBytes } from 'node:crypto';
import { startTestApp, type TestApp } from './helpers/app.js';
import { findPlaintext } from './helpers/database.js';
import { givenShop, type GivenShop } from './helpers/factories.js';
import { client, type Client } from './helpers/http.js';

const KEY_SECRET = 'sandbox_secret_0123456789abcdef';

/**
 * Provider payments for storefront orders (docs/storefront.md, Payments), through the sandbox
 * provider: a provider-side order for the order's amount, the provider's HMAC-signed payment,
 * the order marked paid exactly once.
 */
describe('Storefront payments (the sandbox provider)', () => {
  let app: TestApp;
  let api: Client;
  let shop: GivenShop;
  let warehouse: string;

  before(async () => {
    app = await startTestApp('storefront_payments');
    api = client(app.url);
    shop = await givenShop(api);
    const enabled = await api.put('/v1/payments/providers/sandbox', { enabled: true, credentials: { key_secret: KEY_SECRET } }, shop.as);
    expect(enabled.status, JSON.stringify(enabled.body)).to.equal(200);
    warehouse = (await api.post('/v1/inventory/locations', { name: 'Warehouse' }, shop.as)).body.data.id;
  });
  after(() => app.close());

  const path = (p: string, subdomain = shop.store.subdomain) => `/v1/storefront/${subdomain}${p}`;
  const givenOrder = async (price = 4200) => {
    const product = (await api.post('/v1/products', { title: `Item ${randomBytes(3).toString('hex')}`, status: 'active', variants: [{ price }] }, shop.as)).body.data;
    await api.post('/v1/inventory/levels/set', { variant_id: product.variants[0].id, location_id: warehouse, available: 5 }, shop.as);
    const cart = (await api.post(path('/cart'), { lines: [{ variant_id: product.variants[0].id, quantity: 1 }] })).body.data.token as string;
    const order = await api.post(path('/orders'), { email: 'payer@example.com' }, { headers: { 'x-cart-token': cart, 'idempotency-key': randomBytes(6).toString('hex') } });
    expect(order.status, JSON.stringify(order.body)).to.equal(201);
    return order.body.data as { id: string; total: number };
  };
  const sign = (orderId: string, paymentId: string, secret = KEY_SECRET) => createHmac('sha256', secret).update(`${orderId}|${paymentId}`).digest('hex');

  it('creates the provider order from the order (amount and currency never from the client), once per order', async () => {
    const order = await givenOrder(4200);
    const created = await api.post(path('/payments/sandbox/order'), { order_id: order.id });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body.data).to.include({ order_id: order.id, provider: 'sandbox', amount: order.total, currency: 'USD', status: 'created' });
    expect(created.body.data.provider_order_id).to.match(/^sbx_order_/);
    const again = await api.post(path('/payments/sandbox/order'), { order_id: order.id });
    expect(again.body.data.provider_order_id).to.equal(created.body.data.provider_order_id);
    const tampered = await api.post(path('/payments/sandbox/order'), { order_id: order.id, amount: 1 });
    expect(tampered.status).to.equal(400);
  });

  it('marks the order paid exactly once for a correctly signed payment; a replay and a forgery change nothing', async () => {
    const order = await givenOrder();
    const providerOrder = (await api.post(path('/payments/sandbox/order'), { order_id: order.id })).body.data.provider_order_id as string;
    const paid = await api.post(path('/payments/sandbox/simulate'), { provider_order_id: providerOrder });
    expect(paid.status).to.equal(200);
    const { provider_payment_id, signature } = paid.body.data;
    expect(signature).to.equal(sign(providerOrder, provider_payment_id));

    const forged = await api.post(path('/payments/sandbox/verify'), { order_id: order.id, provider_order_id: providerOrder, provider_payment_id, signature: sign(providerOrder, provider_payment_id, 'not_the_secret_0000000') });
    expect([forged.status, forged.body.error.code]).to.deep.equal([400, 'invalid_signature']);
    expect((await api.get(`/v1/orders/${order.id}`, shop.as)).body.data.financial_status).to.equal('pending');

    const verified = await api.post(path('/payments/sandbox/verify'), { order_id: order.id, provider_order_id: providerOrder, provider_payment_id, signature });
    expect(verified.status, JSON.stringify(verified.body)).to.equal(200);
    expect(verified.body.data).to.include({ financial_status: 'paid', paid_amount: order.total });
    const replay = await api.post(path('/payments/sandbox/verify'), { order_id: order.id, provider_order_id: providerOrder, provider_payment_id, signature });
    expect([replay.status, replay.body.error.code]).to.deep.equal([409, 'payment_already_verified']);

    const events = await app.platform.db.collection('events').countDocuments({ type: 'order.paid', 'payload.order.id': order.id });
    expect(events).to.equal(1);
    const transactions = (await api.get(`/v1/payments/transactions?order_id=${order.id}`, shop.as)).body.data;
    expect(transactions.map((t: { kind: string; provider: string; provider_reference: string; amount: number }) => [t.kind, t.provider, t.provider_reference, t.amount])).to.deep.equal([
      ['sale', 'sandbox', provider_payment_id, order.total],
    ]);
    // A paid order takes no new payment order.
    expect((await api.post(path('/payments/sandbox/order'), { order_id: order.id })).status).to.equal(409);
  });

  it('has no sandbox in production: it would mark orders paid without money changing hands', async () => {
    const order = await givenOrder();
    const { createPaymentOrder } = await import('../src/storefront/payments.js');
    const production = { ...app.platform, config: { ...app.platform.config, env: 'production' as const } };
    const store = (await api.get('/v1/stores/current', shop.as)).body.data;
    let code: string | null = null;
    try {
      await createPaymentOrder(production, store, 'sandbox', order.id);
    } catch (err) {
      code = (err as { code?: string }).code ?? null;
    }
    expect(code).to.equal('provider_not_supported');
  });

  it('refuses a signature for another provider order, another store, an unknown provider, and a store that has not enabled it', async () => {
    const order = await givenOrder();
    const first = (await api.post(path('/payments/sandbox/order'), { order_id: order.id })).body.data.provider_order_id as string;
    const other = await givenOrder();
    const second = (await api.post(path('/payments/sandbox/order'), { order_id: other.id })).body.data.provider_order_id as string;
    const pay = (await api.post(path('/payments/sandbox/simulate'), { provider_order_id: second })).body.data;
    const crossed = await api.post(path('/payments/sandbox/verify'), { order_id: order.id, provider_order_id: first, provider_payment_id: pay.provider_payment_id, signature: pay.signature });
    expect([crossed.status, crossed.body.error.code]).to.deep.equal([400, 'invalid_signature']);

    const elsewhere = await givenShop(api);
    const foreign = await api.post(path('/payments/sandbox/verify', elsewhere.store.subdomain), { order_id: other.id, provider_order_id: second, provider_payment_id: pay.provider_payment_id, signature: pay.signature });
    expect(foreign.status).to.be.oneOf([404, 409]);
    expect((await api.post(path('/payments/stripe/order'), { order_id: order.id })).status).to.equal(404);
    const notEnabled = await api.post(path('/payments/sandbox/order', elsewhere.store.subdomain), { order_id: order.id });
    expect([notEnabled.status, notEnabled.body.error.code]).to.deep.equal([409, 'provider_not_enabled']);
    expect((await api.get(`/v1/orders/${other.id}`, shop.as)).body.data.financial_status).to.equal('pending');
    // The key secret is stored encrypted, never in plaintext.
    expect(await findPlaintext(app.platform.db, KEY_SECRET)).to.deep.equal([]);
  });
});
