import { expect } from 'chai';
import { createHmac, randomBytes } from 'node:crypto';
import { ObjectId } from 'mongodb';
import { useTestApp } from '../helpers/app.js';
import { givenLocation, givenStockedVariant } from '../helpers/catalog.js';
import { findPlaintext } from '../helpers/database.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { GATEWAYS } from '../../src/payments/index.js';
import type { Reply } from '../helpers/http.js';

const KEY_SECRET = 'sandbox_secret_0123456789abcdef';

/**
 * Provider payments for storefront orders (docs/storefront.md, Payments), through the sandbox
 * provider: a provider-side order for the order's amount, the provider's HMAC-signed payment,
 * the order marked paid exactly once.
 */
describe('Storefront payments (the sandbox provider)', () => {
  const { app, api } = useTestApp('storefront_payments');
  let shop: GivenMerchantWithStore;
  let warehouse: string;

  before(async () => {
    shop = await givenMerchantWithStore(api);
    const enabled = await api.put('/v1/payments/providers/sandbox', { enabled: true, credentials: { key_secret: KEY_SECRET } }, shop.as);
    expect(enabled.status, JSON.stringify(enabled.body)).to.equal(200);
    warehouse = await givenLocation(api, shop.as);
  });

  const path = (p: string, subdomain = shop.store.subdomain) => `/v1/storefront/${subdomain}${p}`;
  const paris = { first_name: 'Ada', last_name: 'Lovelace', address1: '1 rue de Rivoli', city: 'Paris', country_code: 'FR', phone: '+33100000000' };
  const givenOrder = async (price = 4200, options: { token?: string; email?: string } = {}) => {
    const { variant } = await givenStockedVariant(api, shop.as, warehouse, 5, price);
    const cart = (await api.post(path('/cart'), { lines: [{ variant_id: variant, quantity: 1 }] })).body.data.token as string;
    const order = await api.post(
      path('/orders'),
      { email: options.email ?? 'payer@example.com', shipping_address: paris },
      { ...(options.token ? { token: options.token } : {}), headers: { 'x-cart-token': cart, 'idempotency-key': randomBytes(6).toString('hex') } },
    );
    expect(order.status, JSON.stringify(order.body)).to.equal(201);
    expect(order.body.data.payment_secret).to.match(/^emp_ps_[A-Za-z0-9_-]{43}$/);
    return order.body.data as { id: string; total: number; payment_secret: string };
  };
  const sign = (orderId: string, paymentId: string, secret = KEY_SECRET) => createHmac('sha256', secret).update(`${orderId}|${paymentId}`).digest('hex');

  it('creates the provider order from the order (amount and currency never from the client), once per order', async () => {
    const order = await givenOrder(4200);
    const created = await api.post(path('/payments/sandbox/order'), { order_id: order.id, payment_secret: order.payment_secret });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body.data).to.include({ order_id: order.id, provider: 'sandbox', amount: order.total, currency: 'USD', status: 'created' });
    expect(created.body.data.provider_order_id).to.match(/^sbx_order_/);
    const again = await api.post(path('/payments/sandbox/order'), { order_id: order.id, payment_secret: order.payment_secret });
    expect(again.body.data.provider_order_id).to.equal(created.body.data.provider_order_id);
    const tampered = await api.post(path('/payments/sandbox/order'), { order_id: order.id, payment_secret: order.payment_secret, amount: 1 });
    expect(tampered.status).to.equal(400);
  });

  it('marks the order paid exactly once for a correctly signed payment; a replay and a forgery change nothing', async () => {
    const order = await givenOrder();
    const providerOrder = (await api.post(path('/payments/sandbox/order'), { order_id: order.id, payment_secret: order.payment_secret })).body.data
      .provider_order_id as string;
    const paid = await api.post(path('/payments/sandbox/simulate'), { provider_order_id: providerOrder, payment_secret: order.payment_secret });
    expect(paid.status).to.equal(200);
    const { provider_payment_id, signature } = paid.body.data;
    expect(signature).to.equal(sign(providerOrder, provider_payment_id));

    const forged = await api.post(path('/payments/sandbox/verify'), {
      order_id: order.id,
      payment_secret: order.payment_secret,
      provider_order_id: providerOrder,
      provider_payment_id,
      signature: sign(providerOrder, provider_payment_id, 'not_the_secret_0000000'),
    });
    expect([forged.status, forged.body.error.code]).to.deep.equal([400, 'invalid_signature']);
    expect((await api.get(`/v1/orders/${order.id}`, shop.as)).body.data.financial_status).to.equal('pending');

    const verified = await api.post(path('/payments/sandbox/verify'), {
      order_id: order.id,
      payment_secret: order.payment_secret,
      provider_order_id: providerOrder,
      provider_payment_id,
      signature,
    });
    expect(verified.status, JSON.stringify(verified.body)).to.equal(200);
    expect(verified.body.data).to.deep.equal({
      order_id: order.id,
      number: verified.body.data.number,
      financial_status: 'paid',
      total: order.total,
      paid_amount: order.total,
      currency: 'USD',
    });
    const replay = await api.post(path('/payments/sandbox/verify'), {
      order_id: order.id,
      payment_secret: order.payment_secret,
      provider_order_id: providerOrder,
      provider_payment_id,
      signature,
    });
    expect([replay.status, replay.body.error.code]).to.deep.equal([409, 'payment_already_verified']);

    const events = await app.platform.db.collection('events').countDocuments({ type: 'order.paid', 'payload.order.id': order.id });
    expect(events).to.equal(1);
    const transactions = (await api.get(`/v1/payments/transactions?order_id=${order.id}`, shop.as)).body.data;
    expect(
      transactions.map((t: { kind: string; provider: string; provider_reference: string; amount: number }) => [
        t.kind,
        t.provider,
        t.provider_reference,
        t.amount,
      ]),
    ).to.deep.equal([['sale', 'sandbox', provider_payment_id, order.total]]);
    // A paid order takes no new payment order.
    expect((await api.post(path('/payments/sandbox/order'), { order_id: order.id, payment_secret: order.payment_secret })).status).to.equal(409);
  });

  it('has no sandbox in production: it would mark orders paid without money changing hands', async () => {
    const order = await givenOrder();
    const { createPaymentOrder } = await import('../../src/storefront/payments.js');
    const production = { ...app.platform, config: { ...app.platform.config, env: 'production' as const } };
    const store = (await api.get('/v1/stores/current', shop.as)).body.data;
    let code: string | null = null;
    try {
      await createPaymentOrder(production, store, 'sandbox', order.id, { secret: order.payment_secret, customerId: null });
    } catch (err) {
      code = (err as { code?: string }).code ?? null;
    }
    expect(code).to.equal('provider_not_supported');
  });

  it('refuses a signature for another provider order, another store, an unknown provider, and a store that has not enabled it', async () => {
    const order = await givenOrder();
    const first = (await api.post(path('/payments/sandbox/order'), { order_id: order.id, payment_secret: order.payment_secret })).body.data
      .provider_order_id as string;
    const other = await givenOrder();
    const second = (await api.post(path('/payments/sandbox/order'), { order_id: other.id, payment_secret: other.payment_secret })).body.data
      .provider_order_id as string;
    const pay = (await api.post(path('/payments/sandbox/simulate'), { provider_order_id: second, payment_secret: other.payment_secret })).body.data;
    const crossed = await api.post(path('/payments/sandbox/verify'), {
      order_id: order.id,
      payment_secret: order.payment_secret,
      provider_order_id: first,
      provider_payment_id: pay.provider_payment_id,
      signature: pay.signature,
    });
    expect([crossed.status, crossed.body.error.code]).to.deep.equal([400, 'invalid_signature']);

    const elsewhere = await givenMerchantWithStore(api);
    const foreign = await api.post(path('/payments/sandbox/verify', elsewhere.store.subdomain), {
      order_id: other.id,
      payment_secret: other.payment_secret,
      provider_order_id: second,
      provider_payment_id: pay.provider_payment_id,
      signature: pay.signature,
    });
    expect(foreign.status).to.be.oneOf([404, 409]);
    expect((await api.post(path('/payments/stripe/order'), { order_id: order.id, payment_secret: order.payment_secret })).status).to.equal(404);
    const notEnabled = await api.post(path('/payments/sandbox/order', elsewhere.store.subdomain), { order_id: order.id, payment_secret: order.payment_secret });
    expect([notEnabled.status, notEnabled.body.error.code]).to.deep.equal([409, 'provider_not_enabled']);
    expect((await api.get(`/v1/orders/${other.id}`, shop.as)).body.data.financial_status).to.equal('pending');
    // The key secret is stored encrypted, never in plaintext.
    expect(await findPlaintext(app.platform.db, KEY_SECRET)).to.deep.equal([]);
  });

  describe('bound to the shopper who checked out', () => {
    const personal = (body: unknown) => {
      const text = JSON.stringify(body);
      return ['payer@example.com', 'Rivoli', 'Lovelace', '+33100000000'].filter((p) => text.includes(p));
    };

    it('refuses payment operations on an order without its payment secret, and answers nothing of another shopper', async () => {
      const victim = await givenOrder();
      const mine = await givenOrder();
      // Scanning order ids: no proof, another order's secret, a made-up one.
      const bare = await api.post(path('/payments/sandbox/order'), { order_id: victim.id });
      expect([bare.status, bare.body.error?.code]).to.deep.equal([401, 'payment_secret_required']);
      for (const payment_secret of [mine.payment_secret, `emp_ps_${'A'.repeat(43)}`]) {
        const wrong = await api.post(path('/payments/sandbox/order'), { order_id: victim.id, payment_secret });
        expect([wrong.status, wrong.body.error?.code]).to.deep.equal([404, 'not_found']);
        expect(personal(wrong.body)).to.deep.equal([]);
      }
      // The victim starts paying; the stranger knows the provider order id too.
      const providerOrder = (await api.post(path('/payments/sandbox/order'), { order_id: victim.id, payment_secret: victim.payment_secret })).body.data
        .provider_order_id as string;
      const simulated = await api.post(path('/payments/sandbox/simulate'), { provider_order_id: providerOrder, payment_secret: mine.payment_secret });
      expect(simulated.status).to.equal(404);
      expect((await api.post(path('/payments/sandbox/simulate'), { provider_order_id: providerOrder })).status).to.equal(401);
      const paid = (await api.post(path('/payments/sandbox/simulate'), { provider_order_id: providerOrder, payment_secret: victim.payment_secret })).body.data;
      const stolen = await api.post(path('/payments/sandbox/verify'), { order_id: victim.id, payment_secret: mine.payment_secret, ...paid });
      expect(stolen.status).to.equal(404);
      expect(personal(stolen.body)).to.deep.equal([]);
      expect((await api.post(path('/payments/sandbox/verify'), { order_id: victim.id, ...paid })).status).to.equal(401);
      expect((await api.get(`/v1/orders/${victim.id}`, shop.as)).body.data.financial_status).to.equal('pending');
      // The shopper with the secret pays, and the answer carries no personal data.
      const verified = await api.post(path('/payments/sandbox/verify'), { order_id: victim.id, payment_secret: victim.payment_secret, ...paid });
      expect(verified.status, JSON.stringify(verified.body)).to.equal(200);
      expect(verified.body.data.financial_status).to.equal('paid');
      expect(personal(verified.body)).to.deep.equal([]);
      // Only the secret's hash is stored.
      expect(await findPlaintext(app.platform.db, victim.payment_secret)).to.deep.equal([]);
      expect(app.logLines.join('')).to.not.include(victim.payment_secret);
    });

    it('lets a signed-in customer pay their own order with their session; another customer of the store gets nothing', async () => {
      const signIn = async () => {
        const email = `payer-${randomBytes(3).toString('hex')}@example.com`;
        expect(
          (await api.post('/v1/storefront/customer/signup', { subdomain: shop.store.subdomain, email, password: 'correct horse battery' })).status,
        ).to.equal(202);
        return (await api.post('/v1/storefront/customer/login', { subdomain: shop.store.subdomain, email, password: 'correct horse battery' })).body.data
          .token as string;
      };
      const owner = await signIn();
      const stranger = await signIn();
      const order = await givenOrder(4200, { token: owner });
      const refused = await api.post(path('/payments/sandbox/order'), { order_id: order.id }, { token: stranger });
      expect([refused.status, refused.body.error?.code]).to.deep.equal([404, 'not_found']);
      const asMerchant = await api.post(path('/payments/sandbox/order'), { order_id: order.id }, { token: shop.merchant.token });
      expect(asMerchant.status).to.equal(401);
      const created = await api.post(path('/payments/sandbox/order'), { order_id: order.id }, { token: owner });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      const paid = (await api.post(path('/payments/sandbox/simulate'), { provider_order_id: created.body.data.provider_order_id }, { token: owner })).body.data;
      expect((await api.post(path('/payments/sandbox/verify'), { order_id: order.id, ...paid }, { token: stranger })).status).to.equal(404);
      const verified = await api.post(path('/payments/sandbox/verify'), { order_id: order.id, ...paid }, { token: owner });
      expect([verified.status, verified.body.data?.financial_status]).to.deep.equal([200, 'paid']);
    });

    it('makes one provider order for six concurrent requests, and answers it to each', async () => {
      const order = await givenOrder();
      // A real provider answers over the network: each call to it takes a while, and every one is counted.
      const gateway = GATEWAYS.sandbox!;
      const createOrder = gateway.createOrder;
      let calls = 0;
      gateway.createOrder = async (...args) => {
        calls++;
        await new Promise((resolve) => setTimeout(resolve, 150));
        return createOrder.apply(gateway, args);
      };
      let results: Reply[];
      try {
        results = await Promise.all(
          Array.from({ length: 6 }, () => api.post(path('/payments/sandbox/order'), { order_id: order.id, payment_secret: order.payment_secret })),
        );
      } finally {
        gateway.createOrder = createOrder;
      }
      expect(calls).to.equal(1);
      expect(
        results.map((r) => r.status),
        JSON.stringify(results.map((r) => r.body)),
      ).to.deep.equal([201, 201, 201, 201, 201, 201]);
      expect(new Set(results.map((r) => r.body.data.provider_order_id)).size).to.equal(1);
      const stored = await app.platform.db.collection('storefront_payments').countDocuments({ order_id: new ObjectId(order.id) });
      expect(stored).to.equal(1);
    });
  });
});
