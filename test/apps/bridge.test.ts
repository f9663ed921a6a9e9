import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { useTestApp } from '../helpers/app.js';
import { givenPublishedApp, installApp, type GivenApp } from '../helpers/apps.js';
import { givenMerchant, givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';

const OPERATOR = 'op-bridge@example.com';

/** The read-only app bridge (spec 2.4, 7; docs/apps.md, The app bridge): POST /v1/app-store/bridge/fetch. */
describe('The app bridge (read-only fetch for embedded apps)', () => {
  const { api } = useTestApp('app_bridge', { OPERATOR_EMAILS: OPERATOR });
  let shop: GivenMerchantWithStore;
  let other: GivenMerchantWithStore;
  let token: string;
  let narrowToken: string;

  /** Install the app in a store with these scopes, through authorize and the token endpoint; its access token. */
  const install = async (partner: GivenApp, into: GivenMerchantWithStore, scopes: string[]) => (await installApp(api, partner, into, { scopes })).token;

  before(async () => {
    const operator = await givenMerchant(api, { email: OPERATOR });
    shop = await givenMerchantWithStore(api);
    other = await givenMerchantWithStore(api);
    await api.post('/v1/products', { title: 'Mine', status: 'active', variants: [{ price: 100 }] }, shop.as);
    await api.post('/v1/products', { title: 'Theirs', status: 'active', variants: [{ price: 100 }] }, other.as);
    const full = await givenPublishedApp(api, operator.token, { scopes: ['read_products', 'read_orders'] });
    token = await install(full, shop, ['read_products']);
    narrowToken = await install(await givenPublishedApp(api, operator.token, { scopes: ['read_orders'] }), shop, ['read_orders']);
  });

  const fetchVia = (body: Record<string, unknown>, t = token) => api.post('/v1/app-store/bridge/fetch', body, { token: t });

  it('answers { data: { ok, status, data, error } } with the read the token may make', async () => {
    const res = await fetchVia({ method: 'GET', path: '/products?limit=5', store_id: shop.store.id });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data).to.have.keys('ok', 'status', 'data', 'error');
    expect(res.body.data).to.include({ ok: true, status: 200, error: null });
    expect(res.body.data.data.items.map((p: { title: string }) => p.title)).to.deep.equal(['Mine']);
    const one = await fetchVia({ method: 'GET', path: `/products/${res.body.data.data.items[0].id}`, store_id: shop.store.id });
    expect(one.body.data.data.title).to.equal('Mine');
    const shopRead = await fetchVia({ method: 'GET', path: '/shop', store_id: shop.store.id });
    expect(shopRead.body.data.data).to.include({ id: shop.store.id, subdomain: shop.store.subdomain });
    const metadata = await fetchVia({ method: 'GET', path: '/installation/metadata', store_id: shop.store.id });
    expect(metadata.body.data).to.include({ ok: true, status: 200 });
    const missing = await fetchVia({ method: 'GET', path: '/products/0123456789abcdef01234567', store_id: shop.store.id });
    expect(missing.body.data).to.deep.include({ ok: false, status: 404, data: null });
  });

  it('never reads more than the token could: the upstream 403 for a scope it lacks, and only its own store', async () => {
    const orders = await fetchVia({ method: 'GET', path: '/orders', store_id: shop.store.id });
    expect(orders.status).to.equal(200);
    expect(orders.body.data).to.deep.include({ ok: false, status: 403, data: null });
    expect(orders.body.data.error.code).to.equal('insufficient_scope');
    const products = await fetchVia({ method: 'GET', path: '/products', store_id: shop.store.id }, narrowToken);
    expect(products.body.data.status).to.equal(403);
    const theirs = await fetchVia({ method: 'GET', path: '/products', store_id: other.store.id });
    expect([theirs.status, theirs.body.error.code]).to.deep.equal([403, 'store_forbidden']);
  });

  it('refuses every method but GET, and every path that is not a plain approved read', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'get', 'PATCH']) {
      const res = await fetchVia({ method, path: '/products', store_id: shop.store.id });
      expect([res.status, res.body.error.code], method).to.deep.equal([400, 'bridge_method_not_allowed']);
    }
    const paths = [
      'products',
      '//evil.example.com/products',
      'https://evil.example.com/products',
      '/products/../orders',
      '/products/%2e%2e/orders',
      '/products%2Forders',
      '/products\\orders',
      '/products#x',
      '/products?limit=1?x=2',
      '/products?limit=1&limit=2',
      '/products?$where=1',
      '/products/a/b',
      '/admin',
      '/themes',
      '/products/ x',
      '/products\u0000',
    ];
    for (const path of paths) {
      const res = await fetchVia({ method: 'GET', path, store_id: shop.store.id });
      expect([res.status, res.body.error?.code], path).to.deep.equal([400, 'invalid_bridge_path']);
    }
    const extra = await fetchVia({ method: 'GET', path: '/products', store_id: shop.store.id, headers: {} });
    expect(extra.status).to.equal(400);
  });

  it('is for app tokens only: no token, a merchant session and a revoked token get 401', async () => {
    expect((await api.post('/v1/app-store/bridge/fetch', { method: 'GET', path: '/shop', store_id: shop.store.id })).status).to.equal(401);
    expect(
      (await api.post('/v1/app-store/bridge/fetch', { method: 'GET', path: '/shop', store_id: shop.store.id }, { token: shop.merchant.token })).status,
    ).to.equal(401);
    expect((await fetchVia({ method: 'GET', path: '/shop', store_id: shop.store.id }, `emp_at_${randomBytes(32).toString('base64url')}`)).status).to.equal(401);
  });
});
