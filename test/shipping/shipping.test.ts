import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { useTestApp } from '../helpers/app.js';
import { counts } from '../helpers/database.js';
import { givenProduct } from '../helpers/catalog.js';
import { givenMerchant, givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';

/**
 * The store's shipping rates (/v1/shipping, docs/shipping.md) and what storefront checkout does
 * with them: the options an address gets (GET …/cart/checkout-options) and the one a checkout
 * charges (POST …/orders with shipping_option).
 */
describe('Shipping rates (/v1/shipping) and the shipping a checkout charges', () => {
  const { app, api } = useTestApp('shipping');

  const TABLE = {
    rates: [
      { code: 'standard', name: 'Standard', price: 900, country_code: 'CA' },
      { code: 'standard', name: 'Standard (Québec)', price: 700, country_code: 'CA', province_code: 'QC' },
      { code: 'express', name: 'Express', price: 2500, country_code: 'CA' },
      { code: 'free', name: 'Free over $100', price: 0, country_code: 'CA', min_subtotal: 10_000 },
      { code: 'standard', name: 'International', price: 3000, country_code: '*' },
      { code: 'standard', name: 'US Standard', price: 1500, country_code: 'US', max_subtotal: 50_000 },
    ],
  };
  const address = (country_code: string, province_code?: string) => ({
    address1: '1 Main St',
    city: 'Town',
    country_code,
    ...(province_code ? { province_code } : {}),
  });

  async function shopWithRates(table: unknown = TABLE): Promise<GivenMerchantWithStore> {
    const shop = await givenMerchantWithStore(api);
    const res = await api.put('/v1/shipping', table, shop.as);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return shop;
  }
  async function cartOf(shop: GivenMerchantWithStore, price: number, quantity = 1): Promise<string> {
    const product = await givenProduct(api, shop.as, { variants: [{ price, inventory_tracked: false }] });
    const res = await api.post(`/v1/storefront/${shop.store.subdomain}/cart`, { lines: [{ variant_id: product.variants[0].id, quantity }] });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.data.token as string;
  }
  const options = (shop: GivenMerchantWithStore, cart: string, query = '') =>
    api.get(`/v1/storefront/${shop.store.subdomain}/cart/checkout-options${query}`, { headers: { 'x-cart-token': cart } });
  const checkout = (shop: GivenMerchantWithStore, cart: string, body: Record<string, unknown>) =>
    api.post(
      `/v1/storefront/${shop.store.subdomain}/orders`,
      { email: 'shopper@example.com', ...body },
      { headers: { 'x-cart-token': cart, 'idempotency-key': randomBytes(8).toString('hex') } },
    );

  describe('GET and PUT /v1/shipping', () => {
    it('reads an empty table for a store that never saved one, replaces the whole table, and records shipping_settings.updated', async () => {
      const { store, as } = await givenMerchantWithStore(api);
      expect((await api.get('/v1/shipping', as)).body.data).to.deep.equal({ rates: [], updated_at: null });
      const res = await api.put('/v1/shipping', TABLE, as);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data.rates).to.have.length(6);
      expect(res.body.data.rates[0]).to.deep.equal({
        code: 'standard',
        name: 'Standard',
        price: 900,
        country_code: 'CA',
        province_code: null,
        min_subtotal: null,
        max_subtotal: null,
      });
      expect((await api.get('/v1/shipping', as)).body).to.deep.equal(res.body);
      const events = await app.platform.db
        .collection('events')
        .find({ type: 'shipping_settings.updated', store_id: { $exists: true } })
        .toArray();
      expect(events.filter((e) => String(e.store_id) === store.id)).to.have.length(1);
    });

    it('refuses a bad table with each issue at its path (400), changing nothing', async () => {
      const shop = await shopWithRates();
      const before = await counts(app.platform.db);
      const refused = async (rates: unknown[], paths: string[]) => {
        const res = await api.put('/v1/shipping', { rates }, shop.as);
        expect(res.status).to.equal(400);
        const details: string[] = res.body.error.details;
        for (const path of paths)
          expect(
            details.some((d) => d.startsWith(`${path}:`)),
            `${path} in ${JSON.stringify(details)}`,
          ).to.equal(true);
      };
      // Each row's own fields first; the rules across fields and rows once every row is well formed.
      await refused(
        [
          { code: 'Bad Code', name: '', price: -1, country_code: 'Canada' },
          { code: 'a', name: 'A', price: 1.5, country_code: 'CA' },
          { code: 'd', name: 'D', price: 100, country_code: 'CA', colour: 'red' },
        ],
        ['body.rates.0.code', 'body.rates.0.name', 'body.rates.0.price', 'body.rates.0.country_code', 'body.rates.1.price', 'body.rates.2'],
      );
      await refused(
        [
          { code: 'a', name: 'A', price: 100, country_code: '*', province_code: 'QC' },
          { code: 'b', name: 'B', price: 100, country_code: 'CA', min_subtotal: 500, max_subtotal: 100 },
        ],
        ['body.rates.0.province_code', 'body.rates.1.max_subtotal'],
      );
      await refused(
        [
          { code: 'c', name: 'C', price: 100, country_code: 'CA' },
          { code: 'c', name: 'C again', price: 200, country_code: 'CA' },
        ],
        ['body.rates.1'],
      );
      expect(await counts(app.platform.db)).to.deep.equal(before);
      expect((await api.get('/v1/shipping', shop.as)).body.data.rates).to.have.length(6);
    });

    it('answers another merchant nothing: 403 for a store not theirs, 401 without a session', async () => {
      const shop = await shopWithRates();
      const other = await givenMerchant(api);
      const asOther = { token: other.token, storeId: shop.store.id };
      expect((await api.get('/v1/shipping', asOther)).status).to.equal(403);
      expect((await api.put('/v1/shipping', { rates: [] }, asOther)).status).to.equal(403);
      expect((await api.get('/v1/shipping', { headers: { 'x-store-id': shop.store.id } })).status).to.equal(401);
      expect((await api.get('/v1/shipping', shop.as)).body.data.rates).to.have.length(6);
    });
  });

  describe('the options a checkout offers', () => {
    it('offers, for each code, the province’s rate, else the country’s, else *, within the subtotal bounds, cheapest first', async () => {
      const shop = await shopWithRates();
      const small = await cartOf(shop, 2000);
      const codes = async (cart: string, query: string) => {
        const res = await options(shop, cart, query);
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        return res.body.data.shipping_options;
      };
      expect(await codes(small, '?country_code=CA')).to.deep.equal([
        { code: 'standard', name: 'Standard', price: 900 },
        { code: 'express', name: 'Express', price: 2500 },
      ]);
      expect(await codes(small, '?country_code=CA&province_code=QC')).to.deep.equal([
        { code: 'standard', name: 'Standard (Québec)', price: 700 },
        { code: 'express', name: 'Express', price: 2500 },
      ]);
      // A country the table names has no `*` rate; one it does not name gets only `*`.
      expect(await codes(small, '?country_code=US')).to.deep.equal([{ code: 'standard', name: 'US Standard', price: 1500 }]);
      expect(await codes(small, '?country_code=FR')).to.deep.equal([{ code: 'standard', name: 'International', price: 3000 }]);
      const big = await cartOf(shop, 60_000);
      expect((await codes(big, '?country_code=CA')).map((o: any) => o.code)).to.deep.equal(['free', 'standard', 'express']);
      expect(await codes(big, '?country_code=US')).to.deep.equal([]);
      const none = await options(shop, small);
      expect(none.body.data).to.deep.include({ shipping_required: true, shipping_options: [], errors: [], coupon: null });
      expect(none.headers.get('cache-control')).to.equal('no-store');
    });

    it('refuses a province without a country (400) and a cart token it does not know (404)', async () => {
      const shop = await shopWithRates();
      const cart = await cartOf(shop, 1000);
      expect((await options(shop, cart, '?province_code=QC')).status).to.equal(400);
      expect((await options(shop, cart, '?country_code=ca')).status).to.equal(400);
      expect((await options(shop, 'emp_ct_nope', '?country_code=CA')).status).to.equal(404);
      const other = await shopWithRates();
      expect((await options(other, cart, '?country_code=CA')).status).to.equal(404);
    });
  });

  describe('POST …/orders with shipping_option', () => {
    it('charges the chosen option at its rate’s price, under its name, with its code', async () => {
      const shop = await shopWithRates();
      const cart = await cartOf(shop, 2000, 2);
      const res = await checkout(shop, cart, { shipping_address: address('CA', 'QC'), shipping_option: 'standard' });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.data).to.include({ subtotal: 4000, shipping_total: 700, total: 4700 });
      expect(res.body.data.shipping_line).to.deep.equal({ title: 'Standard (Québec)', code: 'standard', price: 700, discount: 0, tax: 0 });
    });

    it('needs an address and an offered option when the store ships (400, 409), and refuses an option when it does not', async () => {
      const shop = await shopWithRates();
      const cart = await cartOf(shop, 2000);
      const noAddress = await checkout(shop, cart, { shipping_option: 'standard' });
      expect(noAddress.status).to.equal(400);
      expect(noAddress.body.error.details).to.deep.equal(['body.shipping_address: is required: this store ships its orders']);
      const noOption = await checkout(shop, cart, { shipping_address: address('CA') });
      expect(noOption.status).to.equal(400);
      expect(noOption.body.error.details[0]).to.match(/^body.shipping_option: is required: choose one of the options for this address \(standard, express\)/);
      const notOffered = await checkout(shop, cart, { shipping_address: address('CA'), shipping_option: 'free' });
      expect(notOffered.status).to.equal(409);
      expect(notOffered.body.error.code).to.equal('shipping_option_unavailable');
      // The cart is still the shopper's: the right option goes through.
      const ok = await checkout(shop, cart, { shipping_address: address('CA'), shipping_option: 'express' });
      expect(ok.status, JSON.stringify(ok.body)).to.equal(201);
      expect(ok.body.data.shipping_total).to.equal(2500);

      const plain = await givenMerchantWithStore(api);
      const plainCart = await cartOf(plain, 2000);
      const refused = await checkout(plain, plainCart, { shipping_address: address('CA'), shipping_option: 'standard' });
      expect(refused.status).to.equal(409);
      expect(refused.body.error.code).to.equal('shipping_option_unavailable');
      const noShipping = await checkout(plain, plainCart, { shipping_address: address('CA') });
      expect(noShipping.status, JSON.stringify(noShipping.body)).to.equal(201);
      expect(noShipping.body.data).to.include({ shipping_total: 0, shipping_line: null });
    });

    it('taxes the shipping when the tax table says so', async () => {
      const shop = await shopWithRates();
      await api.put('/v1/taxes', { shipping_taxable: true, rates: [{ country_code: 'CA', name: 'GST', rate_bps: 500 }] }, shop.as);
      const cart = await cartOf(shop, 2000);
      const res = await checkout(shop, cart, { shipping_address: address('CA'), shipping_option: 'express' });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.data).to.include({ subtotal: 2000, shipping_total: 2500, tax_total: 225, total: 4725 });
    });
  });
});
