import { expect } from 'chai';
import { startTestApp, type TestApp } from './helpers/app.js';
import { counts } from './helpers/database.js';
import { givenMerchantWithStore } from './helpers/factories.js';
import { client, type Client, type Reply } from './helpers/http.js';

describe('Orders (/v1/orders)', () => {
  let app: TestApp;
  let api: Client;
  let as: { token: string; storeId: string };
  let shirt: string; // tracked, deny overselling, 4500
  let mug: string; // tracked, deny, 1000
  let poster: string; // oversell allowed, 300
  let warehouse: string;
  let customer: string;
  before(async () => {
    app = await startTestApp('orders');
    api = client(app.url);
    const { merchant, store } = await givenMerchantWithStore(api);
    as = { token: merchant.token, storeId: store.id };
    const product = async (title: string, price: number, policy = 'deny') =>
      (await api.post('/v1/products', { title, status: 'active', variants: [{ price, inventory_policy: policy }] }, as)).body.data.variants[0].id as string;
    shirt = await product('Shirt', 4500);
    mug = await product('Mug', 1000);
    poster = await product('Poster', 300, 'continue');
    warehouse = (await api.post('/v1/inventory/locations', { name: 'Warehouse' }, as)).body.data.id;
    for (const [variant, available] of [[shirt, 10], [mug, 5]] as const) {
      await api.post('/v1/inventory/levels/set', { variant_id: variant, location_id: warehouse, available }, as);
    }
    await api.put('/v1/taxes', { shipping_taxable: true, rates: [{ country_code: 'FR', name: 'TVA', rate_bps: 2000 }, { country_code: 'US', name: 'US', rate_bps: 0 }, { country_code: 'US', province_code: 'CA', name: 'CA sales tax', rate_bps: 725 }] }, as);
    await api.post('/v1/coupons', { code: 'TEN', type: 'percentage', value: 10, active: true }, as);
    customer = (await api.post('/v1/customers', { email: 'buyer@example.com', first_name: 'Bea' }, as)).body.data.id;
  });
  after(() => app.close());

  const paris = { address1: '1 rue de Rivoli', city: 'Paris', country_code: 'FR' };
  const stock = async (variant: string) => (await api.get(`/v1/inventory/levels?variant_id=${variant}&location_id=${warehouse}`, as)).body.data[0]?.available;
  const order = async (body: Record<string, unknown>): Promise<Reply> => api.post('/v1/orders', body, as);
  const paidOrder = async (lines: unknown[]) => (await order({ line_items: lines, financial_status: 'paid', shipping_address: paris })).body.data;

  describe('POST /v1/orders', () => {
    it('prices the order on the server: catalog prices, coupon, taxes by address, shipping', async () => {
      const res = await order({
        customer_id: customer,
        line_items: [{ variant_id: shirt, quantity: 2 }, { variant_id: mug, quantity: 1 }, { title: 'Gift wrap', price: 500, quantity: 1, taxable: false }],
        coupon_code: 'ten',
        shipping_line: { title: 'Colissimo', price: 700 },
        shipping_address: paris,
        financial_status: 'paid',
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const o = res.body.data;
      // 9000 + 1000 + 500 = 10500; 10 % off = 1050, shared 900 / 100 / 50; 20 % tax on the
      // taxable lines' net (8100 → 1620, 900 → 180) and on shipping (700 → 140).
      expect(o).to.include({ subtotal: 10500, discount_total: 1050, shipping_total: 700, tax_total: 1940, total: 12090, currency: 'USD', financial_status: 'paid', fulfillment_status: 'unfulfilled', paid_amount: 12090, email: 'buyer@example.com' });
      expect(o.number).to.be.a('number');
      expect(o.line_items.map((l: { discount: number; tax: number; total: number }) => [l.discount, l.tax, l.total])).to.deep.equal([[900, 1620, 9720], [100, 180, 1080], [50, 0, 450]]);
      expect(o.shipping_line).to.deep.equal({ title: 'Colissimo', price: 700, discount: 0, tax: 140 });
      expect(o.tax_rate).to.deep.equal({ name: 'TVA', rate_bps: 2000 });
      expect(o.coupon).to.deep.equal({ code: 'TEN', discount: 1050 });

      const c = (await api.get(`/v1/customers/${customer}`, as)).body.data;
      expect(c).to.include({ orders_count: 1, total_spent: 12090 });
      const transactions = (await api.get(`/v1/payments/transactions?order_id=${o.id}`, as)).body.data;
      expect(transactions.map((t: { kind: string; amount: number }) => [t.kind, t.amount])).to.deep.equal([['sale', 12090]]);
      expect(await app.platform.db.collection('events').countDocuments({ idempotency_key: `order.created:${o.id}` })).to.equal(1);
    });

    it('uses the province rate when there is one, and numbers orders in sequence', async () => {
      const a = (await order({ line_items: [{ variant_id: mug, quantity: 3 }], shipping_address: { address1: '1 Main St', city: 'LA', country_code: 'US', province_code: 'CA' } })).body.data;
      expect(a).to.include({ subtotal: 3000, tax_total: 218, total: 3218 });
      const b = (await order({ line_items: [{ variant_id: mug, quantity: 1 }], shipping_address: { address1: '1 Main St', city: 'Austin', country_code: 'US', province_code: 'TX' } })).body.data;
      expect(b).to.include({ tax_total: 0, total: 1000 });
      expect(b.number).to.equal(a.number + 1);
    });

    it('never trusts client totals or prices, and refuses bad orders changing nothing', async () => {
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
      ];
      for (const body of bad) {
        const res = await order(body);
        expect(res.status, `${JSON.stringify(body)} → ${JSON.stringify(res.body)}`).to.equal(400);
      }
      expect((await order({ customer_id: '000000000000000000000000', line_items: [{ variant_id: shirt, quantity: 1 }] })).status).to.equal(404);
      expect(await counts(app.platform.db)).to.deep.equal(before);
    });

    it('lists and reads orders with filters', async () => {
      const o = await paidOrder([{ variant_id: mug, quantity: 1 }]);
      expect((await api.get(`/v1/orders/${o.id}`, as)).body.data).to.deep.equal(o);
      const paid = (await api.get('/v1/orders?financial_status=paid&limit=250', as)).body.data.map((x: { id: string }) => x.id);
      expect(paid).to.include(o.id);
      const byCustomer = (await api.get(`/v1/orders?customer_id=${customer}`, as)).body.data;
      expect(byCustomer.every((x: { customer_id: string }) => x.customer_id === customer)).to.equal(true);
      expect((await api.get('/v1/orders?financial_status=lost', as)).status).to.equal(400);
    });
  });

  describe('POST /v1/orders/:id/fulfill', () => {
    it('fulfils in parts, takes stock at the location, and refuses more than is left', async () => {
      const o = await paidOrder([{ variant_id: shirt, quantity: 3 }, { variant_id: mug, quantity: 1 }]);
      const [shirtLine, mugLine] = o.line_items.map((l: { id: string }) => l.id);
      const stockBefore = await stock(shirt);
      const first = await api.post(`/v1/orders/${o.id}/fulfill`, { location_id: warehouse, line_items: [{ line_item_id: shirtLine, quantity: 2 }], tracking_company: 'DHL', tracking_number: 'JD0001', tracking_url: 'https://track.example/JD0001' }, as);
      expect(first.status, JSON.stringify(first.body)).to.equal(200);
      expect(first.body.data.fulfillment_status).to.equal('partial');
      expect(first.body.data.fulfillments[0]).to.include({ tracking_number: 'JD0001', location_id: warehouse });
      expect(await stock(shirt)).to.equal(stockBefore - 2);

      const over = await api.post(`/v1/orders/${o.id}/fulfill`, { location_id: warehouse, line_items: [{ line_item_id: shirtLine, quantity: 2 }] }, as);
      expect(over.status).to.equal(409);
      expect(over.body.error.code).to.equal('over_fulfillment');
      const split = await api.post(`/v1/orders/${o.id}/fulfill`, { location_id: warehouse, line_items: [{ line_item_id: shirtLine, quantity: 1 }, { line_item_id: mugLine, quantity: 1 }] }, as);
      expect(split.body.data.fulfillment_status).to.equal('fulfilled');
      expect(await stock(shirt)).to.equal(stockBefore - 3);
      expect(await app.platform.db.collection('events').countDocuments({ type: 'order.fulfilled', 'payload.order.id': o.id })).to.equal(2);
    });

    it('never over-fulfils under concurrency: 8 parallel fulfilments of 1 unit on a line of 3', async () => {
      const o = await paidOrder([{ variant_id: poster, quantity: 3 }]);
      const line = o.line_items[0].id;
      const results = await Promise.all(Array.from({ length: 8 }, () => api.post(`/v1/orders/${o.id}/fulfill`, { location_id: warehouse, line_items: [{ line_item_id: line, quantity: 1 }] }, as)));
      expect(results.filter((r) => r.status === 200)).to.have.length(3);
      expect(results.filter((r) => r.status !== 200).every((r) => r.status === 409)).to.equal(true);
      const final = (await api.get(`/v1/orders/${o.id}`, as)).body.data;
      expect(final.line_items[0].fulfilled_quantity).to.equal(3);
      expect(final.fulfillments).to.have.length(3);
    });

    it('refuses to fulfil beyond the location\'s stock, leaving the order and the stock as they were', async () => {
      const o = await paidOrder([{ variant_id: mug, quantity: 50 }, { variant_id: shirt, quantity: 1 }]);
      const [mugLine, shirtLine] = o.line_items.map((l: { id: string }) => l.id);
      const [mugStock, shirtStock] = [await stock(mug), await stock(shirt)];
      const res = await api.post(`/v1/orders/${o.id}/fulfill`, { location_id: warehouse, line_items: [{ line_item_id: shirtLine, quantity: 1 }, { line_item_id: mugLine, quantity: 50 }] }, as);
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('insufficient_stock');
      expect([await stock(mug), await stock(shirt)]).to.deep.equal([mugStock, shirtStock]);
      const after = (await api.get(`/v1/orders/${o.id}`, as)).body.data;
      expect(after.fulfillments).to.deep.equal([]);
      expect(after.line_items.map((l: { fulfilled_quantity: number }) => l.fulfilled_quantity)).to.deep.equal([0, 0]);
      expect(after.fulfillment_status).to.equal('unfulfilled');
    });

    it('refuses unknown lines, bad input and other stores\' locations', async () => {
      const o = await paidOrder([{ variant_id: poster, quantity: 1 }]);
      const line = o.line_items[0].id;
      const other = await givenMerchantWithStore(api);
      const theirLocation = (await api.post('/v1/inventory/locations', { name: 'Theirs' }, { token: other.merchant.token, storeId: other.store.id })).body.data.id;
      expect((await api.post(`/v1/orders/${o.id}/fulfill`, { location_id: warehouse, line_items: [{ line_item_id: '000000000000000000000000', quantity: 1 }] }, as)).status).to.equal(400);
      expect((await api.post(`/v1/orders/${o.id}/fulfill`, { location_id: warehouse, line_items: [{ line_item_id: line, quantity: 0 }] }, as)).status).to.equal(400);
      expect((await api.post(`/v1/orders/${o.id}/fulfill`, { location_id: warehouse, line_items: [] }, as)).status).to.equal(400);
      expect((await api.post(`/v1/orders/${o.id}/fulfill`, { location_id: theirLocation, line_items: [{ line_item_id: line, quantity: 1 }] }, as)).status).to.equal(404);
      expect((await api.get(`/v1/orders/${o.id}`, as)).body.data.fulfillments).to.deep.equal([]);
    });
  });

  describe('POST /v1/orders/:id/refund', () => {
    it('refunds lines at their share of the total, then the rest, never more than paid', async () => {
      const o = await paidOrder([{ variant_id: poster, quantity: 3 }]);
      // 3 × 300 = 900, 20 % tax = 180: line total 1080, 360 a unit.
      const line = o.line_items[0].id;
      const one = await api.post(`/v1/orders/${o.id}/refund`, { line_items: [{ line_item_id: line, quantity: 1 }], reason: 'damaged' }, as);
      expect(one.status, JSON.stringify(one.body)).to.equal(200);
      expect(one.body.data).to.include({ refunded_amount: 360, financial_status: 'partially_refunded' });
      const over = await api.post(`/v1/orders/${o.id}/refund`, { amount: 721 }, as);
      expect(over.status).to.equal(409);
      expect(over.body.error.code).to.equal('over_refund');
      const rest = await api.post(`/v1/orders/${o.id}/refund`, { amount: 720 }, as);
      expect(rest.body.data).to.include({ refunded_amount: 1080, financial_status: 'refunded' });
      expect((await api.post(`/v1/orders/${o.id}/refund`, { amount: 1 }, as)).status).to.equal(409);
      const tooMany = await api.post(`/v1/orders/${o.id}/refund`, { line_items: [{ line_item_id: line, quantity: 3 }], amount: 1 }, as);
      expect(tooMany.status).to.equal(409);
      const kinds = (await api.get(`/v1/payments/transactions?order_id=${o.id}`, as)).body.data.map((t: { kind: string; amount: number }) => [t.kind, t.amount]);
      expect(kinds).to.deep.equal([['sale', 1080], ['refund', 360], ['refund', 720]]);
    });

    it('refunds once when the same request is submitted twice with one Idempotency-Key', async () => {
      const o = await paidOrder([{ variant_id: poster, quantity: 2 }]);
      const headers = { 'idempotency-key': `refund-${o.id}` };
      const body = { amount: 100, reason: 'goodwill' };
      const [a, b] = await Promise.all([api.post(`/v1/orders/${o.id}/refund`, body, { ...as, headers }), api.post(`/v1/orders/${o.id}/refund`, body, { ...as, headers })]);
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

    it('restocks refunded lines at the location when asked', async () => {
      const o = await paidOrder([{ variant_id: shirt, quantity: 2 }]);
      const line = o.line_items[0].id;
      await api.post(`/v1/orders/${o.id}/fulfill`, { location_id: warehouse, line_items: [{ line_item_id: line, quantity: 2 }] }, as);
      const before = await stock(shirt);
      const res = await api.post(`/v1/orders/${o.id}/refund`, { line_items: [{ line_item_id: line, quantity: 2 }], restock: true, location_id: warehouse }, as);
      expect(res.status).to.equal(200);
      expect(await stock(shirt)).to.equal(before + 2);
    });

    it('restocks only units that were shipped, and an order refunded before shipping stays unfulfilled', async () => {
      const o = await paidOrder([{ variant_id: shirt, quantity: 3 }]);
      const line = o.line_items[0].id;
      await api.post(`/v1/orders/${o.id}/fulfill`, { location_id: warehouse, line_items: [{ line_item_id: line, quantity: 1 }] }, as);
      const before = await stock(shirt);
      // 3 ordered, 1 shipped: refunding 2 cancels the 2 unshipped units, nothing goes back.
      await api.post(`/v1/orders/${o.id}/refund`, { line_items: [{ line_item_id: line, quantity: 2 }], restock: true, location_id: warehouse }, as);
      expect(await stock(shirt)).to.equal(before);
      const last = await api.post(`/v1/orders/${o.id}/refund`, { line_items: [{ line_item_id: line, quantity: 1 }], restock: true, location_id: warehouse }, as);
      expect(last.body.data.financial_status).to.equal('refunded');
      expect(await stock(shirt)).to.equal(before + 1);

      const cancelled = await paidOrder([{ variant_id: poster, quantity: 2 }]);
      const res = await api.post(`/v1/orders/${cancelled.id}/refund`, { line_items: [{ line_item_id: cancelled.line_items[0].id, quantity: 2 }] }, as);
      expect(res.body.data).to.include({ fulfillment_status: 'unfulfilled', financial_status: 'refunded' });
    });

    it('gives concurrent first orders of a store distinct numbers', async () => {
      const fresh = await givenMerchantWithStore(api);
      const who = { token: fresh.merchant.token, storeId: fresh.store.id };
      const results = await Promise.all(Array.from({ length: 6 }, () => api.post('/v1/orders', { line_items: [{ title: 'Service', price: 100, quantity: 1 }] }, who)));
      expect(results.map((r) => r.status)).to.deep.equal(Array(6).fill(201));
      expect(new Set(results.map((r) => r.body.data.number)).size).to.equal(6);
    });

    it('refuses to refund an order that was not paid, and bad refunds', async () => {
      const pending = (await order({ line_items: [{ variant_id: poster, quantity: 1 }] })).body.data;
      expect((await api.post(`/v1/orders/${pending.id}/refund`, { amount: 1 }, as)).body.error.code).to.equal('over_refund');
      for (const body of [{}, { amount: 0 }, { amount: -5 }, { amount: 1.5 }, { restock: true, amount: 1 }, { amount: 1, extra: true }]) {
        expect((await api.post(`/v1/orders/${pending.id}/refund`, body, as)).status, JSON.stringify(body)).to.equal(400);
      }
      expect((await api.get(`/v1/orders/${pending.id}`, as)).body.data.refunds).to.deep.equal([]);
    });

    it('keeps the customer\'s total spent current', async () => {
      const c = (await api.post('/v1/customers', { email: `spender-${Date.now()}@example.com` }, as)).body.data.id;
      const o = (await order({ customer_id: c, line_items: [{ variant_id: poster, quantity: 1 }], financial_status: 'paid' })).body.data;
      await api.post(`/v1/orders/${o.id}/refund`, { amount: 100 }, as);
      expect((await api.get(`/v1/customers/${c}`, as)).body.data).to.include({ orders_count: 1, total_spent: o.total - 100 });
    });
  });

  describe('isolation between stores', () => {
    it('answers 404 for another store\'s orders and 403 for a store the caller does not own', async () => {
      const o = await paidOrder([{ variant_id: poster, quantity: 1 }]);
      const other = await givenMerchantWithStore(api);
      const theirs = { token: other.merchant.token, storeId: other.store.id };
      expect((await api.get(`/v1/orders/${o.id}`, theirs)).status).to.equal(404);
      expect((await api.post(`/v1/orders/${o.id}/refund`, { amount: 1 }, theirs)).status).to.equal(404);
      expect((await api.post(`/v1/orders/${o.id}/fulfill`, { location_id: warehouse, line_items: [{ line_item_id: o.line_items[0].id, quantity: 1 }] }, theirs)).status).to.equal(404);
      expect((await api.post('/v1/orders', { line_items: [{ variant_id: poster, quantity: 1 }] }, theirs)).status).to.equal(400);
      expect((await api.get('/v1/orders', { token: other.merchant.token, storeId: as.storeId })).status).to.equal(403);
      expect((await api.get('/v1/orders?limit=250', theirs)).body.data).to.deep.equal([]);
      expect((await api.get(`/v1/orders/${o.id}`, as)).body.data.refunds).to.deep.equal([]);
    });
  });
});
