import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import { taxOn } from '../../src/taxes/index.js';
import { useTestApp } from '../helpers/app.js';
import { counts } from '../helpers/database.js';
import { givenMerchantWithStore, type As } from '../helpers/factories.js';
import type { Reply } from '../helpers/http.js';

/**
 * The store's tax table (/v1/taxes) and what it does to orders (/v1/orders): which rate an
 * address gets, half-up rounding per line, shipping, and the totals. docs/taxes.md and the
 * pricing section of docs/orders.md.
 */
describe('Taxes (/v1/taxes, and order totals)', () => {
  const { app, api } = useTestApp('taxes');

  const TABLE = {
    shipping_taxable: true,
    rates: [
      { country_code: 'FR', name: 'TVA', rate_bps: 2000 },
      { country_code: 'CA', name: 'GST', rate_bps: 500 },
      { country_code: 'CA', province_code: 'ON', name: 'HST', rate_bps: 1300 },
      { country_code: 'US', province_code: 'NY', name: 'NY sales tax', rate_bps: 400 },
      { country_code: 'DE', name: 'MwSt', rate_bps: 1900 },
    ],
  };
  const address = (country_code: string, province_code?: string) => ({
    address1: '1 Main St',
    city: 'Town',
    country_code,
    ...(province_code ? { province_code } : {}),
  });

  /** A new shop with TABLE (or `table`) as its tax table. */
  async function shopWithTable(table: unknown = TABLE): Promise<As> {
    const { as } = await givenMerchantWithStore(api);
    const res = await api.put('/v1/taxes', table, as);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return as;
  }

  const order = (as: As, body: Record<string, unknown>): Promise<Reply> => api.post('/v1/orders', body, as);
  const line = (price: number, quantity = 1, extra: Record<string, unknown> = {}) => ({ title: 'Item', price, quantity, ...extra });

  describe('GET and PUT /v1/taxes', () => {
    it('reads an empty table (no tax anywhere) for a store that never saved one', async () => {
      const { as } = await givenMerchantWithStore(api);
      const res = await api.get('/v1/taxes', as);
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal({ shipping_taxable: true, rates: [], updated_at: null });
    });

    it('replaces the whole table, province_code defaulting to null, and records tax_settings.updated each time', async () => {
      const { store, as } = await givenMerchantWithStore(api);
      const first = await api.put('/v1/taxes', TABLE, as);
      expect(first.status).to.equal(200);
      expect(first.body.data.rates).to.have.length(5);
      expect(first.body.data.rates[0]).to.deep.equal({ country_code: 'FR', province_code: null, name: 'TVA', rate_bps: 2000 });
      expect(first.body.data.updated_at).to.be.a('string');
      expect((await api.get('/v1/taxes', as)).body).to.deep.equal(first.body);

      // A second PUT is the whole table: rates left out are gone; shipping_taxable left out is true.
      const second = await api.put('/v1/taxes', { rates: [{ country_code: 'JP', name: 'Consumption tax', rate_bps: 1000 }] }, as);
      expect(second.status).to.equal(200);
      expect(second.body.data).to.deep.include({
        shipping_taxable: true,
        rates: [{ country_code: 'JP', province_code: null, name: 'Consumption tax', rate_bps: 1000 }],
      });
      const third = await api.put('/v1/taxes', { shipping_taxable: false, rates: [] }, as);
      expect(third.body.data).to.deep.include({ shipping_taxable: false, rates: [] });

      const mine = await app.platform.db
        .collection('events')
        .find({ type: 'tax_settings.updated', store_id: new ObjectId(store.id) })
        .sort({ _id: 1 })
        .toArray();
      expect(mine.map((e) => e.idempotency_key)).to.deep.equal([1, 2, 3].map((v) => `tax_settings.updated:${store.id}:v${v}`));
      expect(mine[2]!.payload).to.deep.equal({ tax_settings: third.body.data });
    });

    it('refuses bad tables with path-prefixed details and changes nothing', async () => {
      const as = await shopWithTable();
      const table = (await api.get('/v1/taxes', as)).body;
      const before = await counts(app.platform.db);
      const rate = { country_code: 'FR', name: 'TVA', rate_bps: 2000 };
      const cases: [unknown, RegExp][] = [
        [{}, /body\.rates/],
        [{ rates: 'FR' }, /body\.rates/],
        [{ rates: [{ ...rate, country_code: 'fr' }] }, /body\.rates\.0\.country_code: must be an ISO 3166-1 alpha-2 code/],
        [{ rates: [{ ...rate, country_code: 'FRA' }] }, /body\.rates\.0\.country_code/],
        [{ rates: [{ ...rate, province_code: 'on' }] }, /body\.rates\.0\.province_code/],
        [{ rates: [{ ...rate, province_code: '' }] }, /body\.rates\.0\.province_code/],
        [{ rates: [{ ...rate, rate_bps: 10_001 }] }, /body\.rates\.0\.rate_bps/],
        [{ rates: [{ ...rate, rate_bps: -1 }] }, /body\.rates\.0\.rate_bps/],
        [{ rates: [{ ...rate, rate_bps: 7.5 }] }, /body\.rates\.0\.rate_bps/],
        [{ rates: [{ ...rate, rate_bps: '2000' }] }, /body\.rates\.0\.rate_bps/],
        [{ rates: [{ ...rate, name: '   ' }] }, /body\.rates\.0\.name/],
        [{ rates: [{ ...rate, rate: 0.2 }] }, /body\.rates\.0: Unrecognized key: "rate"/],
        [{ rates: [rate, { ...rate, name: 'Again' }] }, /body\.rates\.1: another rate already covers FR\//],
        [
          {
            rates: [
              { ...rate, province_code: 'ON' },
              { ...rate, province_code: 'ON' },
            ],
          },
          /body\.rates\.1: another rate already covers FR\/ON/,
        ],
        [{ rates: Array.from({ length: 501 }, (_, i) => ({ ...rate, province_code: String(i) })) }, /body\.rates/],
        [{ rates: [], shipping_taxable: 'yes' }, /body\.shipping_taxable/],
        [{ rates: [], currency: 'EUR' }, /body: Unrecognized key: "currency"/],
        [[rate], /body/],
      ];
      for (const [body, detail] of cases) {
        const res = await api.put('/v1/taxes', body, as);
        expect(res.status, JSON.stringify(body).slice(0, 100)).to.equal(400);
        expect(res.body.error.code).to.equal('invalid_input');
        expect(res.body.error.details.join('\n'), JSON.stringify(body).slice(0, 100)).to.match(detail);
      }
      expect((await api.get('/v1/taxes?country=FR', as)).status).to.equal(400);
      expect(await counts(app.platform.db)).to.deep.equal(before);
      expect((await api.get('/v1/taxes', as)).body).to.deep.equal(table);
    });

    it('acts only on the store named by X-Store-Id, and only for its owner', async () => {
      const mine = await shopWithTable();
      const theirs = await givenMerchantWithStore(api);
      const intruder = { token: mine.token, storeId: theirs.store.id };
      expect((await api.get('/v1/taxes', intruder)).status).to.equal(403);
      const put = await api.put('/v1/taxes', { rates: [{ country_code: 'FR', name: 'Stolen', rate_bps: 10_000 }] }, intruder);
      expect(put.status).to.equal(403);
      expect(put.body.error.code).to.equal('store_forbidden');
      expect((await api.get('/v1/taxes', theirs.as)).body.data.rates).to.deep.equal([]);
      expect((await api.put('/v1/taxes', TABLE, { token: mine.token })).body.error.code).to.equal('store_required');
      expect((await api.get('/v1/taxes')).status).to.equal(401);

      // The other store's orders are not taxed by this store's table.
      const untaxed = await order(theirs.as, { line_items: [line(1000)], shipping_address: address('FR') });
      expect(untaxed.status).to.equal(201);
      expect(untaxed.body.data).to.include({ tax_total: 0, total: 1000 });
      expect(untaxed.body.data.tax_rate).to.deep.equal({ name: null, rate_bps: 0 });
    });

    it('keeps one table when two first PUTs race', async () => {
      const { store, as } = await givenMerchantWithStore(api);
      const results = await Promise.all([
        api.put('/v1/taxes', { rates: [{ country_code: 'FR', name: 'A', rate_bps: 100 }] }, as),
        api.put('/v1/taxes', { rates: [{ country_code: 'FR', name: 'B', rate_bps: 200 }] }, as),
      ]);
      expect(results.map((r) => r.status)).to.deep.equal([200, 200]);
      const ours = await app.platform.db
        .collection('tax_settings')
        .find({ store_id: new ObjectId(store.id) })
        .toArray();
      expect(ours).to.have.length(1);
      expect(ours[0]!.version).to.equal(2);
      const now = (await api.get('/v1/taxes', as)).body.data.rates;
      expect(now).to.have.length(1);
      expect(['A', 'B']).to.include(now[0].name);
    });
  });

  describe('which rate an order gets', () => {
    it('takes the province row, else the country row, else none; from the shipping address, else the billing one', async () => {
      const as = await shopWithTable();
      const cases: [Record<string, unknown>, { name: string | null; rate_bps: number }][] = [
        [{ shipping_address: address('CA', 'ON') }, { name: 'HST', rate_bps: 1300 }],
        [{ shipping_address: address('CA', 'BC') }, { name: 'GST', rate_bps: 500 }],
        [{ shipping_address: address('CA') }, { name: 'GST', rate_bps: 500 }],
        [{ shipping_address: address('US', 'NY') }, { name: 'NY sales tax', rate_bps: 400 }],
        [{ shipping_address: address('US', 'TX') }, { name: null, rate_bps: 0 }],
        [{ shipping_address: address('JP') }, { name: null, rate_bps: 0 }],
        [{}, { name: null, rate_bps: 0 }],
        [{ billing_address: address('DE') }, { name: 'MwSt', rate_bps: 1900 }],
        [
          { shipping_address: address('FR'), billing_address: address('DE') },
          { name: 'TVA', rate_bps: 2000 },
        ],
      ];
      for (const [addresses, rate] of cases) {
        const res = await order(as, { line_items: [line(10_000)], ...addresses });
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        expect(res.body.data.tax_rate, JSON.stringify(addresses)).to.deep.equal(rate);
        expect(res.body.data.tax_total, JSON.stringify(addresses)).to.equal(rate.rate_bps);
        expect(res.body.data.total).to.equal(10_000 + rate.rate_bps);
      }
    });

    it('keeps the rate an order was priced with when the table changes later', async () => {
      const as = await shopWithTable();
      const placed = (await order(as, { line_items: [line(1000)], shipping_address: address('FR') })).body.data;
      expect(placed).to.include({ tax_total: 200, total: 1200 });
      expect((await api.put('/v1/taxes', { rates: [{ country_code: 'FR', name: 'TVA', rate_bps: 550 }] }, as)).status).to.equal(200);
      const read = await api.get(`/v1/orders/${placed.id}`, as);
      expect(read.body.data).to.deep.equal(placed);
      const next = (await order(as, { line_items: [line(1000)], shipping_address: address('FR') })).body.data;
      expect(next).to.include({ tax_total: 55, total: 1055 });
      expect(next.tax_rate).to.deep.equal({ name: 'TVA', rate_bps: 550 });
    });
  });

  describe('rounding and totals', () => {
    it('rounds each line half up, and the order total is the sum of the lines (not the tax on the sum)', async () => {
      const as = await shopWithTable({ rates: [{ country_code: 'FR', name: '10 %', rate_bps: 1000 }] });
      // 125 at 10 % is 12.5 → 13 on each line: 26 in all, where the tax on 250 would be 25.
      // 4 at 10 % is 0.4 → 0; 15 at 10 % is 1.5 → 2; 1999 at 10 % is 199.9 → 200.
      const res = await order(as, { line_items: [line(125), line(125), line(4), line(15), line(1999)], shipping_address: address('FR') });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const o = res.body.data;
      expect(o.line_items.map((l: { tax: number; total: number }) => [l.tax, l.total])).to.deep.equal([
        [13, 138],
        [13, 138],
        [0, 4],
        [2, 17],
        [200, 2199],
      ]);
      expect(o).to.include({ subtotal: 2268, discount_total: 0, shipping_total: 0, tax_total: 228, total: 2496 });
      expect(o.line_items.reduce((a: number, l: { total: number }) => a + l.total, 0)).to.equal(o.total);
    });

    it('taxes a line on its whole amount (unit price × quantity), at rates with fractions of a percent', async () => {
      const as = await shopWithTable({ rates: [{ country_code: 'US', province_code: 'NY', name: 'NY', rate_bps: 825 }] });
      // 3 × 1500 = 4500 at 8.25 % = 371.25 → 371 (not 3 × 123.75 → 3 × 124 = 372).
      const res = await order(as, { line_items: [line(1500, 3)], shipping_address: address('US', 'NY') });
      expect(res.body.data.line_items[0]).to.include({ unit_price: 1500, quantity: 3, tax: 371, total: 4871 });
      expect(res.body.data).to.include({ subtotal: 4500, tax_total: 371, total: 4871 });
    });

    it('leaves lines marked not taxable untaxed, and taxes catalog lines', async () => {
      const as = await shopWithTable();
      // Untracked stock: the order needs no stock level (orders reserve tracked stock).
      const variant = (await api.post('/v1/products', { title: 'Book', status: 'active', variants: [{ price: 2000, inventory_tracked: false }] }, as)).body.data
        .variants[0].id;
      const res = await order(as, { line_items: [{ variant_id: variant, quantity: 1 }, line(500, 1, { taxable: false })], shipping_address: address('FR') });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.data.line_items.map((l: { taxable: boolean; tax: number }) => [l.taxable, l.tax])).to.deep.equal([
        [true, 400],
        [false, 0],
      ]);
      expect(res.body.data).to.include({ subtotal: 2500, tax_total: 400, total: 2900 });
    });

    it('taxes shipping only when the table says so', async () => {
      const taxed = await shopWithTable();
      const a = (await order(taxed, { line_items: [line(1000)], shipping_line: { title: 'Post', price: 705 }, shipping_address: address('FR') })).body.data;
      // 705 at 20 % = 141.
      expect(a.shipping_line).to.deep.equal({ title: 'Post', code: null, price: 705, discount: 0, tax: 141 });
      expect(a).to.include({ subtotal: 1000, shipping_total: 705, tax_total: 341, total: 2046 });

      const untaxed = await shopWithTable({ ...TABLE, shipping_taxable: false });
      const b = (await order(untaxed, { line_items: [line(1000)], shipping_line: { title: 'Post', price: 705 }, shipping_address: address('FR') })).body.data;
      expect(b.shipping_line).to.deep.equal({ title: 'Post', code: null, price: 705, discount: 0, tax: 0 });
      expect(b).to.include({ subtotal: 1000, shipping_total: 705, tax_total: 200, total: 1905 });
    });

    it('computes the tax exactly on large amounts (beyond what a float multiplication keeps)', async () => {
      // Through the API: a line near the largest total an order takes (10^11 minor units, docs/orders.md) at 8.25 %.
      const as = await shopWithTable({ rates: [{ country_code: 'US', province_code: 'NY', name: 'NY', rate_bps: 825 }] });
      const res = await order(as, { line_items: [line(92_000_000_003, 1)], shipping_address: address('US', 'NY') });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      // 92 000 000 003 at 8.25 % is 7 590 000 000.2475, rounded 7 590 000 000.
      expect(res.body.data.line_items[0]).to.include({ tax: 7_590_000_000, total: 99_590_000_003 });
      // taxOn itself stays exact past 2^53 (amount × rate): 99 999 999 997 000 at 8.25 % is
      // 8 249 999 999 752.5, rounded half up 8 249 999 999 753 (a float product gave …752).
      expect(taxOn(99_999_999_997_000, 825)).to.equal(8_249_999_999_753);
    });
  });
});
