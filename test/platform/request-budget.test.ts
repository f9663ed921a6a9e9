import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import type { Principal } from '../../src/http/context.js';
import type { Module } from '../../src/module.js';
import { MODULES } from '../../src/modules.js';
import { useTestApp } from '../helpers/app.js';
import { counts } from '../helpers/database.js';
import { givenMerchantWithStore, givenStore } from '../helpers/factories.js';
import type { Reply } from '../helpers/http.js';
import { withWebProcess } from '../helpers/processes.js';

const CAPACITY = 5;
/** One point every 1000 s: within a test the bucket does not refill. */
const RESTORE_RATE = 0.001;
const BUCKET = { ADMIN_API_BUCKET_CAPACITY: String(CAPACITY), ADMIN_API_RESTORE_RATE: String(RESTORE_RATE) };
/** Seconds for an empty bucket to fill. */
const FILL_SECONDS = CAPACITY / RESTORE_RATE;

/**
 * Spec 8: protected routes are rate limited. Every store-scoped admin request spends one point
 * of the caller's leaky bucket on that store (ADMIN_API_BUCKET_CAPACITY points, restoring
 * ADMIN_API_RESTORE_RATE a second); here the bucket holds 5 and restores one point in 1000 s,
 * so a test proves it in a few requests.
 */
