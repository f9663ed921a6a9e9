import { expect } from 'chai';
import { useTestApp } from '../helpers/app.js';
import { counts } from '../helpers/database.js';
import { givenMerchant, givenMerchantWithStore, givenStore } from '../helpers/factories.js';
import type { Reply } from '../helpers/http.js';

describe('Stores (/v1/stores)', () => {
  const { app, api } = useTestApp('stores');

  describe('POST /v1/stores', () => {
    it('creates a store owned by the caller and records store.created', async () => {
      const m = await givenMerchant(api);
      const res = await api.post('/v1/stores', { name: 'Corner Shop', subdomain: 'corner-shop', currency: 'EUR' }, { token: m.token });
      expect(res.status).to.equal(201);
      expect(res.body.data).to.include({ name: 'Corner Shop', subdomain: 'corner-shop', currency: 'EUR' });
      expect(res.body.data).to.have.all.keys('id', 'name', 'subdomain', 'currency', 'locale', 'live_theme_id', 'email_sender', 'created_at', 'updated_at');
      const event = await app.platform.db.collection('events').findOne({ type: 'store.created', idempotency_key: `store.created:${res.body.data.id}` });
      expect(event?.store_id.toHexString()).to.equal(res.body.data.id);
    });

    it('defaults the locale to en, and keeps a given one canonical', async () => {
      const m = await givenMerchant(api);
      const plain = await api.post('/v1/stores', { name: 'Plain', subdomain: 'plain-locale' }, { token: m.token });
      expect(plain.body.data.locale).to.equal('en');
      const mx = await api.post('/v1/stores', { name: 'Tienda', subdomain: 'tienda-mx', locale: 'es-mx' }, { token: m.token });
      expect([mx.status, mx.body.data.locale]).to.deep.equal([201, 'es-MX']);
      for (const locale of ['', 'english', 'e', 'en_US', 'en-', 42]) {
        const bad = await api.post('/v1/stores', { name: 'Bad', subdomain: `bad-locale-${String(locale).length}`, locale }, { token: m.token });
        expect(bad.status, String(locale)).to.equal(400);
      }
    });

    it('defaults the currency to USD', async () => {
      const m = await givenMerchant(api);
      const res = await api.post('/v1/stores', { name: 'Default', subdomain: 'default-currency' }, { token: m.token });
      expect(res.body.data.currency).to.equal('USD');
    });

    it('refuses a subdomain already in use with 409', async () => {
      const a = await givenMerchant(api);
      const b = await givenMerchant(api);
      await givenStore(api, a, { subdomain: 'taken-name' });
      const before = await counts(app.platform.db);
      const res = await api.post('/v1/stores', { name: 'Mine', subdomain: 'taken-name' }, { token: b.token });
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('subdomain_taken');
      expect(await counts(app.platform.db)).to.deep.equal(before);
    });

    it('refuses subdomains that are not lowercase DNS labels, or reserved, and changes nothing', async () => {
      const m = await givenMerchant(api);
      const before = await counts(app.platform.db);
      for (const subdomain of [
        'www',
        'api',
        'admin',
        'Upper',
        'with_underscore',
        '-leading',
        'trailing-',
        'ab',
        'x'.repeat(64),
        'xn--punycode',
        'dots.in.it',
        'spa ce',
        42,
        null,
      ]) {
        const res = await api.post('/v1/stores', { name: 'Shop', subdomain }, { token: m.token });
        expect(res.status, `subdomain ${JSON.stringify(subdomain)}`).to.equal(400);
        expect(res.body.error.details.join(' '), String(subdomain)).to.match(/body\.subdomain/);
      }
      for (const body of [
        { name: 'Shop' },
        { subdomain: 'no-name' },
        { name: '', subdomain: 'empty-name' },
        { name: 'Shop', subdomain: 'good-one', currency: 'usd' },
        { name: 'Shop', subdomain: 'good-one', currency: 'XYZ' },
        { name: 'Shop', subdomain: 'good-one', owner_id: 'x' },
      ]) {
        const res = await api.post('/v1/stores', body, { token: m.token });
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.code).to.equal('invalid_input');
      }
      expect(await counts(app.platform.db)).to.deep.equal(before);
    });

    it('needs a merchant session', async () => {
      const res = await api.post('/v1/stores', { name: 'Anon', subdomain: 'anon-shop' });
      expect(res.status).to.equal(401);
    });

    it('replays the first response for a retried Idempotency-Key and creates one store', async () => {
      const m = await givenMerchant(api);
      const body = { name: 'Once', subdomain: 'only-once' };
      const headers = { 'idempotency-key': 'create-store-1' };
      const first = await api.post('/v1/stores', body, { token: m.token, headers });
      const second = await api.post('/v1/stores', body, { token: m.token, headers });
      expect(first.status).to.equal(201);
      expect(second.status).to.equal(201);
      expect(second.body).to.deep.equal(first.body);
      expect(second.headers.get('idempotent-replayed')).to.equal('true');
      expect(await app.platform.db.collection('stores').countDocuments({ subdomain: 'only-once' })).to.equal(1);

      const conflict = await api.post('/v1/stores', { ...body, name: 'Other' }, { token: m.token, headers });
      expect(conflict.status).to.equal(409);
      expect(conflict.body.error.code).to.equal('idempotency_key_reused');
    });

    it('scopes idempotency keys to the caller and frees a key whose request failed', async () => {
      const a = await givenMerchant(api);
      const b = await givenMerchant(api);
      const headers = { 'idempotency-key': 'shared-key' };
      expect((await api.post('/v1/stores', { name: 'A', subdomain: 'key-a' }, { token: a.token, headers })).status).to.equal(201);
      expect((await api.post('/v1/stores', { name: 'B', subdomain: 'key-b' }, { token: b.token, headers })).status).to.equal(201);

      const bad = await api.post('/v1/stores', { name: 'C', subdomain: 'key-a' }, { token: b.token, headers: { 'idempotency-key': 'retry-me' } });
      expect(bad.status).to.equal(409);
      const retried = await api.post('/v1/stores', { name: 'C', subdomain: 'key-c' }, { token: b.token, headers: { 'idempotency-key': 'retry-me' } });
      expect(retried.status).to.equal(201);
    });
  });

  describe('GET /v1/stores', () => {
    it("lists only the caller's stores, with cursor pagination", async () => {
      const m = await givenMerchant(api);
      const other = await givenMerchant(api);
      await givenStore(api, other);
      const created = [];
      for (let i = 0; i < 5; i++) created.push((await givenStore(api, m)).id);

      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res: Reply = await api.get(`/v1/stores?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { token: m.token });
        expect(res.status).to.equal(200);
        seen.push(...res.body.data.map((s: { id: string }) => s.id));
        cursor = res.body.page.next_cursor;
        pages++;
      } while (cursor);
      expect(seen).to.deep.equal(created);
      expect(pages).to.equal(3);
    });

    it('refuses bad paging input', async () => {
      const m = await givenMerchant(api);
      for (const q of ['limit=0', 'limit=251', 'limit=abc', 'cursor=not-a-cursor', 'sort=name']) {
        const res = await api.get(`/v1/stores?${q}`, { token: m.token });
        expect(res.status, q).to.equal(400);
        expect(res.body.error.code).to.equal('invalid_input');
      }
    });
  });

  describe('GET and PATCH /v1/stores/:id', () => {
    it("reads and updates the caller's store and records store.updated", async () => {
      const { merchant, store } = await givenMerchantWithStore(api);
      const got = await api.get(`/v1/stores/${store.id}`, { token: merchant.token });
      expect(got.status).to.equal(200);
      expect(got.body.data.subdomain).to.equal(store.subdomain);

      const res = await api.patch(`/v1/stores/${store.id}`, { name: 'Renamed', currency: 'GBP' }, { token: merchant.token });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.include({ name: 'Renamed', currency: 'GBP', subdomain: store.subdomain });
      const event = await app.platform.db.collection('events').findOne({ type: 'store.updated', store_id: { $exists: true }, 'payload.store.id': store.id });
      expect(event?.payload.changed).to.have.members(['name', 'currency']);
    });

    it('records one store.updated per update, even two in quick succession', async () => {
      const { merchant, store } = await givenMerchantWithStore(api);
      await Promise.all([
        api.patch(`/v1/stores/${store.id}`, { name: 'First' }, { token: merchant.token }),
        api.patch(`/v1/stores/${store.id}`, { name: 'Second' }, { token: merchant.token }),
      ]);
      const events = await app.platform.db.collection('events').find({ type: 'store.updated', 'payload.store.id': store.id }).toArray();
      expect(events.map((e) => e.idempotency_key).sort()).to.deep.equal([`store.updated:${store.id}:v2`, `store.updated:${store.id}:v3`]);
    });

    it('refuses to change the subdomain, and other bad updates, changing nothing', async () => {
      const { merchant, store } = await givenMerchantWithStore(api);
      const before = await api.get(`/v1/stores/${store.id}`, { token: merchant.token });
      for (const body of [{ subdomain: 'new-name' }, {}, { name: '' }, { currency: 'EURO' }, { name: 'ok', owner_id: 'x' }]) {
        const res = await api.patch(`/v1/stores/${store.id}`, body, { token: merchant.token });
        expect(res.status, JSON.stringify(body)).to.equal(400);
      }
      const after = await api.get(`/v1/stores/${store.id}`, { token: merchant.token });
      expect(after.body).to.deep.equal(before.body);
    });

    it("answers 404 for another merchant's store, and for ids that do not exist", async () => {
      const { store } = await givenMerchantWithStore(api);
      const intruder = await givenMerchant(api);
      expect((await api.get(`/v1/stores/${store.id}`, { token: intruder.token })).status).to.equal(404);
      const patch = await api.patch(`/v1/stores/${store.id}`, { name: 'Hijacked' }, { token: intruder.token });
      expect(patch.status).to.equal(404);
      expect((await app.platform.db.collection('stores').findOne({ subdomain: store.subdomain }))?.name).to.equal('Test Store');
      expect((await api.get('/v1/stores/000000000000000000000000', { token: intruder.token })).status).to.equal(404);
      expect((await api.get('/v1/stores/not-an-id', { token: intruder.token })).status).to.equal(404);
      expect((await api.get('/v1/stores/%E0%A4%A', { token: intruder.token })).status).to.equal(404);
    });
  });

  describe('changing the currency (PATCH /v1/stores/:id)', () => {
    const product = async (as: { token: string; storeId: string }, price: number) => {
      // Untracked stock: an order of it needs no stock level.
      const res = await api.post('/v1/products', { title: 'Lamp', status: 'active', variants: [{ price, inventory_tracked: false }] }, as);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return res.body.data;
    };

    it('refuses it once the store has a product: a USD 1000 product never becomes a JPY 1000 order', async () => {
      const { merchant, store } = await givenMerchantWithStore(api);
      const as = { token: merchant.token, storeId: store.id };
      const lamp = await product(as, 1000);
      expect(lamp.currency).to.equal('USD');
      const before = await api.get(`/v1/stores/${store.id}`, { token: merchant.token });

      const res = await api.patch(`/v1/stores/${store.id}`, { currency: 'JPY' }, { token: merchant.token });
      expect(res.status, JSON.stringify(res.body)).to.equal(409);
      expect(res.body.error.code).to.equal('currency_locked');
      const after = await api.get(`/v1/stores/${store.id}`, { token: merchant.token });
      expect(after.body).to.deep.equal(before.body);
      expect(await app.platform.db.collection('events').countDocuments({ type: 'store.updated', 'payload.store.id': store.id })).to.equal(0);

      const order = await api.post('/v1/orders', { line_items: [{ variant_id: lamp.variants[0].id, quantity: 1 }] }, as);
      expect(order.status, JSON.stringify(order.body)).to.equal(201);
      expect(order.body.data).to.include({ currency: 'USD', subtotal: 1000 });
    });

    it('refuses it once the store has issued a gift card', async () => {
      const { merchant, store } = await givenMerchantWithStore(api);
      const card = await api.post('/v1/products/gift-cards', { initial_value: 5000 }, { token: merchant.token, storeId: store.id });
      expect(card.status).to.equal(201);
      const res = await api.patch(`/v1/stores/${store.id}`, { currency: 'EUR' }, { token: merchant.token });
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('currency_locked');
      expect((await api.get(`/v1/stores/${store.id}`, { token: merchant.token })).body.data.currency).to.equal('USD');
    });

    it('still renames a store with prices, and accepts its own currency again', async () => {
      const { merchant, store } = await givenMerchantWithStore(api);
      await product({ token: merchant.token, storeId: store.id }, 250);
      const renamed = await api.patch(`/v1/stores/${store.id}`, { name: 'Lamps & Co', currency: 'USD' }, { token: merchant.token });
      expect(renamed.status, JSON.stringify(renamed.body)).to.equal(200);
      expect(renamed.body.data).to.include({ name: 'Lamps & Co', currency: 'USD' });
    });

    it('allows it before anything is priced, and only for that store', async () => {
      const merchant = await givenMerchant(api);
      const priced = await givenStore(api, merchant);
      const fresh = await givenStore(api, merchant);
      await product({ token: merchant.token, storeId: priced.id }, 1000);
      const res = await api.patch(`/v1/stores/${fresh.id}`, { currency: 'JPY' }, { token: merchant.token });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data.currency).to.equal('JPY');
      const lamp = await product({ token: merchant.token, storeId: fresh.id }, 1000);
      expect(lamp.currency).to.equal('JPY');
      expect((await api.patch(`/v1/stores/${fresh.id}`, { currency: 'USD' }, { token: merchant.token })).status).to.equal(409);
    });

    it('never leaves a product priced in another currency than its store, when both happen at once', async () => {
      const { merchant } = await givenMerchantWithStore(api);
      const shops = await Promise.all(Array.from({ length: 6 }, () => givenStore(api, merchant)));
      const outcomes = await Promise.all(
        shops.map(async (shop) => {
          const [created, changed] = await Promise.all([
            api.post('/v1/products', { title: 'Race', variants: [{ price: 100 }] }, { token: merchant.token, storeId: shop.id }),
            api.patch(`/v1/stores/${shop.id}`, { currency: 'EUR' }, { token: merchant.token }),
          ]);
          return { shop, created, changed };
        }),
      );
      expect(outcomes).to.have.length(6);
      for (const { shop, created, changed } of outcomes) {
        const store = (await api.get(`/v1/stores/${shop.id}`, { token: merchant.token })).body.data;
        const products = (await api.get('/v1/products', { token: merchant.token, storeId: shop.id })).body.data;
        for (const p of products) expect(p.currency, `store ${shop.id}`).to.equal(store.currency);
        // Exactly one of the two took effect, or both in the order that keeps them apart.
        expect([created.status, changed.status], JSON.stringify([created.body, changed.body])).to.satisfy(
          ([c, u]: number[]) => (c === 201 && u === 409) || (c === 201 && u === 200 && products[0]?.currency === 'EUR') || (c === 409 && u === 200),
        );
        if (created.status === 409) expect(created.body.error.code).to.equal('store_currency_changed');
      }
    });
  });

  describe('store-scoped routes (X-Store-Id)', () => {
    it('resolves the store named by X-Store-Id for its owner', async () => {
      const { merchant, store } = await givenMerchantWithStore(api);
      const res = await api.get('/v1/stores/current', { token: merchant.token, storeId: store.id });
      expect(res.status).to.equal(200);
      expect(res.body.data.id).to.equal(store.id);
    });

    it('answers 403 for a store the caller does not own, or that does not exist', async () => {
      const { store } = await givenMerchantWithStore(api);
      const intruder = await givenMerchant(api);
      const res = await api.get('/v1/stores/current', { token: intruder.token, storeId: store.id });
      expect(res.status).to.equal(403);
      expect(res.body.error.code).to.equal('store_forbidden');
      const missing = await api.get('/v1/stores/current', { token: intruder.token, storeId: '000000000000000000000000' });
      expect(missing.status).to.equal(403);
      expect(missing.body.error).to.deep.include({ message: res.body.error.message });
    });

    it('answers 400 for a missing or malformed X-Store-Id and 401 without a session', async () => {
      const m = await givenMerchant(api);
      expect((await api.get('/v1/stores/current', { token: m.token })).body.error.code).to.equal('store_required');
      expect((await api.get('/v1/stores/current', { token: m.token, storeId: 'abc' })).body.error.code).to.equal('invalid_store_id');
      expect((await api.get('/v1/stores/current', { storeId: '000000000000000000000000' })).status).to.equal(401);
    });
  });
});
