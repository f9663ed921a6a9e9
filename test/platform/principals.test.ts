import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import type { Principal } from '../../src/http/context.js';
import type { Module } from '../../src/module.js';
import { MODULES } from '../../src/modules.js';
import { useTestApp } from '../helpers/app.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';

/**
 * The caller can be a merchant, an app installation or a customer (src/http/context.ts). Apps
 * and customers get their tokens in later issues; here a module of the test's own turns
 * `test_app_…` and `test_customer_…` tokens into those principals, through the same
 * authenticator hook the auth module uses for sessions, so the toolkit's store scoping,
 * scopes and idempotency are exercised for each kind through the real app and database.
 */
describe('Principals: merchants, apps and customers on store-scoped endpoints', () => {
  let shop: GivenMerchantWithStore;
  let other: GivenMerchantWithStore;
  const principals = new Map<string, Principal>();
  const testPrincipals: Module = {
    name: 'test-principals',
    authenticators: [
      { prefix: 'test_app_', authenticate: async (_platform, token) => principals.get(token) ?? null },
      { prefix: 'test_customer_', authenticate: async (_platform, token) => principals.get(token) ?? null },
    ],
  };
  const { app, api } = useTestApp('principals', {}, { modules: [...MODULES, testPrincipals] });
  const installed = (token: string, storeId: string, scopes: string[]) => {
    principals.set(token, {
      kind: 'app',
      appId: new ObjectId().toHexString(),
      installationId: new ObjectId().toHexString(),
      storeId,
      scopes,
      onlineMerchantId: null,
    });
    return { token };
  };

  before(async () => {
    shop = await givenMerchantWithStore(api);
    other = await givenMerchantWithStore(api);
    expect((await api.post('/v1/products', { title: 'Teapot', variants: [{ price: 1500 }] }, shop.as)).status).to.equal(201);
    expect((await api.post('/v1/products', { title: 'Not theirs', variants: [{ price: 10 }] }, other.as)).status).to.equal(201);
  });

  it('lets an app read the store it is installed in, with the scope, and no other store', async () => {
    const reader = installed('test_app_reader', shop.store.id, ['read_products']);
    const list = await api.get('/v1/products', reader);
    expect(list.status, JSON.stringify(list.body)).to.equal(200);
    expect(list.body.data.map((p: { title: string }) => p.title)).to.deep.equal(['Teapot']);
    expect((await api.get('/v1/products', { ...reader, storeId: shop.store.id })).status).to.equal(200);
    const elsewhere = await api.get('/v1/products', { ...reader, storeId: other.store.id });
    expect(elsewhere.status).to.equal(403);
    expect(elsewhere.body.error.code).to.equal('store_forbidden');
    const current = await api.get('/v1/stores/current', reader);
    expect(current.body.data).to.include({ id: shop.store.id });
  });

  it('answers 403 insufficient_scope to an app without the scope, and changes nothing', async () => {
    const reader = installed('test_app_reader_only', shop.store.id, ['read_products']);
    const write = await api.post('/v1/products', { title: 'Sneaky', variants: [{ price: 1 }] }, reader);
    expect(write.status).to.equal(403);
    expect(write.body.error.code).to.equal('insufficient_scope');
    const customers = installed('test_app_customers', shop.store.id, ['read_customers']);
    expect((await api.get('/v1/products', customers)).body.error.code).to.equal('insufficient_scope');
    expect(await app.platform.db.collection('products').countDocuments({ store_id: new ObjectId(shop.store.id), title: 'Sneaky' })).to.equal(0);
  });

  it('lets an app with the write scope change its store, recorded like a merchant change', async () => {
    const writer = installed('test_app_writer', shop.store.id, ['read_products', 'write_products']);
    const created = await api.post('/v1/products', { title: 'By an app', variants: [{ price: 700 }] }, writer);
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const doc = await app.platform.db.collection('products').findOne({ _id: new ObjectId(created.body.data.id) });
    expect(doc!.store_id.toHexString()).to.equal(shop.store.id);
    expect(await app.platform.db.collection('events').countDocuments({ type: 'product.created', 'payload.product.id': created.body.data.id })).to.equal(1);
    expect(app.logLines.join('')).to.match(/"event":"http.request"[^\n]*"path":"\/v1\/products"[^\n]*"status":201[^\n]*"app_installation_id":"[0-9a-f]{24}"/);
  });

  it('keeps merchant-only routes and merchant-only stores from apps (401), and an app of a store that is gone (403)', async () => {
    const everything = installed('test_app_everything', shop.store.id, ['read_products', 'write_products', 'read_orders', 'write_orders']);
    for (const path of [
      '/v1/stores',
      '/v1/operations/webhook-subscriptions',
      '/v1/operations/webhook-deliveries',
      '/v1/payments/providers',
      '/v1/auth/custom/session',
    ]) {
      const res = await api.get(path, everything);
      expect(res.status, path).to.equal(401);
      expect(res.body.error.code, path).to.equal('unauthenticated');
    }
    const orphan = installed('test_app_orphan', new ObjectId().toHexString(), ['read_products']);
    expect((await api.get('/v1/products', orphan)).status).to.equal(403);
  });

  it('keeps customers out of the admin API (401)', async () => {
    principals.set('test_customer_ada', { kind: 'customer', customerId: new ObjectId().toHexString(), storeId: shop.store.id });
    for (const path of ['/v1/products', '/v1/orders', '/v1/stores/current']) {
      expect((await api.get(path, { token: 'test_customer_ada' })).status, path).to.equal(401);
    }
  });

  it('keys Idempotency-Key by the principal: an app and the merchant using the same key make two requests', async () => {
    const writer = installed('test_app_idempotent', shop.store.id, ['read_products', 'write_products']);
    const body = { title: 'Twice?', variants: [{ price: 100 }] };
    const headers = { 'idempotency-key': 'same-key-for-both' };
    const first = await api.post('/v1/products', body, { ...writer, headers });
    const replay = await api.post('/v1/products', body, { ...writer, headers });
    expect(replay.headers.get('idempotent-replayed')).to.equal('true');
    expect(replay.body.data.id).to.equal(first.body.data.id);
    const merchant = await api.post('/v1/products', body, { ...shop.as, headers });
    expect(merchant.status).to.equal(201);
    expect(merchant.headers.get('idempotent-replayed')).to.equal(null);
    expect(merchant.body.data.id).to.not.equal(first.body.data.id);
  });
});