describe('Request budget of the store-scoped admin API', () => {
  const principals = new Map<string, Principal>();
  const testApps: Module = {
    name: 'test-apps',
    authenticators: [{ prefix: 'test_app_', authenticate: async (_platform, token) => principals.get(token) ?? null }],
  };
  const { app, api } = useTestApp('budget', BUCKET, { modules: [...MODULES, testApps] });

  const headers = (res: Reply) => ({
    limit: res.headers.get('ratelimit-limit'),
    remaining: res.headers.get('ratelimit-remaining'),
    reset: Number(res.headers.get('ratelimit-reset')),
  });

  it('gives a caller 5 requests on a store, with RateLimit headers, then 429 rate_limited with Retry-After', async () => {
    const shop = await givenMerchantWithStore(api);
    const remaining: (string | null)[] = [];
    const resets: number[] = [];
    // Whole seconds since just before the first request, rounded up: at most what the bucket restored (1 s a second) since.
    const started = Date.now();
    const since: number[] = [];
    for (let i = 0; i < CAPACITY; i++) {
      const res = await api.get('/v1/products', shop.as);
      since.push(Math.ceil((Date.now() - started) / 1000));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const h = headers(res);
      expect(h.limit).to.equal(String(CAPACITY));
      resets.push(h.reset);
      remaining.push(h.remaining);
    }
    expect(remaining).to.deep.equal(['4', '3', '2', '1', '0']);
    // Seconds until the bucket is full again: 1000 s a point spent, less what it restored since the first request.
    resets.forEach((reset, i) => expect(reset).to.be.within((i + 1) * 1000 - since[i]!, (i + 1) * 1000));

    const refused = await api.get('/v1/products', shop.as);
    const sinceRefused = Math.ceil((Date.now() - started) / 1000);
    expect(refused.status).to.equal(429);
    expect(refused.body.error).to.include({ code: 'rate_limited' });
    expect(refused.body.error.request_id).to.equal(refused.headers.get('x-request-id'));
    expect(headers(refused)).to.include({ limit: String(CAPACITY), remaining: '0' });
    expect(headers(refused).reset).to.be.within(FILL_SECONDS - sinceRefused, FILL_SECONDS);
    // Until one point is back: 1000 s after the first request, less the time since.
    expect(Number(refused.headers.get('retry-after'))).to.be.within(1000 - sinceRefused, 1000);
  });

  it('refuses a write over budget without changing anything, and a refused request spends nothing', async () => {
    const shop = await givenMerchantWithStore(api);
    for (let i = 0; i < CAPACITY; i++) expect((await api.get('/v1/products', shop.as)).status).to.equal(200);
    const products = app.platform.db.collection('products');
    const accounts = app.platform.db.collection<{ _id: string; buckets: Record<string, number> }>('rate_limits');
    const spent = await accounts.findOne({ _id: `admin:${shop.merchant.id}` });
    for (let i = 0; i < 3; i++) {
      const write = await api.post(
        '/v1/products',
        { title: 'Over budget', variants: [{ price: 100 }] },
        { ...shop.as, headers: { 'idempotency-key': `over-${i}` } },
      );
      expect(write.status).to.equal(429);
    }
    expect(await products.countDocuments({ store_id: new ObjectId(shop.store.id) })).to.equal(0);
    const account = await accounts.findOne({ _id: `admin:${shop.merchant.id}` });
    expect(account, 'refused requests are not counted').to.deep.equal(spent);
    expect(Object.keys(account?.buckets ?? {})).to.deep.equal([`rest-${shop.store.id}`]);
  });

  it('adds no document for store-scoped requests once the caller has signed in, whatever they answer', async () => {
    const shop = await givenMerchantWithStore(api);
    const before = await counts(app.platform.db);
    const statuses = [
      (await api.get('/v1/products', shop.as)).status,
      (await api.post('/v1/products', { title: '' }, shop.as)).status,
      (await api.get(`/v1/products/${new ObjectId().toHexString()}`, shop.as)).status,
    ];
    expect(statuses).to.deep.equal([200, 400, 404]);
    expect(await counts(app.platform.db)).to.deep.equal(before);
    // The merchant's second store: another bucket in the same account.
    const second = await givenStore(api, shop.merchant);
    const withStore = await counts(app.platform.db);
    expect((await api.get('/v1/products', { token: shop.merchant.token, storeId: second.id })).status).to.equal(200);
    expect(await counts(app.platform.db)).to.deep.equal(withStore);
  });

  it('lets exactly 5 of 20 simultaneous requests through, the first of the bucket among them', async () => {
    const shop = await givenMerchantWithStore(api);
    const statuses = (await Promise.all(Array.from({ length: 20 }, () => api.get('/v1/products', shop.as)))).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).to.have.length(CAPACITY);
    expect(statuses.filter((s) => s === 429)).to.have.length(20 - CAPACITY);
  });

  it('keeps one budget per (store, caller): another store of the merchant and an app on the same store have their own', async () => {
    const shop = await givenMerchantWithStore(api);
    for (let i = 0; i < CAPACITY; i++) expect((await api.get('/v1/products', shop.as)).status).to.equal(200);
    expect((await api.get('/v1/products', shop.as)).status).to.equal(429);

    // The same merchant on its second store, and through another session: the store's budget is per merchant, not per session.
    const second = await givenStore(api, shop.merchant);
    const elsewhere = await api.get('/v1/products', { token: shop.merchant.token, storeId: second.id });
    expect(elsewhere.status).to.equal(200);
    expect(headers(elsewhere).remaining).to.equal(String(CAPACITY - 1));
    const signin = await api.post('/v1/auth/signin', { email: shop.merchant.email, password: shop.merchant.password });
    expect((await api.get('/v1/products', { token: signin.body.data.session.token, storeId: shop.store.id })).status).to.equal(429);

    // An app installed in the store is another caller.
    principals.set('test_app_budget', {
      kind: 'app',
      appId: new ObjectId().toHexString(),
      installationId: new ObjectId().toHexString(),
      storeId: shop.store.id,
      scopes: ['read_products'],
      onlineMerchantId: null,
    });
    const asApp = await api.get('/v1/products', { token: 'test_app_budget' });
    expect(asApp.status).to.equal(200);
    expect(headers(asApp).remaining).to.equal(String(CAPACITY - 1));
  });

  it('does not count requests refused before the store is known, nor routes outside the store-scoped API', async () => {
    const shop = await givenMerchantWithStore(api);
    const intruder = await givenMerchantWithStore(api);
    for (let i = 0; i < CAPACITY + 2; i++) {
      const anonymous = await api.get('/v1/products', { storeId: shop.store.id });
      expect(anonymous.status).to.equal(401);
      expect(anonymous.headers.get('ratelimit-limit')).to.equal(null);
      const forbidden = await api.get('/v1/products', { token: intruder.merchant.token, storeId: shop.store.id });
      expect(forbidden.status).to.equal(403);
      const session = await api.get('/v1/auth/custom/session', { token: shop.merchant.token });
      expect(session.status).to.equal(200);
      expect(session.headers.get('ratelimit-limit')).to.equal(null);
    }
    const first = await api.get('/v1/products', shop.as);
    expect(first.status).to.equal(200);
    expect(headers(first).remaining).to.equal(String(CAPACITY - 1));
  });

  it('holds across web processes: the buckets are in the database', async () => {
    const shop = await givenMerchantWithStore(api);
    await withWebProcess(app, BUCKET, async (other) => {
      const statuses: number[] = [];
      for (let i = 0; i < CAPACITY + 1; i++) statuses.push((await (i % 2 === 0 ? api : other).get('/v1/products', shop.as)).status);
      expect(statuses).to.deep.equal([200, 200, 200, 200, 200, 429]);
      expect((await other.get('/v1/products', shop.as)).status).to.equal(429);
    });
  });
});

