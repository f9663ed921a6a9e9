import { expect } from 'chai';
import { sweep } from '../helpers/sweeps.js';
import type { Platform } from '../../src/platform.js';
import { loadPricedCart } from '../../src/storefront/index.js';
import { useTestApp } from '../helpers/app.js';
import { givenCoupon } from '../helpers/coupons.js';
import { findPlaintext } from '../helpers/database.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { givenProduct } from '../helpers/catalog.js';

const SF = '/v1/storefront';
const DAY_MS = 24 * 3600 * 1000;

describe('Storefront carts (/v1/storefront/:subdomain/cart)', () => {
  const { app, api } = useTestApp('storefront-carts');

  const cartPath = (shop: GivenMerchantWithStore) => `${SF}/${shop.store.subdomain}/cart`;
  const withToken = (token: string) => ({ headers: { 'x-cart-token': token } });

  async function givenCart(shop: GivenMerchantWithStore, body: Record<string, unknown> = {}) {
    const res = await api.post(cartPath(shop), body);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return { token: res.body.data.token as string, cart: res.body.data.cart };
  }
  async function patch(shop: GivenMerchantWithStore, token: string, body: Record<string, unknown>) {
    return api.patch(cartPath(shop), body, withToken(token));
  }

  let shop: GivenMerchantWithStore;
  let mug: any;
  before(async () => {
    shop = await givenMerchantWithStore(api);
    mug = await givenProduct(api, shop.as, { title: 'Mug', handle: 'mug' });
  });

  describe('POST, GET, PATCH, DELETE', () => {
    it('creates a cart, shows its token once, stores only its hash, and reads it back repriced', async () => {
      const { token, cart } = await givenCart(shop, { lines: [{ variant_id: mug.variants[0].id, quantity: 2 }] });
      expect(token).to.match(/^emp_ct_[A-Za-z0-9_-]{43}$/);
      expect(cart).to.include({ version: 1, currency: 'USD', subtotal: 2000, discount: 0, total: 2000, item_count: 2, purchasable: true, coupon: null });
      expect(cart.lines).to.deep.equal([
        {
          variant_id: mug.variants[0].id,
          product_id: mug.id,
          product_title: 'Mug',
          variant_title: 'Default',
          quantity: 2,
          unit_price: 1000,
          line_total: 2000,
          problem: null,
        },
      ]);
      expect(await findPlaintext(app.platform.db, token)).to.deep.equal([]);
      expect(await findPlaintext(app.platform.db, token.slice(7))).to.deep.equal([]);
      const read = await api.get(cartPath(shop), withToken(token));
      expect(read.status).to.equal(200);
      expect(read.body.data).to.deep.equal(cart);
      expect(read.body.data).not.to.have.property('token');
      expect(read.headers.get('cache-control')).to.equal('no-store');
    });

    it('never replays a cart creation, whose answer holds the cart token: the same key and body from another client make a new cart', async () => {
      // Anonymous: nothing in the request proves it comes from the client that made the first cart.
      const headers = { 'idempotency-key': `cart-${Date.now()}` };
      const first = await api.post(cartPath(shop), {}, { headers });
      const other = await api.post(cartPath(shop), {}, { headers });
      expect([first.status, other.status]).to.deep.equal([201, 201]);
      expect(other.headers.get('idempotent-replayed')).to.equal(null);
      expect(other.body.data.token).to.not.equal(first.body.data.token);
      expect(other.body.data.cart.id).to.not.equal(first.body.data.cart.id);
    });

    it('sets, changes and removes lines by variant, and discards the cart', async () => {
      const second = await givenProduct(api, shop.as, { title: 'Plate', variants: [{ price: 300, inventory_tracked: false }] });
      const { token } = await givenCart(shop);
      let res = await patch(shop, token, {
        version: 1,
        lines: [
          { variant_id: mug.variants[0].id, quantity: 1 },
          { variant_id: second.variants[0].id, quantity: 3 },
        ],
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data).to.include({ version: 2, subtotal: 1900, item_count: 4 });
      res = await patch(shop, token, {
        version: 2,
        lines: [
          { variant_id: mug.variants[0].id, quantity: 0 },
          { variant_id: second.variants[0].id, quantity: 5 },
        ],
      });
      expect(res.body.data.lines.map((l: any) => [l.variant_id, l.quantity])).to.deep.equal([[second.variants[0].id, 5]]);
      expect(res.body.data.subtotal).to.equal(1500);
      const gone = await api.delete(cartPath(shop), withToken(token));
      expect(gone.status).to.equal(204);
      expect((await api.get(cartPath(shop), withToken(token))).status).to.equal(404);
      expect((await api.delete(cartPath(shop), withToken(token))).status).to.equal(404);
    });

    it('answers 404 without a token, with an unknown one, and for another store', async () => {
      const { token } = await givenCart(shop);
      const other = await givenMerchantWithStore(api);
      expect((await api.get(cartPath(shop))).status).to.equal(404);
      expect((await api.get(cartPath(shop), withToken('emp_ct_nope'))).status).to.equal(404);
      expect((await api.get(cartPath(shop), withToken('garbage'))).status).to.equal(404);
      expect((await api.get(cartPath(other), withToken(token))).status).to.equal(404);
      expect((await patch(other, token, { version: 1, coupon_code: null })).status).to.equal(404);
      expect((await api.delete(cartPath(other), withToken(token))).status).to.equal(404);
      expect((await api.get(cartPath(shop), withToken(token))).status).to.equal(200);
      // A variant of another store cannot be added either.
      const foreign = await givenProduct(api, other.as);
      const res = await patch(shop, token, { version: 1, lines: [{ variant_id: foreign.variants[0].id, quantity: 1 }] });
      expect(res.status).to.equal(400);
      expect(res.body.error.details).to.deep.equal(['body.lines.0.variant_id: is not a variant for sale in this store']);
    });

    it('refuses a client-sent price and bounds quantities and lines', async () => {
      const { token } = await givenCart(shop);
      const v = mug.variants[0].id;
      const bad: Record<string, unknown>[] = [
        { version: 1, lines: [{ variant_id: v, quantity: 1, price: 1 }] },
        { version: 1, lines: [{ variant_id: v, quantity: 1, unit_price: 1 }] },
        { version: 1, subtotal: 1, coupon_code: null },
        { version: 1, lines: [{ variant_id: v, quantity: 101 }] },
        { version: 1, lines: [{ variant_id: v, quantity: -1 }] },
        { version: 1, lines: [{ variant_id: v, quantity: 1.5 }] },
        {
          version: 1,
          lines: [
            { variant_id: v, quantity: 1 },
            { variant_id: v, quantity: 2 },
          ],
        },
        { version: 1, lines: Array.from({ length: 101 }, () => ({ variant_id: v, quantity: 1 })) },
        { lines: [{ variant_id: v, quantity: 1 }] },
        { version: 1 },
      ];
      for (const body of bad) {
        const res = await patch(shop, token, body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
      }
      expect((await api.post(cartPath(shop), { lines: [{ variant_id: v, quantity: 1, price: 1 }] })).status).to.equal(400);
      expect((await api.get(cartPath(shop), withToken(token))).body.data.version).to.equal(1);
    });
  });

  describe('repricing', () => {
    it('shows a price changed after the line was added', async () => {
      const product = await givenProduct(api, shop.as, { title: 'Vase', variants: [{ price: 5000, inventory_tracked: false }] });
      const { token } = await givenCart(shop, { lines: [{ variant_id: product.variants[0].id, quantity: 2 }] });
      const changed = await api.patch(
        `/v1/products/${product.id}`,
        { variants: [{ id: product.variants[0].id, price: 4200, inventory_tracked: false }] },
        shop.as,
      );
      expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
      const read = await api.get(cartPath(shop), withToken(token));
      expect(read.body.data.lines[0]).to.include({ unit_price: 4200, line_total: 8400 });
      expect(read.body.data.subtotal).to.equal(8400);
    });

    it('reports lines whose variant was unpublished, deleted or sold out, and keeps them', async () => {
      const hidden = await givenProduct(api, shop.as, { title: 'Hidden' });
      const deleted = await givenProduct(api, shop.as, { title: 'Deleted' });
      const stocked = await givenProduct(api, shop.as, { title: 'Stocked', variants: [{ price: 700 }] });
      const location = (await api.post('/v1/inventory/locations', { name: 'Shop' }, shop.as)).body.data;
      const level = await api.post('/v1/inventory/levels/set', { variant_id: stocked.variants[0].id, location_id: location.id, available: 3 }, shop.as);
      expect(level.status).to.equal(200);
      const backordered = await givenProduct(api, shop.as, { title: 'Backorder', variants: [{ price: 100, inventory_policy: 'continue' }] });
      const { token } = await givenCart(shop, {
        lines: [hidden, deleted, stocked, backordered].map((p) => ({ variant_id: p.variants[0].id, quantity: 2 })),
      });
      let read = await api.get(cartPath(shop), withToken(token));
      expect(read.body.data.lines.map((l: any) => l.problem)).to.deep.equal([null, null, null, null]);
      expect(read.body.data.purchasable).to.equal(true);

      expect((await api.patch(`/v1/products/${hidden.id}`, { status: 'draft' }, shop.as)).status).to.equal(200);
      expect((await api.delete(`/v1/products/${deleted.id}`, shop.as)).status).to.equal(204);
      expect(
        (await api.post('/v1/inventory/levels/set', { variant_id: stocked.variants[0].id, location_id: location.id, available: 1 }, shop.as)).status,
      ).to.equal(200);
      read = await api.get(cartPath(shop), withToken(token));
      const lines = read.body.data.lines;
      expect(lines.map((l: any) => l.problem)).to.deep.equal(['unpublished', 'deleted', 'out_of_stock', null]);
      expect(lines[1]).to.include({ unit_price: null, line_total: 0, product_id: null });
      expect(read.body.data.subtotal).to.equal(200);
      expect(read.body.data.purchasable).to.equal(false);
      expect(JSON.stringify(read.body)).not.to.match(/"available"/);
    });

    it('applies a coupon through the coupon rules, and reports a refusal with its reason', async () => {
      await givenCoupon(api, shop.as, { code: 'TENOFF', type: 'percentage', value: 10, minimum_subtotal: 1500 });
      const { token } = await givenCart(shop, { lines: [{ variant_id: mug.variants[0].id, quantity: 1 }], coupon_code: 'tenoff' });
      let read = await api.get(cartPath(shop), withToken(token));
      expect(read.body.data.coupon).to.deep.equal({ code: 'tenoff', applicable: false, discount: 0, reason: 'minimum_subtotal_not_met' });
      expect(read.body.data.total).to.equal(1000);
      let res = await patch(shop, token, { version: 1, lines: [{ variant_id: mug.variants[0].id, quantity: 2 }] });
      expect(res.body.data.coupon).to.deep.equal({ code: 'tenoff', applicable: true, discount: 200, reason: null });
      expect(res.body.data).to.include({ subtotal: 2000, discount: 200, total: 1800 });
      res = await patch(shop, token, { version: 2, coupon_code: 'NOPE' });
      expect(res.body.data.coupon).to.deep.include({ applicable: false, reason: 'not_found' });
      res = await patch(shop, token, { version: 3, coupon_code: null });
      expect(res.body.data.coupon).to.equal(null);
      read = await api.get(cartPath(shop), withToken(token));
      expect(read.body.data.total).to.equal(2000);
    });
  });

  describe('concurrency', () => {
    it('refuses a change made on a stale version with 409 and the current cart, losing nothing', async () => {
      const { token } = await givenCart(shop);
      const plate = await givenProduct(api, shop.as, { title: 'Bowl' });
      const [a, b] = await Promise.all([
        patch(shop, token, { version: 1, lines: [{ variant_id: mug.variants[0].id, quantity: 1 }] }),
        patch(shop, token, { version: 1, lines: [{ variant_id: plate.variants[0].id, quantity: 1 }] }),
      ]);
      const statuses = [a.status, b.status].sort();
      expect(statuses).to.deep.equal([200, 409]);
      const [won, lost] = a.status === 200 ? [a, b] : [b, a];
      expect(lost.body.error.code).to.equal('cart_conflict');
      expect(lost.body.data).to.deep.equal(won.body.data);
      const stale = await patch(shop, token, { version: 1, coupon_code: 'X' });
      expect(stale.status).to.equal(409);
      const read = await api.get(cartPath(shop), withToken(token));
      expect(read.body.data.version).to.equal(2);
      expect(read.body.data.coupon).to.equal(null);
    });
  });

  describe('expiry', () => {
    it('expires a cart after CART_IDLE_DAYS without a change: 404, then swept', async () => {
      const { token } = await givenCart(shop);
      const platform = app.platform;
      const at = (ms: number): Platform => ({ ...platform, clock: { now: () => new Date(Date.now() + ms) } });
      const store = { id: shop.store.id, currency: 'USD' };
      expect((await loadPricedCart(at(13 * DAY_MS), store, token)).version).to.equal(1);
      await loadPricedCart(at(15 * DAY_MS), store, token).then(
        () => expect.fail('an expired cart was found'),
        (err) => expect(err.code).to.equal('not_found'),
      );
      const count = () => platform.db.collection('storefront_carts').countDocuments({});
      const before = await count();
      await sweep('maintenance.sweep-carts', at(13 * DAY_MS));
      expect(await count()).to.equal(before);
      const removed = await sweep('maintenance.sweep-carts', at(15 * DAY_MS));
      expect(removed).to.be.at.least(1);
      expect((await api.get(cartPath(shop), withToken(token))).status).to.equal(404);
    });
  });

  describe('for checkout', () => {
    it('loadPricedCart prices by token and store', async () => {
      const { token } = await givenCart(shop, { lines: [{ variant_id: mug.variants[0].id, quantity: 3 }] });
      const priced = await loadPricedCart(app.platform, { id: shop.store.id, currency: 'USD' }, token);
      expect(priced.lines[0]).to.include({ variant_id: mug.variants[0].id, product_id: mug.id, quantity: 3, unit_price: 1000 });
      expect(priced.total).to.equal(3000);
      const other = await givenMerchantWithStore(api);
      let code: string | null = null;
      await loadPricedCart(app.platform, { id: other.store.id, currency: 'USD' }, token).catch((err: { code?: string }) => (code = err.code ?? null));
      expect(code).to.equal('not_found');
    });
  });

  it('no input a client can send is a 500', async () => {
    const { token } = await givenCart(shop);
    const v = mug.variants[0].id;
    const bodies: unknown[] = [
      null,
      1,
      'x',
      [],
      {},
      { version: '1' },
      { version: 1, lines: null },
      { version: 1, lines: {} },
      { version: 1, lines: [null] },
      { version: 1, lines: [{ variant_id: 'zz', quantity: 1 }] },
      { version: 1, lines: [{ variant_id: { $ne: 1 }, quantity: 1 }] },
      { version: 1e308, coupon_code: 'A' },
      { version: 1, coupon_code: { $gt: '' } },
      { version: 1, coupon_code: 'x'.repeat(10_000) },
      { version: 1, lines: [{ variant_id: v, quantity: 1e9 }] },
      { version: 1, coupon_code: '%00\u0000' },
      { lines: [{ variant_id: v, quantity: 1 }], __proto__: { a: 1 } },
    ];
    const tokens = [token, '', 'emp_ct_', 'emp_ct_' + '\u00ff', 'x'.repeat(5000)];
    for (const body of bodies) {
      for (const t of tokens) {
        const options = t ? withToken(t) : {};
        for (const res of [
          await api.patch(cartPath(shop), body, options),
          await api.post(cartPath(shop), body, options),
          await api.send('DELETE', cartPath(shop), body, options),
          await api.patch(`${SF}/no-such-store/cart`, body, options),
        ]) {
          expect(res.status, JSON.stringify(body)).to.be.below(500);
        }
      }
    }
    for (const t of tokens) {
      const res = await api.get(cartPath(shop), t ? withToken(t) : {});
      expect(res.status).to.be.below(500);
    }
  });
});
