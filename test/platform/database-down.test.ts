import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { startLocaldb, type RunningLocaldb } from '../../src/localdb/index.js';
import { useTestApp } from '../helpers/app.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import type { Reply } from '../helpers/http.js';
import { ShopBrowser } from '../helpers/shop.js';
import { freePort, until } from '../helpers/waiting.js';

/**
 * While the database is down the web process answers at once, 503 `database_unavailable` with
 * `Retry-After` (an HTML page to a browser and on a shop's host), instead of holding each request
 * until the driver gives up on it; `/health` and `/ready` say so in their own shape; and it serves
 * again by itself once the database is back. A real embedded database of this file's own, stopped
 * and started again on the same port and data (skipped when the suite runs on MONGODB_URL).
 */
const embedded = process.env.EMPORIUM_TEST_LOCALDB ? describe : describe.skip;

embedded('The web process while its database is down', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'emporium-db-down-'));
  let listen: string;
  let database: RunningLocaldb;
  before(async () => {
    listen = `127.0.0.1:${await freePort()}`;
    database = await startLocaldb({ dataDir, listen, stderr: 'ignore' });
  });
  const { app, api } = useTestApp('database_down', () => ({ MONGODB_URL: database.url }));
  after(async () => {
    await database.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  let shop: GivenMerchantWithStore;
  before(async () => {
    shop = await givenMerchantWithStore(api);
  });

  const expectDatabaseUnavailable = (res: Reply, what: string) => {
    expect(res.status, `${what}: ${JSON.stringify(res.body)}`).to.equal(503);
    expect(res.body.error.code, what).to.equal('database_unavailable');
    expect(Number(res.headers.get('retry-after')), `${what}: Retry-After`).to.be.within(1, 60);
  };

  it('answers 503 database_unavailable with Retry-After to every request that needs it (pages as HTML), and serves again once it is back', async () => {
    expect((await api.get('/v1/stores', { token: shop.merchant.token })).status).to.equal(200);
    await database.stop();

    // The first request may be the one that finds out; it is a 503 too, never a 500 or a hang.
    expectDatabaseUnavailable(await api.get('/v1/stores', { token: shop.merchant.token }), 'the first request');
    for (const [method, path, body] of [
      ['GET', '/v1/stores', undefined],
      ['GET', '/v1/products', undefined],
      ['POST', '/v1/products', { title: 'Lamp' }],
      ['POST', '/v1/auth/signin', { email: shop.merchant.email, password: shop.merchant.password }],
      ['GET', `/v1/storefront/${shop.store.subdomain}`, undefined],
      ['GET', '/v1/no-such-route', undefined],
    ] as const) {
      expectDatabaseUnavailable(await api.send(method, path, body, shop.as), `${method} ${path}`);
    }

    // Pages: the shop on its host, and the platform's pages to a browser.
    const page = await new ShopBrowser(app.url, `${shop.store.subdomain}.localhost`).get('/');
    expect(page.status).to.equal(503);
    expect(page.headers['content-type']).to.match(/^text\/html/);
    expect(Number(page.headers['retry-after'])).to.be.within(1, 60);
    expect(page.html).to.match(/cannot reach its database/);
    for (const path of ['/console', '/login']) {
      const res = await api.get(path, { headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } });
      expect(res.status, path).to.equal(503);
      expect(res.headers.get('content-type'), path).to.match(/^text\/html/);
      expect(Number(res.headers.get('retry-after')), path).to.be.within(1, 60);
    }

    // The probes answer in their own shape.
    const health = await api.get('/health');
    expect(health.status).to.equal(503);
    expect(health.body.data).to.include({ status: 'unavailable', database: 'unavailable' });
    const ready = await api.get('/ready');
    expect(ready.status).to.equal(503);
    expect(ready.body.data).to.include({ status: 'not_ready', database: 'unavailable' });

    // Back on the same port and data: the process serves again by itself.
    database = await startLocaldb({ dataDir, listen, stderr: 'ignore' });
    await until('the web process to serve again', async () => (await api.get('/v1/stores', { token: shop.merchant.token })).status === 200);
    expect((await api.get('/health')).status).to.equal(200);
    expect((await api.get('/v1/products', shop.as)).status).to.equal(200);
    // (A store without a live theme is itself a 503 page, "getting ready": the database's is gone.)
    expect((await new ShopBrowser(app.url, `${shop.store.subdomain}.localhost`).get('/')).html).to.match(/getting ready/);
  });
});
