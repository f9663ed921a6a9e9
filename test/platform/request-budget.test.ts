import { expect } from 'chai';
import { createServer } from 'node:net';
import { ObjectId } from 'mongodb';
import type { Principal } from '../../src/http/context.js';
import type { Module } from '../../src/module.js';
import { MODULES } from '../../src/modules.js';
import { useTestApp } from '../helpers/app.js';
import { counts } from '../helpers/database.js';
import { givenShop, givenStore } from '../helpers/factories.js';
import { client, type Reply } from '../helpers/http.js';
import { runProcfileProcess, type RunningProcess } from '../helpers/processes.js';

const LIMIT = 5;
const WINDOW_SECONDS = 3600;

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Spec 8: protected routes are rate limited. Every store-scoped admin request spends one unit of
 * the caller's budget on that store (ADMIN_API_RATE_LIMIT per ADMIN_API_RATE_WINDOW_SECONDS);
 * here the budget is 5 per hour, so a test proves it in a few requests.
 */
describe('Request budget of the store-scoped admin API', () => {
  const principals = new Map<string, Principal>();
  const testApps: Module = {
    name: 'test-apps',
    authenticators: [{ prefix: 'test_app_', authenticate: async (_platform, token) => principals.get(token) ?? null }],
  };
  const { app, api } = useTestApp(
    'budget',
    { ADMIN_API_RATE_LIMIT: String(LIMIT), ADMIN_API_RATE_WINDOW_SECONDS: String(WINDOW_SECONDS) },
    { modules: [...MODULES, testApps] },
  );

  // Windows are fixed (aligned to the clock): start each test well inside one.
  beforeEach(async function () {
    const left = WINDOW_SECONDS * 1000 - (Date.now() % (WINDOW_SECONDS * 1000));
    if (left < 20_000) {
      this.timeout(left + 30_000);
      await new Promise((resolve) => setTimeout(resolve, left + 100));
    }
  });

  const headers = (res: Reply) => ({
    limit: res.headers.get('ratelimit-limit'),
    remaining: res.headers.get('ratelimit-remaining'),
    reset: Number(res.headers.get('ratelimit-reset')),
  });

  it('gives a caller 5 requests on a store, with RateLimit headers, then 429 rate_limited with Retry-After', async () => {
    const shop = await givenShop(api);
    const remaining: (string | null)[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const res = await api.get('/v1/products', shop.as);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const h = headers(res);
      expect(h.limit).to.equal(String(LIMIT));
      expect(h.reset).to.be.within(1, WINDOW_SECONDS);
      remaining.push(h.remaining);
    }
    expect(remaining).to.deep.equal(['4', '3', '2', '1', '0']);

    const refused = await api.get('/v1/products', shop.as);
    expect(refused.status).to.equal(429);
    expect(refused.body.error).to.include({ code: 'rate_limited' });
    expect(refused.body.error.request_id).to.equal(refused.headers.get('x-request-id'));
    expect(headers(refused)).to.include({ limit: String(LIMIT), remaining: '0' });
    expect(Number(refused.headers.get('retry-after')))
      .to.equal(headers(refused).reset)
      .and.to.be.within(1, WINDOW_SECONDS);
  });

  it('refuses a write over budget without changing anything, and a refused request spends nothing', async () => {
    const shop = await givenShop(api);
    for (let i = 0; i < LIMIT; i++) expect((await api.get('/v1/products', shop.as)).status).to.equal(200);
    const products = app.platform.db.collection('products');
    for (let i = 0; i < 3; i++) {
      const write = await api.post(
        '/v1/products',
        { title: 'Over budget', variants: [{ price: 100 }] },
        { ...shop.as, headers: { 'idempotency-key': `over-${i}` } },
      );
      expect(write.status).to.equal(429);
    }
    expect(await products.countDocuments({ store_id: new ObjectId(shop.store.id) })).to.equal(0);
    const account = await app.platform.db
      .collection<{ _id: string; windows: Record<string, { count: number }> }>('rate_limits')
      .findOne({ _id: `admin:${shop.merchant.id}` });
    expect(account?.windows[`s${shop.store.id}`]?.count, 'refused requests are not counted').to.equal(LIMIT);
  });

  it('adds no document for store-scoped requests once the caller has signed in, whatever they answer', async () => {
    const shop = await givenShop(api);
    const before = await counts(app.platform.db);
    const statuses = [
      (await api.get('/v1/products', shop.as)).status,
      (await api.post('/v1/products', { title: '' }, shop.as)).status,
      (await api.get(`/v1/products/${new ObjectId().toHexString()}`, shop.as)).status,
    ];
    expect(statuses).to.deep.equal([200, 400, 404]);
    expect(await counts(app.platform.db)).to.deep.equal(before);
    // The merchant's second store: another window in the same account.
    const second = await givenStore(api, shop.merchant);
    const withStore = await counts(app.platform.db);
    expect((await api.get('/v1/products', { token: shop.merchant.token, storeId: second.id })).status).to.equal(200);
    expect(await counts(app.platform.db)).to.deep.equal(withStore);
  });

  it('lets exactly 5 of 20 simultaneous requests through, the first of the window among them', async () => {
    const shop = await givenShop(api);
    const statuses = (await Promise.all(Array.from({ length: 20 }, () => api.get('/v1/products', shop.as)))).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).to.have.length(LIMIT);
    expect(statuses.filter((s) => s === 429)).to.have.length(20 - LIMIT);
  });

  it('keeps one budget per (store, caller): another store of the merchant and an app on the same store have their own', async () => {
    const shop = await givenShop(api);
    for (let i = 0; i < LIMIT; i++) expect((await api.get('/v1/products', shop.as)).status).to.equal(200);
    expect((await api.get('/v1/products', shop.as)).status).to.equal(429);

    // The same merchant on its second store, and through another session: the store's budget is per merchant, not per session.
    const second = await givenStore(api, shop.merchant);
    const elsewhere = await api.get('/v1/products', { token: shop.merchant.token, storeId: second.id });
    expect(elsewhere.status).to.equal(200);
    expect(headers(elsewhere).remaining).to.equal(String(LIMIT - 1));
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
    expect(headers(asApp).remaining).to.equal(String(LIMIT - 1));
  });

  it('does not count requests refused before the store is known, nor routes outside the store-scoped API', async () => {
    const shop = await givenShop(api);
    const intruder = await givenShop(api);
    for (let i = 0; i < LIMIT + 2; i++) {
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
    expect(headers(first).remaining).to.equal(String(LIMIT - 1));
  });

  it('holds across web processes: the counters are in the database', async function () {
    this.timeout(60_000);
    const shop = await givenShop(api);
    const port = await freePort();
    let web: RunningProcess | null = null;
    try {
      web = runProcfileProcess(
        'web',
        app.childEnv({ PORT: String(port), ADMIN_API_RATE_LIMIT: String(LIMIT), ADMIN_API_RATE_WINDOW_SECONDS: String(WINDOW_SECONDS) }),
      );
      await web.waitFor('"event":"web.listening"');
      const other = client(`http://127.0.0.1:${port}`);
      const statuses: number[] = [];
      for (let i = 0; i < LIMIT + 1; i++) statuses.push((await (i % 2 === 0 ? api : other).get('/v1/products', shop.as)).status);
      expect(statuses).to.deep.equal([200, 200, 200, 200, 200, 429]);
      expect((await other.get('/v1/products', shop.as)).status).to.equal(429);
    } finally {
      if (web && web.child.exitCode === null) {
        web.child.kill('SIGTERM');
        await web.exited;
      }
    }
  });
});
