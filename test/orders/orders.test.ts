import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import { useTestApp } from '../helpers/app.js';
import { givenLocation } from '../helpers/catalog.js';
import { givenCoupon } from '../helpers/coupons.js';
import { givenCustomer } from '../helpers/customers.js';
import { counts } from '../helpers/database.js';
import { givenMerchantWithStore } from '../helpers/factories.js';
import type { Reply } from '../helpers/http.js';
import { givenOrder } from '../helpers/orders.js';

type Stock = { available: number; committed: number; on_hand: number };

describe('Orders (/v1/orders)', () => {
  const { app, api } = useTestApp('orders');
  let as: { token: string; storeId: string };
  let warehouse: string;
  before(async () => {
    const { merchant, store } = await givenMerchantWithStore(api);
    as = { token: merchant.token, storeId: store.id };
    warehouse = await givenLocation(api, as);
    await api.put(
      '/v1/taxes',
      {
        shipping_taxable: true,
        rates: [
          { country_code: 'FR', name: 'TVA', rate_bps: 2000 },
          { country_code: 'US', name: 'US', rate_bps: 0 },
          { country_code: 'US', province_code: 'CA', name: 'CA sales tax', rate_bps: 725 },
        ],
      },
      as,
    );
  });

  let seq = 0;
  const unique = () => `${Date.now().toString(36)}${++seq}`;
  /** A product of its own with one variant, and its stock at a location when `available` is given. */
  const givenVariant = async (
    o: { price?: number; available?: number; policy?: 'deny' | 'continue'; tracked?: boolean; location?: string; title?: string } = {},
  ): Promise<string> => {
    const res = await api.post(
      '/v1/products',
      {
        title: o.title ?? `Item ${unique()}`,
        status: 'active',
        variants: [{ price: o.price ?? 1000, inventory_policy: o.policy ?? 'deny', inventory_tracked: o.tracked ?? true }],
      },
      as,
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const id = res.body.data.variants[0].id as string;
    if (o.available !== undefined) await setStock(id, o.available, o.location);
    return id;
  };
  const setStock = async (variant: string, available: number, location = warehouse) => {
    const res = await api.post('/v1/inventory/levels/set', { variant_id: variant, location_id: location, available }, as);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  };
  const stock = async (variant: string, location = warehouse): Promise<Stock | undefined> => {
    const l = (await api.get(`/v1/inventory/levels?variant_id=${variant}&location_id=${location}`, as)).body.data[0];
    return l && { available: l.available, committed: l.committed, on_hand: l.on_hand };
  };
  const paris = { address1: '1 rue de Rivoli', city: 'Paris', country_code: 'FR' };
  const order = (body: Record<string, unknown>): Promise<Reply> => api.post('/v1/orders', body, as);
  const paidOrder = (lines: unknown[], extra: Record<string, unknown> = {}) =>
    givenOrder(api, as, { line_items: lines, financial_status: 'paid', shipping_address: paris, ...extra });
  const fulfil = (id: string, body: Record<string, unknown>) => api.post(`/v1/orders/${id}/fulfill`, body, as);
  const refund = (id: string, body: Record<string, unknown>) => api.post(`/v1/orders/${id}/refund`, body, as);
  const events = (filter: Record<string, unknown>) => app.platform.db.collection('events').find(filter).sort({ _id: 1 }).toArray();
  const customer = async (id: string) => (await api.get(`/v1/customers/${id}`, as)).body.data;

  describe('POST /v1/orders', () => {
    it('prices the order on the server: catalog prices, coupon, taxes by address, shipping', async () => {
      const shirt = await givenVariant({ price: 4500, available: 10 });
      const mug = await givenVariant({ price: 1000, available: 5 });
      const coupon = await givenCoupon(api, as, { type: 'percentage', value: 10 });
      const buyer = (await givenCustomer(api, as)).id;
      const res = await order({
        customer_id: buyer,
        line_items: [
          { variant_id: shirt, quantity: 2 },
          { variant_id: mug, quantity: 1 },
          { title: 'Gift wrap', price: 500, quantity: 1, taxable: false },
        ],
        coupon_code: coupon.code.toLowerCase(),
        shipping_line: { title: 'Colissimo', price: 700 },
        shipping_address: paris,
        financial_status: 'paid',
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const o = res.body.data;
      // 9000 + 1000 + 500 = 10500; 10 % off = 1050, shared 900 / 100 / 50; 20 % tax on the
      // taxable lines' net (8100 → 1620, 900 → 180) and on shipping (700 → 140).
      expect(o).to.include({
        subtotal: 10500,
        discount_total: 1050,
        shipping_total: 700,
        tax_total: 1940,
        total: 12090,
        currency: 'USD',
        financial_status: 'paid',
        fulfillment_status: 'unfulfilled',
        paid_amount: 12090,
        cancelled_at: null,
        cancel_reason: null,
      });
      expect(o.number).to.be.a('number');
      expect(o.line_items.map((l: { discount: number; tax: number; total: number }) => [l.discount, l.tax, l.total])).to.deep.equal([
        [900, 1620, 9720],
        [100, 180, 1080],
        [50, 0, 450],
      ]);
      expect(o.line_items.map((l: { location_id: string | null }) => l.location_id)).to.deep.equal([warehouse, warehouse, null]);
      expect(o.shipping_line).to.deep.equal({ title: 'Colissimo', code: null, price: 700, discount: 0, tax: 140 });
      expect(o.tax_rate).to.deep.equal({ name: 'TVA', rate_bps: 2000 });
      expect(o.coupon).to.deep.equal({ code: coupon.code, discount: 1050 });

      expect(await customer(buyer)).to.include({ orders_count: 1, total_spent: 12090 });
      const transactions = (await api.get(`/v1/payments/transactions?order_id=${o.id}`, as)).body.data;
      expect(transactions.map((t: { kind: string; amount: number }) => [t.kind, t.amount])).to.deep.equal([['sale', 12090]]);
      expect(await events({ idempotency_key: `order.created:${o.id}` })).to.have.length(1);
      expect((await api.get(`/v1/coupons/${coupon.id}`, as)).body.data.usage_count).to.equal(1);
      expect(await events({ type: 'coupon.redeemed', 'payload.coupon.id': coupon.id })).to.have.length(1);
    });

    it('uses the province rate when there is one, and numbers orders in sequence', async () => {
      const mug = await givenVariant({ price: 1000, available: 10 });
      const a = await givenOrder(api, as, {
        line_items: [{ variant_id: mug, quantity: 3 }],
        shipping_address: { address1: '1 Main St', city: 'LA', country_code: 'US', province_code: 'CA' },
      });
      expect(a).to.include({ subtotal: 3000, tax_total: 218, total: 3218 });
      const b = await givenOrder(api, as, {
        line_items: [{ variant_id: mug, quantity: 1 }],
        shipping_address: { address1: '1 Main St', city: 'Austin', country_code: 'US', province_code: 'TX' },
      });
      expect(b).to.include({ tax_total: 0, total: 1000 });
      expect(b.number).to.equal(a.number + 1);
    });

    it('never trusts client totals or prices, and refuses bad orders changing nothing', async () => {
      const shirt = await givenVariant({ price: 4500, available: 10 });
      const before = await counts(app.platform.db);
      const bad: Record<string, unknown>[] = [
        { line_items: [{ variant_id: shirt, quantity: 1 }], total: 1 },
        { line_items: [{ variant_id: shirt, quantity: 1, price: 1 }] },
        { line_items: [] },
        { line_items: [{ variant_id: shirt, quantity: 0 }] },
        { line_items: [{ variant_id: shirt, quantity: 1.5 }] },
        { line_items: [{ variant_id: '000000000000000000000000', quantity: 1 }] },
        { line_items: [{ title: 'Custom', price: -5, quantity: 1 }] },
        { line_items: [{ variant_id: shirt, quantity: 1 }], coupon_code: 'NOPE' },
        { line_items: [{ variant_id: shirt, quantity: 1 }], financial_status: 'refunded' },
        { line_items: [{ variant_id: shirt, quantity: 1 }], shipping_address: { city: 'Nowhere' } },
        { line_items: [{ variant_id: shirt, quantity: 1 }], location_id: 'warehouse' },
      ];
      for (const body of bad) {
        const res = await order(body);
        expect(res.status, `${JSON.stringify(body)} → ${JSON.stringify(res.body)}`).to.equal(400);
      }
      expect((await order({ customer_id: '000000000000000000000000', line_items: [{ variant_id: shirt, quantity: 1 }] })).status).to.equal(404);
      expect((await order({ location_id: '000000000000000000000000', line_items: [{ variant_id: shirt, quantity: 1 }] })).status).to.equal(404);
      expect(await counts(app.platform.db)).to.deep.equal(before);
      expect(await stock(shirt)).to.deep.equal({ available: 10, committed: 0, on_hand: 10 });
    });

    it('lists and reads orders with filters', async () => {
      const mug = await givenVariant({ available: 5 });
      const buyer = (await givenCustomer(api, as)).id;
      const o = await paidOrder([{ variant_id: mug, quantity: 1 }], { customer_id: buyer });
      expect((await api.get(`/v1/orders/${o.id}`, as)).body.data).to.deep.equal(o);
      const paid = (await api.get('/v1/orders?financial_status=paid&limit=250', as)).body.data.map((x: { id: string }) => x.id);
      expect(paid).to.include(o.id);
      const byCustomer = (await api.get(`/v1/orders?customer_id=${buyer}`, as)).body.data;
      expect(byCustomer.map((x: { id: string }) => x.id)).to.deep.equal([o.id]);
      expect((await api.get('/v1/orders?financial_status=lost', as)).status).to.equal(400);
    });
  });

  describe('amounts', () => {
    it('refuses an order whose amounts pass the safe maximum, before anything is written, with or without a customer', async () => {
      const buyer = (await givenCustomer(api, as)).id;
      const coupon = await givenCoupon(api, as, { type: 'fixed_amount', value: 100 });
      const before = await counts(app.platform.db);
      const cases: [Record<string, unknown>, RegExp][] = [
        // 10^11 × 10^5 = 10^16, past 2^53: never computed in floating point, never stored.
        [{ line_items: [{ title: 'Yacht', price: 100_000_000_000, quantity: 100_000 }] }, /body\.line_items\.0: .*100000000000/],
        [{ line_items: [{ title: 'Yacht', price: 100_000_000_000, quantity: 100_000 }], customer_id: buyer }, /body\.line_items\.0: /],
        [
          {
            line_items: [{ title: 'Yacht', price: 100_000_000_000, quantity: 100_000 }],
            customer_id: buyer,
            financial_status: 'paid',
            coupon_code: coupon.code,
          },
          /body\.line_items\.0: /,
        ],
        [
          {
            line_items: [
              { title: 'A', price: 60_000_000_000, quantity: 1 },
              { title: 'B', price: 60_000_000_000, quantity: 1 },
            ],
          },
          /body\.line_items: the subtotal .*100000000000/,
        ],
        [
          { line_items: [{ title: 'A', price: 100_000_000_000, quantity: 1 }], shipping_line: { title: 'Ship', price: 1 } },
          /body: the order's total .*100000000000/,
        ],
        [{ line_items: [{ title: 'A', price: 100_000_000_000, quantity: 1 }], shipping_address: paris }, /body: the order's total/],
      ];
      for (const [body, detail] of cases) {
        const res = await order(body);
        expect(res.status, `${JSON.stringify(body)} → ${JSON.stringify(res.body)}`).to.equal(400);
        expect(res.body.error.code).to.equal('invalid_input');
        expect(res.body.error.details.join('\n')).to.match(detail);
      }
      expect(await counts(app.platform.db)).to.deep.equal(before);
      expect(await customer(buyer)).to.include({ orders_count: 0, total_spent: 0 });
      expect((await api.get(`/v1/coupons/${coupon.id}`, as)).body.data.usage_count).to.equal(0);

      const biggest = await givenOrder(api, as, {
        line_items: [{ title: 'Yacht', price: 100_000_000_000, quantity: 1 }],
        customer_id: buyer,
        financial_status: 'paid',
      });
      expect(biggest.total).to.equal(100_000_000_000);
      expect(await customer(buyer)).to.include({ orders_count: 1, total_spent: 100_000_000_000 });
    });
  });

  describe('stock', () => {
    it('commits stock when an order is created, takes it from the commitment at fulfilment, and gives it back on refund', async () => {
      const v = await givenVariant({ available: 10 });
      const o = await paidOrder([{ variant_id: v, quantity: 3 }]);
      const line = o.line_items[0].id;
      expect(o.line_items[0].location_id).to.equal(warehouse);
      expect(await stock(v)).to.deep.equal({ available: 7, committed: 3, on_hand: 10 });

      expect((await fulfil(o.id, { location_id: warehouse, line_items: [{ line_item_id: line, quantity: 1 }] })).status).to.equal(200);
      expect(await stock(v)).to.deep.equal({ available: 7, committed: 2, on_hand: 9 });
      // One unshipped unit refunded: its commitment goes back to available (restock or not).
      expect((await refund(o.id, { line_items: [{ line_item_id: line, quantity: 1 }] })).status).to.equal(200);
      expect(await stock(v)).to.deep.equal({ available: 8, committed: 1, on_hand: 9 });
      // Two more: the last unshipped one is released, the shipped one comes back with restock.
      const res = await refund(o.id, { line_items: [{ line_item_id: line, quantity: 2 }], restock: true, location_id: warehouse });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data.financial_status).to.equal('refunded');
      expect(await stock(v)).to.deep.equal({ available: 10, committed: 0, on_hand: 10 });
      const reasons = (await events({ type: 'inventory_level.updated', 'payload.inventory_level.variant_id': v })).map((e) => e.payload.reason);
      expect(reasons).to.deep.equal(['set', 'order_reserved', 'fulfillment', 'order_released', 'order_released', 'restock']);
    });

    it('refuses an order for more than is available with 409 insufficient_stock, leaving nothing behind', async () => {
      const scarce = await givenVariant({ available: 2 });
      const plenty = await givenVariant({ available: 5 });
      const coupon = await givenCoupon(api, as, { type: 'percentage', value: 5 });
      const buyer = (await givenCustomer(api, as)).id;
      const before = await counts(app.platform.db);
      const one = await order({ line_items: [{ variant_id: scarce, quantity: 3 }] });
      expect(one.status).to.equal(409);
      expect(one.body.error.code).to.equal('insufficient_stock');
      expect(one.body.error.details).to.deep.equal(['line_items.0: 3 requested, 2 available']);
      // The first line is committed before the second is refused: it is given back.
      const two = await order({
        line_items: [
          { variant_id: plenty, quantity: 1 },
          { variant_id: scarce, quantity: 5 },
        ],
        customer_id: buyer,
        coupon_code: coupon.code,
        financial_status: 'paid',
      });
      expect(two.status).to.equal(409);
      expect(two.body.error.details).to.deep.equal(['line_items.1: 5 requested, 2 available']);
      expect(await counts(app.platform.db)).to.deep.equal(before);
      expect(await stock(plenty)).to.deep.equal({ available: 5, committed: 0, on_hand: 5 });
      expect(await stock(scarce)).to.deep.equal({ available: 2, committed: 0, on_hand: 2 });
      expect((await api.get(`/v1/coupons/${coupon.id}`, as)).body.data.usage_count).to.equal(0);
      expect(await customer(buyer)).to.include({ orders_count: 0, total_spent: 0 });
    });

    it('sells the last 10 units to exactly 10 of 50 concurrent orders; the others fail cleanly and leave nothing behind', async () => {
      const v = await givenVariant({ available: 10 });
      const before = await counts(app.platform.db);
      const results = await Promise.all(Array.from({ length: 50 }, () => order({ line_items: [{ variant_id: v, quantity: 1 }] })));
      const won = results.filter((r) => r.status === 201);
      const lost = results.filter((r) => r.status !== 201);
      expect(won).to.have.length(10);
      expect(lost).to.have.length(40);
      expect(
        lost.every((r) => r.status === 409 && r.body.error.code === 'insufficient_stock'),
        JSON.stringify(lost.find((r) => r.status !== 409)?.body),
      ).to.equal(true);
      expect(await stock(v)).to.deep.equal({ available: 0, committed: 10, on_hand: 10 });
      const stored = await app.platform.db
        .collection('orders')
        .find({ 'line_items.variant_id': new ObjectId(v) })
        .toArray();
      expect(stored.map((d) => d._id.toHexString()).sort()).to.deep.equal(won.map((r) => r.body.data.id).sort());
      // Numbers are taken only by orders that are made: ten, in sequence.
      const numbers = won.map((r) => r.body.data.number as number).sort((a, b) => a - b);
      expect(numbers[9]! - numbers[0]!).to.equal(9);
      const after = await counts(app.platform.db);
      expect(after.orders).to.equal(before.orders! + 10);
      expect(after.events).to.equal(before.events! + 20); // order.created and inventory_level.updated, once per order made
      expect(await events({ type: 'order.created', 'payload.order.id': { $in: won.map((r) => r.body.data.id) } })).to.have.length(10);
    });

    it('lets a variant that allows backorders be ordered beyond its stock, and reserves nothing for custom lines and untracked variants', async () => {
      const backorder = await givenVariant({ available: 1, policy: 'continue' });
      const untracked = await givenVariant({ available: 0, tracked: false });
      const o = await givenOrder(api, as, {
        line_items: [
          { variant_id: backorder, quantity: 3 },
          { variant_id: untracked, quantity: 4 },
          { title: 'Engraving', price: 100, quantity: 1 },
        ],
      });
      expect(o.line_items.map((l: { location_id: string | null }) => l.location_id)).to.deep.equal([warehouse, null, null]);
      expect(await stock(backorder)).to.deep.equal({ available: -2, committed: 3, on_hand: 1 });
      expect(await stock(untracked)).to.deep.equal({ available: 0, committed: 0, on_hand: 0 });
    });

    it('commits at the location given, else at the first active location (oldest first) with enough available', async () => {
      const first = await givenLocation(api, as, `Location ${unique()}`);
      const second = await givenLocation(api, as, `Location ${unique()}`);
      const v = await givenVariant({ available: 1, location: first });
      await setStock(v, 5, second);
      // The warehouse has no stock of it and the first location too little: the second is chosen.
      const a = await givenOrder(api, as, { line_items: [{ variant_id: v, quantity: 3 }] });
      expect(a.line_items[0].location_id).to.equal(second);
      expect(await stock(v, second)).to.deep.equal({ available: 2, committed: 3, on_hand: 5 });
      const b = await givenOrder(api, as, { line_items: [{ variant_id: v, quantity: 1 }], location_id: first });
      expect(b.line_items[0].location_id).to.equal(first);
      expect(await stock(v, first)).to.deep.equal({ available: 0, committed: 1, on_hand: 1 });
      const c = await order({ line_items: [{ variant_id: v, quantity: 1 }], location_id: first });
      expect(c.status).to.equal(409);
      expect(c.body.error.code).to.equal('insufficient_stock');
      await api.post(`/v1/inventory/locations/${first}/deactivate`, undefined, as);
      const d = await order({ line_items: [{ variant_id: v, quantity: 1 }], location_id: first });
      expect(d.status).to.equal(409);
      expect(d.body.error.code).to.equal('location_inactive');
    });
  });

  describe('POST /v1/orders/:id/fulfill', () => {
    it('fulfils in parts from the commitment, and refuses more than is left', async () => {
      const shirt = await givenVariant({ price: 4500, available: 10 });
      const mug = await givenVariant({ available: 5 });
      const o = await paidOrder([
        { variant_id: shirt, quantity: 3 },
        { variant_id: mug, quantity: 1 },
      ]);
      const [shirtLine, mugLine] = o.line_items.map((l: { id: string }) => l.id);
      const first = await fulfil(o.id, {
        location_id: warehouse,
        line_items: [{ line_item_id: shirtLine, quantity: 2 }],
        tracking_company: 'DHL',
        tracking_number: 'JD0001',
        tracking_url: 'https://track.example/JD0001',
      });
      expect(first.status, JSON.stringify(first.body)).to.equal(200);
      expect(first.body.data.fulfillment_status).to.equal('partial');
      expect(first.body.data.fulfillments[0]).to.include({ tracking_number: 'JD0001', location_id: warehouse });
      expect(await stock(shirt)).to.deep.equal({ available: 7, committed: 1, on_hand: 8 });

      const over = await fulfil(o.id, { location_id: warehouse, line_items: [{ line_item_id: shirtLine, quantity: 2 }] });
      expect(over.status).to.equal(409);
      expect(over.body.error.code).to.equal('over_fulfillment');
      const split = await fulfil(o.id, {
        location_id: warehouse,
        line_items: [
          { line_item_id: shirtLine, quantity: 1 },
          { line_item_id: mugLine, quantity: 1 },
        ],
      });
      expect(split.body.data.fulfillment_status).to.equal('fulfilled');
      expect(await stock(shirt)).to.deep.equal({ available: 7, committed: 0, on_hand: 7 });
      expect(await stock(mug)).to.deep.equal({ available: 4, committed: 0, on_hand: 4 });
      expect(await events({ type: 'order.fulfilled', 'payload.order.id': o.id })).to.have.length(2);
    });

    it('never over-fulfils under concurrency: 8 parallel fulfilments of 1 unit on a line of 3', async () => {
      const v = await givenVariant({ available: 3 });
      const o = await paidOrder([{ variant_id: v, quantity: 3 }]);
      const line = o.line_items[0].id;
      const results = await Promise.all(
        Array.from({ length: 8 }, () => fulfil(o.id, { location_id: warehouse, line_items: [{ line_item_id: line, quantity: 1 }] })),
      );
      expect(results.filter((r) => r.status === 200)).to.have.length(3);
      expect(
        results.filter((r) => r.status !== 200).every((r) => r.status === 409),
        JSON.stringify(results.map((r) => r.status)),
      ).to.equal(true);
      const final = (await api.get(`/v1/orders/${o.id}`, as)).body.data;
      expect(final.line_items[0].fulfilled_quantity).to.equal(3);
      expect(final.fulfillments).to.have.length(3);
      expect(await stock(v)).to.deep.equal({ available: 0, committed: 0, on_hand: 0 });
    });

    it('fulfils from another location by moving the commitment there', async () => {
      const store2 = await givenLocation(api, as, `Location ${unique()}`);
      const v = await givenVariant({ available: 4 });
      await setStock(v, 5, store2);
      const o = await paidOrder([{ variant_id: v, quantity: 2 }], { location_id: warehouse });
      const res = await fulfil(o.id, { location_id: store2, line_items: [{ line_item_id: o.line_items[0].id, quantity: 2 }] });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(await stock(v)).to.deep.equal({ available: 4, committed: 0, on_hand: 4 });
      expect(await stock(v, store2)).to.deep.equal({ available: 3, committed: 0, on_hand: 3 });
    });

    it('refuses to fulfil beyond the stock of another location, leaving the order and the stock as they were', async () => {
      const empty = await givenLocation(api, as, `Location ${unique()}`);
      const mug = await givenVariant({ available: 50 });
      const shirt = await givenVariant({ available: 1 });
      await setStock(mug, 5, empty);
      await setStock(shirt, 0, empty);
      const o = await paidOrder([
        { variant_id: mug, quantity: 50 },
        { variant_id: shirt, quantity: 1 },
      ]);
      const [mugLine, shirtLine] = o.line_items.map((l: { id: string }) => l.id);
      const before = await Promise.all([stock(mug), stock(shirt), stock(mug, empty), stock(shirt, empty)]);
      const res = await fulfil(o.id, {
        location_id: empty,
        line_items: [
          { line_item_id: shirtLine, quantity: 1 },
          { line_item_id: mugLine, quantity: 50 },
        ],
      });
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('insufficient_stock');
      expect(await Promise.all([stock(mug), stock(shirt), stock(mug, empty), stock(shirt, empty)])).to.deep.equal(before);
      const after = (await api.get(`/v1/orders/${o.id}`, as)).body.data;
      expect(after.fulfillments).to.deep.equal([]);
      expect(after.line_items.map((l: { fulfilled_quantity: number }) => l.fulfilled_quantity)).to.deep.equal([0, 0]);
      expect(after.fulfillment_status).to.equal('unfulfilled');
      expect(await events({ type: 'order.fulfilled', 'payload.order.id': o.id })).to.deep.equal([]);
    });

    it("refuses unknown lines, bad input and other stores' locations", async () => {
      const v = await givenVariant({ available: 1 });
      const o = await paidOrder([{ variant_id: v, quantity: 1 }]);
      const line = o.line_items[0].id;
      const other = await givenMerchantWithStore(api);
      const theirLocation = (await api.post('/v1/inventory/locations', { name: 'Theirs' }, { token: other.merchant.token, storeId: other.store.id })).body.data
        .id;
      expect((await fulfil(o.id, { location_id: warehouse, line_items: [{ line_item_id: '000000000000000000000000', quantity: 1 }] })).status).to.equal(400);
      expect((await fulfil(o.id, { location_id: warehouse, line_items: [{ line_item_id: line, quantity: 0 }] })).status).to.equal(400);
      expect((await fulfil(o.id, { location_id: warehouse, line_items: [] })).status).to.equal(400);
      expect((await fulfil(o.id, { location_id: theirLocation, line_items: [{ line_item_id: line, quantity: 1 }] })).status).to.equal(404);
      expect((await api.get(`/v1/orders/${o.id}`, as)).body.data.fulfillments).to.deep.equal([]);
    });
  });

  describe('POST /v1/orders/:id/refund', () => {
    it('refunds lines at their share of the total, then the rest, never more than paid', async () => {
      const poster = await givenVariant({ price: 300, available: 3 });
      const o = await paidOrder([{ variant_id: poster, quantity: 3 }]);
      // 3 × 300 = 900, 20 % tax = 180: line total 1080, 360 a unit.
      const line = o.line_items[0].id;
      const one = await refund(o.id, { line_items: [{ line_item_id: line, quantity: 1 }], reason: 'damaged' });
      expect(one.status, JSON.stringify(one.body)).to.equal(200);
      expect(one.body.data).to.include({ refunded_amount: 360, financial_status: 'partially_refunded' });
      const over = await refund(o.id, { amount: 721 });
      expect(over.status).to.equal(409);
      expect(over.body.error.code).to.equal('over_refund');
      const rest = await refund(o.id, { amount: 720 });
      expect(rest.body.data).to.include({ refunded_amount: 1080, financial_status: 'refunded' });
      expect((await refund(o.id, { amount: 1 })).status).to.equal(409);
      const tooMany = await refund(o.id, { line_items: [{ line_item_id: line, quantity: 3 }], amount: 1 });
      expect(tooMany.status).to.equal(409);
      const kinds = (await api.get(`/v1/payments/transactions?order_id=${o.id}`, as)).body.data.map((t: { kind: string; amount: number }) => [
        t.kind,
        t.amount,
      ]);
      expect(kinds).to.deep.equal([
        ['sale', 1080],
        ['refund', 360],
        ['refund', 720],
      ]);
    });

    it('refunds once when the same request is submitted twice with one Idempotency-Key', async () => {
      const o = await paidOrder([{ title: 'Service', price: 500, quantity: 2 }]);
      const headers = { 'idempotency-key': `refund-${o.id}` };
      const body = { amount: 100, reason: 'goodwill' };
      const [a, b] = await Promise.all([
        api.post(`/v1/orders/${o.id}/refund`, body, { ...as, headers }),
        api.post(`/v1/orders/${o.id}/refund`, body, { ...as, headers }),
      ]);
      const statuses = [a.status, b.status].sort();
      // Either the second waited for the first and replayed it, or it arrived while the first ran (409, retry later).
      expect(statuses[0]).to.equal(200);
      expect([200, 409]).to.include(statuses[1]);
      const again = await api.post(`/v1/orders/${o.id}/refund`, body, { ...as, headers });
      expect(again.status).to.equal(200);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      const final = (await api.get(`/v1/orders/${o.id}`, as)).body.data;
      expect(final.refunds).to.have.length(1);
      expect(final.refunded_amount).to.equal(100);
    });

    it('refuses to refund an order that was not paid, and bad refunds', async () => {
      const pending = await givenOrder(api, as, { line_items: [{ title: 'Service', price: 300, quantity: 1 }] });
      expect((await refund(pending.id, { amount: 1 })).body.error.code).to.equal('over_refund');
      for (const body of [{}, { amount: 0 }, { amount: -5 }, { amount: 1.5 }, { restock: true, amount: 1 }, { amount: 1, extra: true }]) {
        expect((await refund(pending.id, body)).status, JSON.stringify(body)).to.equal(400);
      }
      expect((await api.get(`/v1/orders/${pending.id}`, as)).body.data.refunds).to.deep.equal([]);
    });
  });

  describe('POST /v1/orders/:id/cancel', () => {
    it("cancels a paid order: gives its stock back, refunds what was paid, and lowers the customer's total", async () => {
      const v = await givenVariant({ price: 2000, available: 4 });
      const buyer = (await givenCustomer(api, as)).id;
      const o = await paidOrder([{ variant_id: v, quantity: 3 }], { customer_id: buyer });
      expect(await stock(v)).to.deep.equal({ available: 1, committed: 3, on_hand: 4 });
      expect(await customer(buyer)).to.include({ orders_count: 1, total_spent: o.total });

      const res = await api.post(`/v1/orders/${o.id}/cancel`, { reason: 'customer' }, as);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const c = res.body.data;
      expect(c).to.include({ cancel_reason: 'customer', financial_status: 'refunded', refunded_amount: o.total, fulfillment_status: 'unfulfilled' });
      expect(c.cancelled_at).to.be.a('string');
      expect(c.refunds).to.have.length(1);
      expect(c.refunds[0]).to.include({ amount: o.total });
      expect(c.line_items[0]).to.include({ refunded_quantity: 3, location_id: warehouse });
      expect(await stock(v)).to.deep.equal({ available: 4, committed: 0, on_hand: 4 });
      expect(await customer(buyer)).to.include({ orders_count: 1, total_spent: 0 });
      const kinds = (await api.get(`/v1/payments/transactions?order_id=${o.id}`, as)).body.data.map((t: { kind: string; amount: number }) => [
        t.kind,
        t.amount,
      ]);
      expect(kinds).to.deep.equal([
        ['sale', o.total],
        ['refund', o.total],
      ]);
      expect(await events({ type: 'order.cancelled', 'payload.order.id': o.id })).to.have.length(1);

      const again = await api.post(`/v1/orders/${o.id}/cancel`, {}, as);
      expect([again.status, again.body.error.code]).to.deep.equal([409, 'order_cancelled']);
      const ship = await fulfil(o.id, { location_id: warehouse, line_items: [{ line_item_id: o.line_items[0].id, quantity: 1 }] });
      expect([ship.status, ship.body.error.code]).to.deep.equal([409, 'order_cancelled']);
      const pay = await api.post(`/v1/orders/${o.id}/mark-paid`, {}, as);
      expect([pay.status, pay.body.error.code]).to.deep.equal([409, 'order_cancelled']);
    });

    it('cancels an unpaid order as voided, and refuses an order with shipped units and bad bodies', async () => {
      const v = await givenVariant({ available: 2 });
      const pending = await givenOrder(api, as, { line_items: [{ variant_id: v, quantity: 2 }] });
      const res = await api.post(`/v1/orders/${pending.id}/cancel`, {}, as);
      expect(res.status).to.equal(200);
      expect(res.body.data).to.include({ financial_status: 'voided', cancel_reason: 'other', refunded_amount: 0 });
      expect(await stock(v)).to.deep.equal({ available: 2, committed: 0, on_hand: 2 });
      expect((await api.get(`/v1/payments/transactions?order_id=${pending.id}`, as)).body.data).to.deep.equal([]);

      const shipped = await paidOrder([{ variant_id: v, quantity: 2 }]);
      await fulfil(shipped.id, { location_id: warehouse, line_items: [{ line_item_id: shipped.line_items[0].id, quantity: 1 }] });
      const refused = await api.post(`/v1/orders/${shipped.id}/cancel`, {}, as);
      expect([refused.status, refused.body.error.code]).to.deep.equal([409, 'order_fulfilled']);
      for (const body of [{ reason: 'bored' }, { reason: 'customer', restock: true }]) {
        expect((await api.post(`/v1/orders/${shipped.id}/cancel`, body, as)).status, JSON.stringify(body)).to.equal(400);
      }
      expect((await api.get(`/v1/orders/${shipped.id}`, as)).body.data.cancelled_at).to.equal(null);
      expect(await stock(v)).to.deep.equal({ available: 0, committed: 1, on_hand: 1 });
    });
  });

  describe('POST /v1/orders/:id/mark-paid', () => {
    it("marks a pending order paid; a customer's total spent counts only paid orders", async () => {
      const buyer = (await givenCustomer(api, as)).id;
      const o = await givenOrder(api, as, { customer_id: buyer, line_items: [{ title: 'Consulting', price: 2500, quantity: 2 }] });
      expect(o).to.include({ financial_status: 'pending', paid_amount: 0 });
      expect(await customer(buyer)).to.include({ orders_count: 1, total_spent: 0 });

      const res = await api.post(`/v1/orders/${o.id}/mark-paid`, {}, as);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data).to.include({ financial_status: 'paid', paid_amount: 5000 });
      expect(await customer(buyer)).to.include({ orders_count: 1, total_spent: 5000 });
      const kinds = (await api.get(`/v1/payments/transactions?order_id=${o.id}`, as)).body.data.map((t: { kind: string; amount: number }) => [
        t.kind,
        t.amount,
      ]);
      expect(kinds).to.deep.equal([['sale', 5000]]);
      expect(await events({ type: 'order.paid', 'payload.order.id': o.id })).to.have.length(1);

      await refund(o.id, { amount: 1000 });
      expect(await customer(buyer)).to.include({ orders_count: 1, total_spent: 4000 });
      const again = await api.post(`/v1/orders/${o.id}/mark-paid`, {}, as);
      expect([again.status, again.body.error.code]).to.deep.equal([409, 'order_not_pending']);
      expect((await api.post(`/v1/orders/${o.id}/mark-paid`, { amount: 5000 }, as)).status).to.equal(400);
    });
  });

  describe('coupons on orders', () => {
    it('redeems a one-use-per-customer coupon exactly once from 10 concurrent orders of one customer', async () => {
      const v = await givenVariant({ available: 20 });
      const coupon = await givenCoupon(api, as, { type: 'percentage', value: 50, usage_limit_per_customer: 1 });
      const buyer = (await givenCustomer(api, as)).id;
      const results = await Promise.all(
        Array.from({ length: 10 }, () => order({ customer_id: buyer, coupon_code: coupon.code, line_items: [{ variant_id: v, quantity: 1 }] })),
      );
      const statuses = results.map((r) => r.status);
      expect(
        statuses.filter((s) => s === 201),
        JSON.stringify(results.map((r) => r.body.error?.code ?? r.status)),
      ).to.have.length(1);
      expect(
        results
          .filter((r) => r.status !== 201)
          .every((r) => [400, 409].includes(r.status) && /customer_usage_limit_reached/.test(JSON.stringify(r.body.error))),
      ).to.equal(true);
      expect((await api.get(`/v1/coupons/${coupon.id}`, as)).body.data.usage_count).to.equal(1);
      expect(await events({ type: 'coupon.redeemed', 'payload.coupon.id': coupon.id })).to.have.length(1);
      expect(await stock(v)).to.deep.equal({ available: 19, committed: 1, on_hand: 20 });
      expect(await customer(buyer)).to.include({ orders_count: 1 });
    });

    it('holds the per-customer limit across orders; other customers may still use the coupon', async () => {
      const coupon = await givenCoupon(api, as, { type: 'fixed_amount', value: 100, usage_limit_per_customer: 2 });
      const [ann, bob] = [(await givenCustomer(api, as)).id, (await givenCustomer(api, as)).id];
      const line = [{ title: 'Box', price: 1000, quantity: 1 }];
      for (let i = 0; i < 2; i++) await givenOrder(api, as, { customer_id: ann, coupon_code: coupon.code, line_items: line });
      const third = await order({ customer_id: ann, coupon_code: coupon.code, line_items: line });
      expect(third.status).to.equal(400);
      expect(third.body.error).to.deep.include({ code: 'coupon_not_applicable', details: ['body.coupon_code: customer_usage_limit_reached'] });
      await givenOrder(api, as, { customer_id: bob, coupon_code: coupon.code, line_items: line });
      // The limit is counted by email when there is no customer, and needs one or the other.
      await givenOrder(api, as, { email: 'walk-in@example.com', coupon_code: coupon.code, line_items: line });
      const anonymous = await order({ coupon_code: coupon.code, line_items: line });
      expect(anonymous.body.error).to.deep.include({ code: 'coupon_not_applicable', details: ['body.coupon_code: customer_required'] });
      expect((await api.get(`/v1/coupons/${coupon.id}`, as)).body.data.usage_count).to.equal(4);
    });

    it('counts a coupon use only for an order that is made', async () => {
      const scarce = await givenVariant({ available: 0 });
      const coupon = await givenCoupon(api, as, { type: 'percentage', value: 10, usage_limit: 5 });
      const buyer = (await givenCustomer(api, as)).id;
      const refused = await order({ customer_id: buyer, coupon_code: coupon.code, line_items: [{ variant_id: scarce, quantity: 1 }] });
      expect(refused.status).to.equal(409);
      const huge = await order({ customer_id: buyer, coupon_code: coupon.code, line_items: [{ title: 'Yacht', price: 100_000_000_000, quantity: 100_000 }] });
      expect(huge.status).to.equal(400);
      const c = (await api.get(`/v1/coupons/${coupon.id}`, as)).body.data;
      expect(c.usage_count).to.equal(0);
      expect(await events({ type: 'coupon.redeemed', 'payload.coupon.id': coupon.id })).to.deep.equal([]);
      expect(await app.platform.db.collection('coupon_redemptions').countDocuments({ coupon_id: new ObjectId(coupon.id) })).to.equal(0);
    });
  });

  describe('isolation between stores', () => {
    it("answers 404 for another store's orders and 403 for a store the caller does not own", async () => {
      const v = await givenVariant({ available: 1 });
      const o = await paidOrder([{ variant_id: v, quantity: 1 }]);
      const other = await givenMerchantWithStore(api);
      const theirs = { token: other.merchant.token, storeId: other.store.id };
      expect((await api.get(`/v1/orders/${o.id}`, theirs)).status).to.equal(404);
      expect((await api.post(`/v1/orders/${o.id}/refund`, { amount: 1 }, theirs)).status).to.equal(404);
      expect((await api.post(`/v1/orders/${o.id}/cancel`, {}, theirs)).status).to.equal(404);
      expect((await api.post(`/v1/orders/${o.id}/mark-paid`, {}, theirs)).status).to.equal(404);
      expect(
        (await api.post(`/v1/orders/${o.id}/fulfill`, { location_id: warehouse, line_items: [{ line_item_id: o.line_items[0].id, quantity: 1 }] }, theirs))
          .status,
      ).to.equal(404);
      expect((await api.post('/v1/orders', { line_items: [{ variant_id: v, quantity: 1 }] }, theirs)).status).to.equal(400);
      expect((await api.post('/v1/orders', { line_items: [{ title: 'X', price: 1, quantity: 1 }], location_id: warehouse }, theirs)).status).to.equal(404);
      expect((await api.get('/v1/orders', { token: other.merchant.token, storeId: as.storeId })).status).to.equal(403);
      expect((await api.get('/v1/orders?limit=250', theirs)).body.data).to.deep.equal([]);
      const mine = (await api.get(`/v1/orders/${o.id}`, as)).body.data;
      expect(mine).to.include({ cancelled_at: null, refunded_amount: 0 });
      expect(mine.refunds).to.deep.equal([]);
      expect(await stock(v)).to.deep.equal({ available: 0, committed: 1, on_hand: 1 });
    });
  });
});
