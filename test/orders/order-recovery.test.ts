import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import { sweepAll } from '../helpers/sweeps.js';
import type { Platform } from '../../src/platform.js';
import { useTestApp } from '../helpers/app.js';
import { givenCoupon } from '../helpers/coupons.js';
import { givenCustomer } from '../helpers/customers.js';
import { givenMerchantWithStore } from '../helpers/factories.js';
import { faultAtEvent, type EventFault } from '../helpers/faults.js';
import { client } from '../helpers/http.js';
import { givenOrder } from '../helpers/orders.js';
import { runProcfileProcess } from '../helpers/processes.js';
import { freePort, until } from '../helpers/waiting.js';
import { givenLocation, givenStockedVariant } from '../helpers/catalog.js';

/**
 * Orders whose steps span documents (the order, stock levels, the coupon, the customer, payment
 * transactions, events), interrupted between two writes: a step that throws, a process that
 * stops there (stalled, or killed), then a retry with the same Idempotency-Key or the
 * maintenance sweeps. Each test checks that what every document says agrees afterwards.
 */
describe('Orders interrupted between two writes', () => {
  const { app, api } = useTestApp('order_recovery');
  let as: { token: string; storeId: string };
  let warehouse: string;
  let fault: EventFault | null = null;
  before(async () => {
    const { merchant, store } = await givenMerchantWithStore(api);
    as = { token: merchant.token, storeId: store.id };
    warehouse = await givenLocation(api, as);
    await api.put('/v1/taxes', { shipping_taxable: true, rates: [{ country_code: 'FR', name: 'TVA', rate_bps: 2000 }] }, as);
  });
  afterEach(() => {
    fault?.restore();
    fault = null;
  });

  const givenVariant = async (available: number, price = 1000) => (await givenStockedVariant(api, as, warehouse, available, price)).variant;
  const paris = { address1: '1 rue de Rivoli', city: 'Paris', country_code: 'FR' };
  const stock = async (variant: string) => {
    const l = (await api.get(`/v1/inventory/levels?variant_id=${variant}&location_id=${warehouse}`, as)).body.data[0];
    return { available: l.available, committed: l.committed, on_hand: l.on_hand };
  };
  const getOrder = async (id: string) => (await api.get(`/v1/orders/${id}`, as)).body.data;
  const customer = async (id: string) => (await api.get(`/v1/customers/${id}`, as)).body.data;
  const transactions = async (orderId: string) =>
    (await api.get(`/v1/payments/transactions?order_id=${orderId}`, as)).body.data.map((t: { kind: string; amount: number }) => [t.kind, t.amount]);
  const countEvents = (filter: Record<string, unknown>) => app.platform.db.collection('events').countDocuments(filter);
  const withKey = (key: string) => ({ ...as, headers: { 'idempotency-key': key } });
  /** Every maintenance sweep, as the maintenance worker runs them, `aheadMs` from now (past any lease a stopped request held). */
  const runSweeps = async (aheadMs = 5 * 60_000) => {
    const later: Platform = { ...app.platform, clock: { now: () => new Date(Date.now() + aheadMs) } };
    await sweepAll(later);
  };
  const pendingOrders = () => app.platform.db.collection('orders').countDocuments({ store_id: new ObjectId(as.storeId), pending_op: { $ne: null } });

  describe('refunds', () => {
    it('completes a refund whose later step failed when it is retried with the same Idempotency-Key, refunding once', async () => {
      const v = await givenVariant(5);
      const buyer = (await givenCustomer(api, as)).id;
      const o = await givenOrder(api, as, {
        customer_id: buyer,
        line_items: [{ variant_id: v, quantity: 3 }],
        financial_status: 'paid',
        shipping_address: paris,
      });
      const line = o.line_items[0].id;
      expect((await api.post(`/v1/orders/${o.id}/fulfill`, { location_id: warehouse, line_items: [{ line_item_id: line, quantity: 2 }] }, as)).status).to.equal(
        200,
      );
      expect(await stock(v)).to.deep.equal({ available: 2, committed: 1, on_hand: 3 });

      // The refund is saved and its transaction written; the step after it throws.
      fault = faultAtEvent(app.platform, 'payment_transaction.created', 'throw');
      const body = { line_items: [{ line_item_id: line, quantity: 1 }], restock: true, location_id: warehouse };
      const failed = await api.post(`/v1/orders/${o.id}/refund`, body, withKey(`refund-${o.id}`));
      expect(failed.status).to.equal(500);

      const retried = await api.post(`/v1/orders/${o.id}/refund`, body, withKey(`refund-${o.id}`));
      expect(retried.status, JSON.stringify(retried.body)).to.equal(200);
      const final = await getOrder(o.id);
      expect(final.refunds).to.have.length(1);
      expect(final).to.include({ refunded_amount: 1200, financial_status: 'partially_refunded' });
      expect(final.line_items[0].refunded_quantity).to.equal(1);
      expect(await transactions(o.id)).to.deep.equal([
        ['sale', 3600],
        ['refund', 1200],
      ]);
      expect(await customer(buyer)).to.include({ orders_count: 1, total_spent: 2400 });
      expect(await stock(v)).to.deep.equal({ available: 3, committed: 0, on_hand: 3 });
      expect(await countEvents({ type: 'order.refunded', 'payload.order.id': o.id })).to.equal(1);
      expect(await countEvents({ type: 'payment_transaction.created', 'payload.payment_transaction.order_id': o.id })).to.equal(2);
      expect(await pendingOrders()).to.equal(0);

      // The same key with another body is a different request.
      const reused = await api.post(`/v1/orders/${o.id}/refund`, { amount: 5 }, withKey(`refund-${o.id}`));
      expect([reused.status, reused.body.error.code]).to.deep.equal([409, 'idempotency_key_reused']);
    });

    it('finishes a refund left half-done by a stopped process; the process, when it goes on, changes nothing more', async () => {
      const v = await givenVariant(4);
      const buyer = (await givenCustomer(api, as)).id;
      const o = await givenOrder(api, as, {
        customer_id: buyer,
        line_items: [{ variant_id: v, quantity: 2 }],
        financial_status: 'paid',
        shipping_address: paris,
      });
      fault = faultAtEvent(app.platform, 'payment_transaction.created', 'stall');
      const stalled = api.post(`/v1/orders/${o.id}/refund`, { line_items: [{ line_item_id: o.line_items[0].id, quantity: 2 }] }, as);
      await fault.reached;
      // The process stopped after the refund's transaction: the customer's total and the event are not written yet.
      expect(await customer(buyer)).to.include({ total_spent: 2400 });

      await runSweeps();
      const done = async () => {
        const final = await getOrder(o.id);
        expect(final.refunds).to.have.length(1);
        expect(final).to.include({ refunded_amount: 2400, financial_status: 'refunded' });
        expect(await transactions(o.id)).to.deep.equal([
          ['sale', 2400],
          ['refund', 2400],
        ]);
        expect(await customer(buyer)).to.include({ orders_count: 1, total_spent: 0 });
        expect(await stock(v)).to.deep.equal({ available: 4, committed: 0, on_hand: 4 });
        expect(await countEvents({ type: 'order.refunded', 'payload.order.id': o.id })).to.equal(1);
        expect(await pendingOrders()).to.equal(0);
      };
      await done();

      fault.release();
      const late = await stalled;
      expect([200, 409], JSON.stringify(late.body)).to.include(late.status);
      await done();
    });
  });

  describe('fulfilments', () => {
    it("finishes a fulfilment whose process stopped after taking the first line's stock", async () => {
      const a = await givenVariant(3);
      const b = await givenVariant(3);
      const o = await givenOrder(api, as, {
        line_items: [
          { variant_id: a, quantity: 2 },
          { variant_id: b, quantity: 2 },
        ],
      });
      fault = faultAtEvent(app.platform, 'inventory_level.updated', 'stall', (p) => p.reason === 'fulfillment');
      const stalled = api.post(
        `/v1/orders/${o.id}/fulfill`,
        { location_id: warehouse, line_items: o.line_items.map((l: { id: string }) => ({ line_item_id: l.id, quantity: 2 })) },
        as,
      );
      await fault.reached;
      await runSweeps();
      const done = async () => {
        expect(await stock(a)).to.deep.equal({ available: 1, committed: 0, on_hand: 1 });
        expect(await stock(b)).to.deep.equal({ available: 1, committed: 0, on_hand: 1 });
        const final = await getOrder(o.id);
        expect(final.fulfillment_status).to.equal('fulfilled');
        expect(final.fulfillments).to.have.length(1);
        expect(await countEvents({ type: 'order.fulfilled', 'payload.order.id': o.id })).to.equal(1);
        expect(await pendingOrders()).to.equal(0);
      };
      await done();
      fault.release();
      const late = await stalled;
      expect([200, 409], JSON.stringify(late.body)).to.include(late.status);
      await done();
    });

    it('completes a fulfilment retried with the same Idempotency-Key after a step failed, taking the stock once', async () => {
      const a = await givenVariant(3);
      const b = await givenVariant(3);
      const o = await givenOrder(api, as, {
        line_items: [
          { variant_id: a, quantity: 1 },
          { variant_id: b, quantity: 1 },
        ],
      });
      fault = faultAtEvent(app.platform, 'inventory_level.updated', 'throw', (p) => p.reason === 'fulfillment');
      const body = { location_id: warehouse, line_items: o.line_items.map((l: { id: string }) => ({ line_item_id: l.id, quantity: 1 })) };
      expect((await api.post(`/v1/orders/${o.id}/fulfill`, body, withKey(`ship-${o.id}`))).status).to.equal(500);
      const retried = await api.post(`/v1/orders/${o.id}/fulfill`, body, withKey(`ship-${o.id}`));
      expect(retried.status, JSON.stringify(retried.body)).to.equal(200);
      expect(retried.body.data.fulfillments).to.have.length(1);
      expect(await stock(a)).to.deep.equal({ available: 2, committed: 0, on_hand: 2 });
      expect(await stock(b)).to.deep.equal({ available: 2, committed: 0, on_hand: 2 });
      expect(await countEvents({ type: 'order.fulfilled', 'payload.order.id': o.id })).to.equal(1);
      expect(await pendingOrders()).to.equal(0);
    });
  });

  describe('creation', () => {
    it('returns the order made by a first attempt whose last step failed when retried with the same Idempotency-Key', async () => {
      const v = await givenVariant(5);
      const buyer = (await givenCustomer(api, as)).id;
      const body = { customer_id: buyer, line_items: [{ variant_id: v, quantity: 2 }], financial_status: 'paid' };
      fault = faultAtEvent(app.platform, 'order.created', 'throw');
      expect((await api.post('/v1/orders', body, withKey(`create-${buyer}`))).status).to.equal(500);
      const retried = await api.post('/v1/orders', body, withKey(`create-${buyer}`));
      expect(retried.status, JSON.stringify(retried.body)).to.equal(201);
      const mine = await app.platform.db
        .collection('orders')
        .find({ customer_id: new ObjectId(buyer) })
        .toArray();
      expect(mine.map((d) => d._id.toHexString())).to.deep.equal([retried.body.data.id]);
      expect(await customer(buyer)).to.include({ orders_count: 1, total_spent: 2000 });
      expect(await transactions(retried.body.data.id)).to.deep.equal([['sale', 2000]]);
      expect(await stock(v)).to.deep.equal({ available: 3, committed: 2, on_hand: 5 });
      expect(await countEvents({ type: 'order.created', 'payload.order.id': retried.body.data.id })).to.equal(1);
    });

    it('finishes an order whose process stopped after it was decided, before the customer and the payment were written', async () => {
      const v = await givenVariant(5);
      const buyer = (await givenCustomer(api, as)).id;
      fault = faultAtEvent(app.platform, 'inventory_level.updated', 'stall', (p) => p.reason === 'order_reserved');
      const stalled = api.post('/v1/orders', { customer_id: buyer, line_items: [{ variant_id: v, quantity: 1 }], financial_status: 'paid' }, as);
      await fault.reached;
      expect(await customer(buyer)).to.include({ orders_count: 0 });
      await runSweeps();
      const mine = await app.platform.db
        .collection('orders')
        .find({ customer_id: new ObjectId(buyer) })
        .toArray();
      expect(mine).to.have.length(1);
      const id = mine[0]!._id.toHexString();
      const done = async () => {
        expect(await customer(buyer)).to.include({ orders_count: 1, total_spent: 1000 });
        expect(await transactions(id)).to.deep.equal([['sale', 1000]]);
        expect(await stock(v)).to.deep.equal({ available: 4, committed: 1, on_hand: 5 });
        expect(await countEvents({ type: 'order.created', 'payload.order.id': id })).to.equal(1);
        expect(await pendingOrders()).to.equal(0);
      };
      await done();
      fault.release();
      const late = await stalled;
      expect([201, 409], JSON.stringify(late.body)).to.include(late.status);
      if (late.status === 201) expect(late.body.data.id).to.equal(id);
      await done();
    });
  });

  describe('a web process killed while orders are made', () => {
    it('leaves, after the sweeps, stock, coupon uses, customer totals, payments and events that agree with the orders that exist', async () => {
      const v = await givenVariant(1000, 500);
      const buyer = (await givenCustomer(api, as)).id;
      const coupon = await givenCoupon(api, as, { type: 'fixed_amount', value: 100 });
      const interrupted = () => app.platform.db.collection('orders').countDocuments({ customer_id: new ObjectId(buyer), pending_op: { $ne: null } });
      // Until the kill catches at least one order change half-made (almost always the first time).
      for (let attempt = 0; attempt < 3 && (await interrupted()) === 0; attempt++) {
        const port = await freePort();
        const web = runProcfileProcess('web', app.childEnv({ PORT: String(port) }));
        try {
          await web.waitFor('"event":"web.listening"');
          const child = client(`http://127.0.0.1:${port}`);
          let stop = false;
          const answered: number[] = [];
          const load = async () => {
            while (!stop) {
              const res = await child
                .post(
                  '/v1/orders',
                  { customer_id: buyer, coupon_code: coupon.code, line_items: [{ variant_id: v, quantity: 1 }], financial_status: 'paid' },
                  as,
                )
                .catch(() => null);
              if (!res) return;
              answered.push(res.status);
            }
          };
          const loads = Array.from({ length: 8 }, load);
          // Killed once orders flow steadily (a count, not a time), so some of the eight on their way are half-made.
          await until('orders made by the web process', async () => answered.length >= 40);
          web.child.kill('SIGKILL');
          stop = true;
          await Promise.all(loads);
          expect(answered.filter((s) => s === 201).length, JSON.stringify(answered)).to.be.greaterThan(0);
          expect(
            answered.filter((s) => s !== 201),
            JSON.stringify(answered),
          ).to.deep.equal([]);
        } finally {
          if (web.child.exitCode === null) web.child.kill('SIGKILL');
        }
      }
      expect(await interrupted()).to.be.greaterThan(0);
      await runSweeps();

      const made = await app.platform.db
        .collection('orders')
        .find({ customer_id: new ObjectId(buyer) })
        .toArray();
      expect(made.length).to.be.greaterThan(0);
      expect(made.filter((d) => d.pending_op || d.creating)).to.deep.equal([]);
      const ids = made.map((d) => d._id.toHexString());
      const total = made.reduce((a, d) => a + (d.total as number), 0);
      expect(await stock(v)).to.deep.equal({ available: 1000 - made.length, committed: made.length, on_hand: 1000 });
      expect((await api.get(`/v1/coupons/${coupon.id}`, as)).body.data.usage_count).to.equal(made.length);
      expect(await app.platform.db.collection('coupon_redemptions').countDocuments({ coupon_id: new ObjectId(coupon.id), voided: false })).to.equal(
        made.length,
      );
      expect(await customer(buyer)).to.include({ orders_count: made.length, total_spent: total });
      // One sale per order that exists (each 500 − 100 = 400), and none for an order that does not.
      const sales = await app.platform.db
        .collection('payment_transactions')
        .find({ store_id: new ObjectId(as.storeId), kind: 'sale', amount: 400 })
        .toArray();
      expect(sales.map((t) => t.order_id.toHexString()).sort()).to.deep.equal([...ids].sort());
      expect(await countEvents({ type: 'order.created', 'payload.order.id': { $in: ids } })).to.equal(made.length);
      expect(await countEvents({ type: 'coupon.redeemed', 'payload.coupon.id': coupon.id })).to.equal(made.length);
      const numbers = new Set(made.map((d) => d.number));
      expect(numbers.size).to.equal(made.length);
    });
  });
});
