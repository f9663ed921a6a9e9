import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { ObjectId } from 'mongodb';
import { sweep, sweepAll } from '../helpers/sweeps.js';
import type { Platform } from '../../src/platform.js';
import { useTestApp } from '../helpers/app.js';
import { givenCoupon } from '../helpers/coupons.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { faultAtEvent, withFault } from '../helpers/faults.js';
import { givenLocation, givenStockedVariant } from '../helpers/catalog.js';

/**
 * Checkout (docs/storefront.md, "Checkout"): a persisted cart becomes an order through
 * POST /v1/storefront/:subdomain/orders, priced server-side, stock and coupon uses reserved
 * atomically, once per Idempotency-Key.
 */
describe('Storefront checkout (cart to order)', () => {
  const { app, api } = useTestApp('storefront_checkout');
  let shop: GivenMerchantWithStore;
  let warehouse: string;

  before(async () => {
    shop = await givenMerchantWithStore(api);
    warehouse = await givenLocation(api, shop.as);
    await api.put('/v1/taxes', { shipping_taxable: false, rates: [{ country_code: 'FR', name: 'TVA', rate_bps: 2000 }] }, shop.as);
  });

  const givenVariant = (available: number, price = 1000) => givenStockedVariant(api, shop.as, warehouse, available, price);
  const cartWith = async (lines: { variant_id: string; quantity: number }[], coupon_code?: string) => {
    const res = await api.post(`/v1/storefront/${shop.store.subdomain}/cart`, { lines, ...(coupon_code ? { coupon_code } : {}) });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.data.token as string;
  };
  const paris = { address1: '1 rue de Rivoli', city: 'Paris', country_code: 'FR' };
  const checkout = (
    cart: string,
    key: string | null = randomBytes(8).toString('hex'),
    body: Record<string, unknown> = { email: 'shopper@example.com', shipping_address: paris },
  ) => api.post(`/v1/storefront/${shop.store.subdomain}/orders`, body, { headers: { 'x-cart-token': cart, ...(key ? { 'idempotency-key': key } : {}) } });
  const stock = async (variant: string) => {
    const l = (await api.get(`/v1/inventory/levels?variant_id=${variant}&location_id=${warehouse}`, shop.as)).body.data[0];
    return { available: l.available, committed: l.committed };
  };
  const events = (filter: Record<string, unknown>) => app.platform.db.collection('events').find(filter).toArray();

  it('turns a cart into a storefront order priced by the catalog and the tax table; the cart is consumed', async () => {
    const { variant } = await givenVariant(5, 2500);
    const cart = await cartWith([{ variant_id: variant, quantity: 2 }]);
    const res = await checkout(cart);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const order = res.body.data;
    expect(order).to.include({
      source: 'storefront',
      email: 'shopper@example.com',
      financial_status: 'pending',
      subtotal: 5000,
      tax_total: 1000,
      total: 6000,
      currency: 'USD',
    });
    expect(await stock(variant)).to.deep.equal({ available: 3, committed: 2 });
    expect((await api.get(`/v1/storefront/${shop.store.subdomain}/cart`, { headers: { 'x-cart-token': cart } })).status).to.equal(404);
    expect(await events({ type: 'order.created', 'payload.order.id': order.id, 'payload.order.source': 'storefront' })).to.have.length(1);
    const completed = await events({ idempotency_key: `checkout.completed:${order.id}` });
    expect(completed).to.have.length(1);
    expect(completed[0]!.payload).to.include({ order_id: order.id, total: 6000 });
    // The merchant sees it.
    expect((await api.get(`/v1/orders/${order.id}`, shop.as)).body.data.source).to.equal('storefront');
  });

  it('needs an Idempotency-Key, and a retry with the same key answers the same order (even after the cart is consumed)', async () => {
    const { variant } = await givenVariant(5);
    const cart = await cartWith([{ variant_id: variant, quantity: 1 }]);
    const missing = await checkout(cart, null);
    expect([missing.status, missing.body.error.code]).to.deep.equal([400, 'idempotency_key_required']);
    const first = await checkout(cart, 'key-1');
    expect(first.status).to.equal(201);
    // The Idempotency-Key layer answers the first response again (docs/conventions.md, Idempotency).
    const retry = await checkout(cart, 'key-1');
    expect(retry.status, JSON.stringify(retry.body)).to.equal(201);
    expect(retry.body.data.id).to.equal(first.body.data.id);
    expect(await stock(variant)).to.deep.equal({ available: 4, committed: 1 });
    // Another key on the consumed cart makes nothing: the cart has its order.
    const other = await checkout(cart, 'key-2');
    expect([other.status, other.body.error.code]).to.deep.equal([409, 'cart_already_checked_out']);
  });

  it('charges the price at checkout, never the price when the line was added', async () => {
    const { product, variant } = await givenVariant(5, 1000);
    const cart = await cartWith([{ variant_id: variant, quantity: 1 }]);
    const p = (await api.get(`/v1/products/${product}`, shop.as)).body.data;
    await api.patch(`/v1/products/${product}`, { variants: [{ id: p.variants[0].id, price: 1500 }] }, shop.as);
    const res = await checkout(cart);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.data.subtotal).to.equal(1500);
  });

  it('sells exactly 10 of the last 10 units to 50 concurrent checkouts', async () => {
    const { variant } = await givenVariant(10);
    const carts = await Promise.all(Array.from({ length: 50 }, () => cartWith([{ variant_id: variant, quantity: 1 }])));
    const results = await Promise.all(carts.map((c) => checkout(c)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).to.have.length(10);
    expect(
      statuses.filter((s) => s !== 201 && s !== 409),
      JSON.stringify(results.find((r) => r.status !== 201 && r.status !== 409)?.body),
    ).to.deep.equal([]);
    expect(await stock(variant)).to.deep.equal({ available: 0, committed: 10 });
  });

  it('uses a 5-use coupon exactly 5 times across 20 concurrent checkouts', async () => {
    const { variant } = await givenVariant(100);
    const code = `FIVE${randomBytes(3).toString('hex').toUpperCase()}`;
    await givenCoupon(api, shop.as, { code, type: 'percentage', value: 10, usage_limit: 5 });
    const carts = await Promise.all(Array.from({ length: 20 }, () => cartWith([{ variant_id: variant, quantity: 1 }], code)));
    const results = await Promise.all(carts.map((c) => checkout(c)));
    const made = results.filter((r) => r.status === 201);
    expect(made).to.have.length(5);
    for (const r of made) expect(r.body.data.coupon.code).to.equal(code);
    for (const r of results.filter((x) => x.status !== 201)) expect(r.status, JSON.stringify(r.body)).to.be.within(400, 499);
    const coupon = (await api.get(`/v1/coupons?limit=250`, shop.as)).body.data.find((c: { code: string }) => c.code === code);
    expect(coupon.usage_count).to.equal(5);
  });

  it('makes the order a signed-in customer’s when the checkout carries their token; other tokens are refused', async () => {
    const { variant } = await givenVariant(5);
    const email = `buyer-${randomBytes(3).toString('hex')}@example.com`;
    expect((await api.post('/v1/storefront/customer/signup', { subdomain: shop.store.subdomain, email, password: 'correct horse battery' })).status).to.equal(
      202,
    );
    const login = await api.post('/v1/storefront/customer/login', { subdomain: shop.store.subdomain, email, password: 'correct horse battery' });
    expect(login.status, JSON.stringify(login.body)).to.equal(200);
    const customerToken = login.body.data.token as string;
    const cart = await cartWith([{ variant_id: variant, quantity: 1 }]);
    const res = await api.post(
      `/v1/storefront/${shop.store.subdomain}/orders`,
      { email },
      { token: customerToken, headers: { 'x-cart-token': cart, 'idempotency-key': 'mine' } },
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.data.customer_id).to.equal(login.body.data.customer.id);
    const mine = await api.get('/v1/storefront/customer/orders', { token: customerToken });
    expect(mine.body.data.map((o: { id: string }) => o.id)).to.include(res.body.data.id);
    const other = await cartWith([{ variant_id: variant, quantity: 1 }]);
    const asMerchant = await api.post(
      `/v1/storefront/${shop.store.subdomain}/orders`,
      { email },
      { token: shop.merchant.token, headers: { 'x-cart-token': other, 'idempotency-key': 'm' } },
    );
    expect(asMerchant.status).to.equal(401);
  });

  it('refuses an empty cart, a cart with a line that cannot be bought, and another store’s cart', async () => {
    const empty = await cartWith([]);
    const res = await checkout(empty);
    expect([res.status, res.body.error.code]).to.deep.equal([409, 'cart_not_purchasable']);
    const { product, variant } = await givenVariant(2);
    const cart = await cartWith([{ variant_id: variant, quantity: 1 }]);
    await api.patch(`/v1/products/${product}`, { status: 'draft' }, shop.as);
    const unpublished = await checkout(cart);
    expect([unpublished.status, unpublished.body.error.code]).to.deep.equal([409, 'cart_not_purchasable']);
    expect(unpublished.body.error.details[0]).to.match(/unpublished/);
    const other = await givenMerchantWithStore(api);
    const { variant: v2 } = await givenVariant(2);
    const mine = await cartWith([{ variant_id: v2, quantity: 1 }]);
    const elsewhere = await api.post(
      `/v1/storefront/${other.store.subdomain}/orders`,
      { email: 'a@example.com' },
      { headers: { 'x-cart-token': mine, 'idempotency-key': 'k' } },
    );
    expect(elsewhere.status).to.equal(404);
    const badBody = await checkout(mine, 'k2', { email: 'not-an-email', total: 1 });
    expect(badBody.status).to.equal(400);
  });

  describe('one cart, one order', () => {
    const orderCount = (variant: string) =>
      app.platform.db.collection('orders').countDocuments({ store_id: new ObjectId(shop.store.id), 'line_items.variant_id': new ObjectId(variant) });
    const cartPath = () => `/v1/storefront/${shop.store.subdomain}/cart`;
    /** The whole platform `aheadMs` from now: every lease a stopped request held has run out. */
    const later = (aheadMs = 5 * 60_000) => ({ now: () => new Date(Date.now() + aheadMs) });

    it('makes one order of six parallel checkouts of one cart with different Idempotency-Keys; the others get 409', async () => {
      const { variant } = await givenVariant(20);
      const cart = await cartWith([{ variant_id: variant, quantity: 2 }]);
      const results = await Promise.all(Array.from({ length: 6 }, () => checkout(cart)));
      const outcomes = results.map((r) => [r.status, r.body.error?.code ?? null]);
      expect(
        outcomes.filter(([s]) => s === 201),
        JSON.stringify(outcomes),
      ).to.have.length(1);
      for (const [status, code] of outcomes.filter(([s]) => s !== 201)) {
        expect(status, JSON.stringify(outcomes)).to.equal(409);
        expect(code).to.be.oneOf(['checkout_in_progress', 'cart_already_checked_out']);
      }
      expect(await orderCount(variant)).to.equal(1);
      expect(await stock(variant)).to.deep.equal({ available: 18, committed: 2 });
      expect(await events({ type: 'order.created', 'payload.order.line_items.variant_id': variant })).to.have.length(1);
    });

    it('keeps a cart under checkout from changing, being discarded or checked out again; once its order is made, the cart is taken', async () => {
      const { variant } = await givenVariant(5);
      const cart = await cartWith([{ variant_id: variant, quantity: 1 }]);
      const email = `held-${randomBytes(3).toString('hex')}@example.com`;
      const fault = faultAtEvent(app.platform, 'order.created', 'stall', (p) => (p.order as { email: string }).email === email);
      try {
        const first = checkout(cart, 'held-1', { email });
        await fault.reached;
        const patched = await api.patch(cartPath(), { version: 1, lines: [{ variant_id: variant, quantity: 3 }] }, { headers: { 'x-cart-token': cart } });
        expect([patched.status, patched.body.error?.code]).to.deep.equal([409, 'checkout_in_progress']);
        const discarded = await api.delete(cartPath(), { headers: { 'x-cart-token': cart } });
        expect([discarded.status, discarded.body.error?.code]).to.deep.equal([409, 'checkout_in_progress']);
        const second = await checkout(cart, 'held-2', { email });
        expect([second.status, second.body.error?.code]).to.deep.equal([409, 'checkout_in_progress']);
        fault.release();
        const made = await first;
        expect(made.status, JSON.stringify(made.body)).to.equal(201);
        expect(made.body.data.line_items[0].quantity).to.equal(1);
      } finally {
        fault.restore();
      }
      const third = await checkout(cart, 'held-3', { email });
      expect([third.status, third.body.error?.code]).to.deep.equal([409, 'cart_already_checked_out']);
      expect(await orderCount(variant)).to.equal(1);
    });

    it('gives the cart back when its checkout fails, so the shopper can change it and check out', async () => {
      const { variant } = await givenVariant(1);
      const cart = await cartWith([{ variant_id: variant, quantity: 1 }]);
      await api.post('/v1/inventory/levels/adjust', { variant_id: variant, location_id: warehouse, delta: -1, reason: 'damaged' }, shop.as);
      const failed = await checkout(cart);
      expect([failed.status, failed.body.error.code]).to.deep.equal([409, 'cart_not_purchasable']);
      await api.post('/v1/inventory/levels/adjust', { variant_id: variant, location_id: warehouse, delta: 1, reason: 'received' }, shop.as);
      const patched = await api.patch(cartPath(), { version: 1, lines: [{ variant_id: variant, quantity: 1 }] }, { headers: { 'x-cart-token': cart } });
      expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
      expect((await checkout(cart)).status).to.equal(201);
    });

    it('lets the next checkout take a cart whose checkout stopped before making its order, and still makes one order when the stopped one resumes', async () => {
      const { variant } = await givenVariant(5);
      const cart = await cartWith([{ variant_id: variant, quantity: 1 }]);
      let reached!: () => void;
      const stalled = new Promise<void>((resolve) => (reached = resolve));
      let resume!: () => void;
      const resumed = new Promise<void>((resolve) => (resume = resolve));
      let first = true;
      const realClock = app.platform.clock;
      await withFault(
        app.platform,
        'orders',
        'insertOne',
        async (real, args) => {
          if (first) {
            // The first checkout stops between claiming the cart and inserting its order.
            first = false;
            reached();
            await resumed;
          }
          return real(...args);
        },
        async () => {
          const stopped = checkout(cart, 'stopped');
          await stalled;
          try {
            // Its claim runs out: the next checkout takes the cart and makes the order.
            (app.platform as { clock: Platform['clock'] }).clock = later();
            const next = await checkout(cart, 'next');
            expect(next.status, JSON.stringify(next.body)).to.equal(201);
            // The stopped one resumes: its order would be the cart's second, so it is refused.
            resume();
            const late = await stopped;
            expect([late.status, late.body.error?.code], JSON.stringify(late.body)).to.deep.equal([409, 'cart_already_checked_out']);
          } finally {
            (app.platform as { clock: Platform['clock'] }).clock = realClock;
            resume();
          }
        },
      );
      expect(await orderCount(variant)).to.equal(1);
      expect(await stock(variant)).to.deep.equal({ available: 4, committed: 1 });
    });

    it('finishes a checkout whose process stopped after its order was made: the sweep consumes the cart, once', async () => {
      const { variant } = await givenVariant(5);
      const cart = await cartWith([{ variant_id: variant, quantity: 1 }]);
      const email = `stopped-${randomBytes(3).toString('hex')}@example.com`;
      const fault = faultAtEvent(app.platform, 'order.created', 'stall', (p) => (p.order as { email: string }).email === email);
      let answer: Awaited<ReturnType<typeof checkout>> | null = null;
      try {
        const stopped = checkout(cart, 'stopped-late', { email });
        await fault.reached;
        const sweeping: Platform = { ...app.platform, clock: later() };
        await sweepAll(sweeping);
        expect((await api.get(cartPath(), { headers: { 'x-cart-token': cart } })).status).to.equal(404);
        fault.release();
        answer = await stopped;
      } finally {
        fault.restore();
      }
      const orders = await events({ type: 'order.created', 'payload.order.email': email });
      expect(orders).to.have.length(1);
      const orderId = (orders[0]!.payload as { order: { id: string } }).order.id;
      expect(answer?.status, JSON.stringify(answer?.body)).to.be.oneOf([201, 409]);
      expect(await events({ idempotency_key: `checkout.completed:${orderId}` })).to.have.length(1);
      expect(await orderCount(variant)).to.equal(1);
    });
  });

  describe('replays of a checkout go only to its caller', () => {
    it('never replays a customer’s checkout to a caller without their session, nor answers it the order', async () => {
      const { variant } = await givenVariant(5);
      const email = `replay-${randomBytes(3).toString('hex')}@example.com`;
      expect((await api.post('/v1/storefront/customer/signup', { subdomain: shop.store.subdomain, email, password: 'correct horse battery' })).status).to.equal(
        202,
      );
      const login = await api.post('/v1/storefront/customer/login', { subdomain: shop.store.subdomain, email, password: 'correct horse battery' });
      const customerToken = login.body.data.token as string;
      const cart = await cartWith([{ variant_id: variant, quantity: 1 }]);
      const body = { email, shipping_address: paris };
      const headers = { 'x-cart-token': cart, 'idempotency-key': 'customer-key' };
      const made = await api.post(`/v1/storefront/${shop.store.subdomain}/orders`, body, { token: customerToken, headers });
      expect(made.status, JSON.stringify(made.body)).to.equal(201);
      const again = await api.post(`/v1/storefront/${shop.store.subdomain}/orders`, body, { token: customerToken, headers });
      expect([again.status, again.headers.get('idempotent-replayed')]).to.deep.equal([201, 'true']);
      // The same key, cart and body without the customer's session: no replay, no order, no address.
      const stranger = await api.post(`/v1/storefront/${shop.store.subdomain}/orders`, body, { headers });
      expect(stranger.headers.get('idempotent-replayed')).to.equal(null);
      expect([stranger.status, stranger.body.error?.code]).to.deep.equal([409, 'cart_already_checked_out']);
      expect(JSON.stringify(stranger.body)).to.not.include(login.body.data.customer.id);
      expect(JSON.stringify(stranger.body)).to.not.include('Rivoli');
    });

    it('replays a guest checkout only to a request with the same cart token', async () => {
      const { variant } = await givenVariant(5);
      const cart = await cartWith([{ variant_id: variant, quantity: 1 }]);
      const made = await checkout(cart, 'guest-key');
      expect(made.status).to.equal(201);
      const replay = await checkout(cart, 'guest-key');
      expect([replay.status, replay.headers.get('idempotent-replayed'), replay.body.data.id]).to.deep.equal([201, 'true', made.body.data.id]);
      const otherCart = await cartWith([{ variant_id: variant, quantity: 1 }]);
      const elsewhere = await checkout(otherCart, 'guest-key');
      expect(elsewhere.headers.get('idempotent-replayed')).to.equal(null);
      expect(elsewhere.status).to.equal(201);
      expect(elsewhere.body.data.id).to.not.equal(made.body.data.id);
      const noCart = await api.post(
        `/v1/storefront/${shop.store.subdomain}/orders`,
        { email: 'shopper@example.com', shipping_address: paris },
        { headers: { 'idempotency-key': 'guest-key' } },
      );
      expect([noCart.status, noCart.headers.get('idempotent-replayed')]).to.deep.equal([404, null]);
    });

    it('answers a replay with the payment secret of the first answer, never a new one: the first keeps opening the order', async () => {
      const { variant } = await givenVariant(5);
      await api.put('/v1/payments/providers/sandbox', { enabled: true, credentials: { key_secret: `replay_${randomBytes(12).toString('hex')}` } }, shop.as);
      const cart = await cartWith([{ variant_id: variant, quantity: 1 }]);
      const made = await checkout(cart, 'secret-key');
      expect(made.status, JSON.stringify(made.body)).to.equal(201);
      const secret = made.body.data.payment_secret as string;
      const order = made.body.data.id as string;
      const payable = (payment_secret: string) =>
        api.post(`/v1/storefront/${shop.store.subdomain}/payments/sandbox/order`, { order_id: order, payment_secret });
      // A day later the idempotency record is swept: the same request is answered from the order.
      await sweep('maintenance.sweep-idempotency-records', { ...app.platform, clock: { now: () => new Date(Date.now() + 25 * 60 * 60_000) } });
      const replay = await checkout(cart, 'secret-key');
      expect([replay.status, replay.headers.get('idempotent-replayed')], JSON.stringify(replay.body)).to.deep.equal([200, null]);
      expect(replay.body.data.id).to.equal(order);
      expect(replay.body.data.payment_secret).to.equal(secret);
      expect((await payable(secret)).status, 'the first answer’s secret still opens the order').to.equal(201);
      // Another key on the same cart (a caller who holds the cart token but not the key): no order, no secret.
      const other = await checkout(cart, 'guessed-key');
      expect([other.status, other.body.error?.code]).to.deep.equal([409, 'cart_already_checked_out']);
      expect(JSON.stringify(other.body)).to.not.include('emp_ps_');
      expect((await payable(secret)).status).to.equal(201);
    });
  });
});