/**
 * The leaky bucket refills continuously: two web processes (this test's and a Procfile `web`)
 * hammered at once on one (store, caller) share one bucket, and what they admit together never
 * exceeds its capacity plus what it restored while they ran.
 */
describe('Request budget of the store-scoped admin API: one bucket for two web processes', () => {
  const capacity = 10;
  const restoreRate = 20;
  const bucket = { ADMIN_API_BUCKET_CAPACITY: String(capacity), ADMIN_API_RESTORE_RATE: String(restoreRate) };
  const { app, api } = useTestApp('bucket-shared', bucket);

  it('admits at most capacity + restoreRate × elapsed time across both, and refills while they spend', async () => {
    const shop = await givenMerchantWithStore(api);
    await withWebProcess(app, bucket, async (other) => {
      const admitted = [0, 0];
      const refused: Reply[] = [];
      const start = Date.now();
      // They spend until the bucket gave two seconds' refill and both processes admitted (a count, however long the machine takes to reach it).
      const done = () => admitted[0]! + admitted[1]! >= capacity + 2 * restoreRate && admitted[1]! > 0 && refused.length > 0;
      await Promise.all(
        [api, other, api, other, api, other].map(async (target, i) => {
          while (!done()) {
            const res = await target.get('/v1/stores/current', shop.as);
            if (res.status === 200) admitted[i % 2]!++;
            else if (res.status === 429) refused.push(res);
            else throw new Error(`unexpected ${res.status}: ${JSON.stringify(res.body)}`);
          }
        }),
      );
      const elapsedSeconds = (Date.now() - start) / 1000;
      const total = admitted[0]! + admitted[1]!;
      expect(total, `admitted ${admitted.join(' + ')} in ${elapsedSeconds} s`).to.be.at.most(Math.floor(capacity + restoreRate * elapsedSeconds + 1e-9));
      expect(total, 'the bucket refilled while they spent').to.be.above(capacity + restoreRate);
      expect(admitted[1], 'the second process admitted some').to.be.above(0);
      expect(refused.length).to.be.above(0);
      for (const res of refused) {
        expect(res.body.error.code).to.equal('rate_limited');
        // A point comes back every 50 ms.
        expect(res.headers.get('retry-after')).to.equal('1');
        expect(res.headers.get('ratelimit-limit')).to.equal(String(capacity));
        expect(res.headers.get('ratelimit-remaining')).to.equal('0');
      }
    });
  });
});
