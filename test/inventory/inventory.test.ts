import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import { applyStockChange, clearStockKeys, undoStockChange, type StockChange } from '../../src/inventory/index.js';
import { useTestApp } from '../helpers/app.js';
import { counts } from '../helpers/database.js';
import { givenMerchantWithStore } from '../helpers/factories.js';

describe('Inventory (/v1/inventory)', () => {
  const { app, api } = useTestApp('inventory');
  let as: { token: string; storeId: string };
  let denyVariant: string;
  let oversellVariant: string;
  let warehouse: string;
  before(async () => {
    const { merchant, store } = await givenMerchantWithStore(api);
    as = { token: merchant.token, storeId: store.id };
    const product = await api.post(
      '/v1/products',
      {
        title: 'Stocked',
        options: [{ name: 'Kind', values: ['Strict', 'Loose'] }],
        variants: [
          { option_values: ['Strict'], price: 100 },
          { option_values: ['Loose'], price: 100, inventory_policy: 'continue' },
        ],
      },
      as,
    );
    [denyVariant, oversellVariant] = product.body.data.variants.map((v: { id: string }) => v.id);
    warehouse = (await api.post('/v1/inventory/locations', { name: 'Warehouse', city: 'Lyon', country_code: 'FR' }, as)).body.data.id;
  });

  const adjust = (variant_id: string, delta: number, location_id = warehouse, headers?: Record<string, string>) =>
    api.post('/v1/inventory/levels/adjust', { variant_id, location_id, delta, reason: 'received' }, { ...as, ...(headers ? { headers } : {}) });

  describe('locations', () => {
    it('creates, reads, updates, lists, deactivates and activates a location', async () => {
      const created = await api.post('/v1/inventory/locations', { name: 'Shop floor' }, as);
      expect(created.status).to.equal(201);
      expect(created.body.data).to.include({ name: 'Shop floor', active: true, city: null });
      const id = created.body.data.id;
      expect((await api.patch(`/v1/inventory/locations/${id}`, { name: 'Front', zip: '69001' }, as)).body.data).to.include({ name: 'Front', zip: '69001' });
      expect((await api.get(`/v1/inventory/locations/${id}`, as)).body.data.name).to.equal('Front');
      expect((await api.post(`/v1/inventory/locations/${id}/deactivate`, undefined, as)).body.data.active).to.equal(false);
      const active = (await api.get('/v1/inventory/locations?active=true', as)).body.data.map((l: { id: string }) => l.id);
      expect(active).to.not.include(id);
      expect((await api.post(`/v1/inventory/locations/${id}/activate`, undefined, as)).body.data.active).to.equal(true);
      const types = (await app.platform.db.collection('events').find({ 'payload.location.id': id }).toArray()).map((e) => e.type);
      expect(types).to.deep.equal(['inventory_location.created', 'inventory_location.updated', 'inventory_location.updated', 'inventory_location.updated']);
    });

    it('refuses bad locations and changes nothing', async () => {
      const before = await counts(app.platform.db);
      for (const body of [{}, { name: '' }, { name: 'X', country_code: 'France' }, { name: 'X', active: false }]) {
        expect((await api.post('/v1/inventory/locations', body, as)).status, JSON.stringify(body)).to.equal(400);
      }
      expect((await api.patch(`/v1/inventory/locations/${warehouse}`, {}, as)).status).to.equal(400);
      expect(await counts(app.platform.db)).to.deep.equal(before);
    });
  });

  describe('levels', () => {
    it('sets and adjusts stock, and lists levels', async () => {
      const set = await api.post('/v1/inventory/levels/set', { variant_id: denyVariant, location_id: warehouse, available: 10 }, as);
      expect(set.status, JSON.stringify(set.body)).to.equal(200);
      expect(set.body.data).to.include({ variant_id: denyVariant, location_id: warehouse, available: 10, committed: 0, on_hand: 10 });
      expect((await adjust(denyVariant, 5)).body.data.available).to.equal(15);
      expect((await adjust(denyVariant, -15)).body.data.available).to.equal(0);
      const list = await api.get(`/v1/inventory/levels?variant_id=${denyVariant}`, as);
      expect(list.body.data).to.have.length(1);
      expect(list.body.data[0].available).to.equal(0);
      const events = await app.platform.db
        .collection('events')
        .find({ type: 'inventory_level.updated', 'payload.inventory_level.variant_id': denyVariant })
        .toArray();
      expect(events.map((e) => e.payload.delta ?? e.payload.reason)).to.deep.equal(['set', 5, -15]);
    });

    it('never takes stock below zero for a variant that denies overselling', async () => {
      await api.post('/v1/inventory/levels/set', { variant_id: denyVariant, location_id: warehouse, available: 3 }, as);
      const res = await adjust(denyVariant, -4);
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('insufficient_stock');
      const level = (await api.get(`/v1/inventory/levels?variant_id=${denyVariant}&location_id=${warehouse}`, as)).body.data[0];
      expect(level.available).to.equal(3);
    });

    it('holds under concurrency: 20 parallel decrements of 1 against 7 in stock leave 0, never less', async () => {
      await api.post('/v1/inventory/levels/set', { variant_id: denyVariant, location_id: warehouse, available: 7 }, as);
      const statuses = (await Promise.all(Array.from({ length: 20 }, () => adjust(denyVariant, -1)))).map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).to.have.length(7);
      expect(statuses.filter((s) => s === 409)).to.have.length(13);
      const level = (await api.get(`/v1/inventory/levels?variant_id=${denyVariant}&location_id=${warehouse}`, as)).body.data[0];
      expect(level.available).to.equal(0);
    });

    it('lets a variant that allows overselling go below zero', async () => {
      const res = await adjust(oversellVariant, -2);
      expect(res.status).to.equal(200);
      expect(res.body.data.available).to.equal(-2);
    });

    it('applies an adjustment retried with the same Idempotency-Key once', async () => {
      await api.post('/v1/inventory/levels/set', { variant_id: denyVariant, location_id: warehouse, available: 0 }, as);
      const headers = { 'idempotency-key': 'receive-shipment-42' };
      const a = await adjust(denyVariant, 10, warehouse, headers);
      const b = await adjust(denyVariant, 10, warehouse, headers);
      expect(b.body).to.deep.equal(a.body);
      expect(b.headers.get('idempotent-replayed')).to.equal('true');
      expect((await api.get(`/v1/inventory/levels?variant_id=${denyVariant}`, as)).body.data[0].available).to.equal(10);
    });

    it('refuses a deactivated location, unknown ids and bad input, changing nothing', async () => {
      const closed = (await api.post('/v1/inventory/locations', { name: 'Closed' }, as)).body.data.id;
      await api.post(`/v1/inventory/locations/${closed}/deactivate`, undefined, as);
      const before = await counts(app.platform.db);
      expect((await adjust(denyVariant, 1, closed)).body.error.code).to.equal('location_inactive');
      expect((await adjust('000000000000000000000000', 1)).status).to.equal(404);
      expect((await adjust(denyVariant, 1, '000000000000000000000000')).status).to.equal(404);
      for (const body of [
        { variant_id: denyVariant, location_id: warehouse, delta: 0 },
        { variant_id: denyVariant, location_id: warehouse, delta: 1.5 },
        { variant_id: denyVariant, location_id: warehouse },
        { variant_id: 'x', location_id: warehouse, delta: 1 },
      ]) {
        expect((await api.post('/v1/inventory/levels/adjust', body, as)).status, JSON.stringify(body)).to.equal(400);
      }
      expect((await api.post('/v1/inventory/levels/set', { variant_id: denyVariant, location_id: warehouse, available: -1 }, as)).status).to.equal(400);
      expect(await counts(app.platform.db)).to.deep.equal(before);
    });
  });

  describe('commitments (applyStockChange, for the orders domain)', () => {
    const level = async (variant: string) => {
      const l = (await api.get(`/v1/inventory/levels?variant_id=${variant}&location_id=${warehouse}`, as)).body.data[0];
      return { available: l.available, committed: l.committed, on_hand: l.on_hand };
    };
    const change = (variant: string, key: string, available: number, committed: number, floor = true): StockChange => ({
      key,
      variant_id: variant,
      product_id: '0'.repeat(24),
      location_id: warehouse,
      available,
      committed,
      floor,
      reason: 'order_reserved',
      order_id: new ObjectId().toHexString(),
    });
    let variant: string;
    beforeEach(async () => {
      variant = (await api.post('/v1/products', { title: `Committed ${Date.now()}`, variants: [{ price: 100 }] }, as)).body.data.variants[0].id;
      await api.post('/v1/inventory/levels/set', { variant_id: variant, location_id: warehouse, available: 10 }, as);
    });

    it('commits units once per key: available goes down, committed up, on hand stays; a set changes what is for sale only', async () => {
      const reserve = change(variant, 'op-1.0', -3, 3);
      const results = await Promise.all(Array.from({ length: 5 }, () => applyStockChange(app.platform, as.storeId, reserve)));
      expect(results.map((r) => r.outcome)).to.deep.equal(Array(5).fill('applied'));
      expect(await level(variant)).to.deep.equal({ available: 7, committed: 3, on_hand: 10 });
      await api.post('/v1/inventory/levels/set', { variant_id: variant, location_id: warehouse, available: 5 }, as);
      expect(await level(variant)).to.deep.equal({ available: 5, committed: 3, on_hand: 8 });
      expect((await applyStockChange(app.platform, as.storeId, change(variant, 'op-2.0', -6, 6))).outcome).to.equal('insufficient');
      expect(await level(variant)).to.deep.equal({ available: 5, committed: 3, on_hand: 8 });
      await clearStockKeys(app.platform, as.storeId, [reserve]);
      const doc = await app.platform.db.collection('inventory_levels').findOne({ variant_id: new ObjectId(variant) });
      expect(doc?.pending_ops).to.deep.equal([]);
    });

    it('undoes a change once, and a change voided by another process can never apply', async () => {
      const reserve = change(variant, 'op-3.0', -4, 4);
      await applyStockChange(app.platform, as.storeId, reserve);
      await undoStockChange(app.platform, as.storeId, reserve, { void: false });
      await undoStockChange(app.platform, as.storeId, reserve, { void: false });
      expect(await level(variant)).to.deep.equal({ available: 10, committed: 0, on_hand: 10 });

      const late = change(variant, 'op-4.0', -2, 2);
      await undoStockChange(app.platform, as.storeId, late, { void: true });
      expect(await applyStockChange(app.platform, as.storeId, late)).to.deep.equal({ outcome: 'voided' });
      expect(await level(variant)).to.deep.equal({ available: 10, committed: 0, on_hand: 10 });
      const events = await app.platform.db
        .collection('events')
        .countDocuments({ type: 'inventory_level.updated', 'payload.inventory_level.variant_id': variant, 'payload.reason': 'order_reserved' });
      expect(events).to.equal(0); // orders announce a change once it is made (see orders.test.ts)
    });
  });

  describe('isolation between stores', () => {
    it("answers 404 for another store's locations and variants, and 403 for a store the caller does not own", async () => {
      const other = await givenMerchantWithStore(api);
      const theirs = { token: other.merchant.token, storeId: other.store.id };
      const theirLocation = (await api.post('/v1/inventory/locations', { name: 'Theirs' }, theirs)).body.data.id;
      const theirVariant = (await api.post('/v1/products', { title: 'Theirs', variants: [{ price: 1 }] }, theirs)).body.data.variants[0].id;
      await api.post('/v1/inventory/levels/set', { variant_id: theirVariant, location_id: theirLocation, available: 5 }, theirs);

      expect((await api.get(`/v1/inventory/locations/${theirLocation}`, as)).status).to.equal(404);
      expect((await api.patch(`/v1/inventory/locations/${theirLocation}`, { name: 'Mine' }, as)).status).to.equal(404);
      expect((await api.post(`/v1/inventory/locations/${theirLocation}/deactivate`, undefined, as)).status).to.equal(404);
      expect((await adjust(theirVariant, -5, theirLocation)).status).to.equal(404);
      expect((await adjust(theirVariant, 1, warehouse)).status).to.equal(404);
      expect((await adjust(denyVariant, 1, theirLocation)).status).to.equal(404);
      expect((await api.get(`/v1/inventory/levels?variant_id=${theirVariant}`, as)).body.data).to.deep.equal([]);
      expect((await api.get('/v1/inventory/locations', { token: as.token, storeId: other.store.id })).status).to.equal(403);
      expect((await api.get(`/v1/inventory/levels?variant_id=${theirVariant}`, theirs)).body.data[0].available).to.equal(5);
    });
  });
});
