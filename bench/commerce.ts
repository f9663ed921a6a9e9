import autocannon from 'autocannon';
import { ObjectId } from 'mongodb';
import { createProduct } from '../src/catalog/products.js';
import { encodeKeysetCursor } from '../src/pagination.js';
import { loadConfig } from '../src/config.js';
import { createLog } from '../src/log.js';
import { openPlatform } from '../src/platform.js';
import type { StoreView } from '../src/stores/index.js';
import { benchDatabase, freePort, printComparison, startServer, type LoadFigures } from './support.js';

/**
 * `npm run bench:commerce`: a store with 10,000 products (3 variants each), then, on the real
 * web process and beside a bare Koa baseline making the same database calls and JSON
 * (bench/commerce-baseline-server.ts), under the same autocannon load in the same run:
 * - GET /v1/products?limit=50 walking every page (each connection walks the pages in order);
 * - POST /v1/orders with three catalog lines and a shipping address (priced and taxed).
 */
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 10_000);
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 2);
const LIMIT = 50;

const database = await benchDatabase();
const env = { APP_ENV: 'development', MONGODB_URL: database.url, MONGODB_DB: 'bench_catalog' };
const [webPort, basePort] = [await freePort(), await freePort()];
const web = await startServer('dist/src/web.js', { ...env, PORT: String(webPort), LOG_LEVEL: 'info' }, 'web.listening');
const base = await startServer('dist/bench/commerce-baseline-server.js', { ...env, PORT: String(basePort) }, 'ready');
const api = `http://127.0.0.1:${webPort}`;

async function call(path: string, init: RequestInit = {}): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await fetch(api + path, { ...init, headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) } });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}

async function load(url: string, headers: Record<string, string>, requests: autocannon.Request[], duration = DURATION_S): Promise<LoadFigures> {
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration, requests, timeout: 120 });
  // Requests still in flight when the duration ends are cut off and counted as errors; a
  // non-2xx answer is a real failure.
  if (result.non2xx > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers`);
  // Completed requests over the measured time: per-second samples round slow runs to 0.
  return { rps: result.requests.total / result.duration, p50: result.latency.p50, p99: result.latency.p99, total: result.requests.total };
}

try {
  const signup = await call('/v1/auth/signup', { method: 'POST', body: JSON.stringify({ email: `bench-${Date.now()}@example.com`, password: 'benchmark password', name: 'Bench' }) });
  const token: string = signup.data.session.token;
  const store: StoreView = (await call('/v1/stores', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: JSON.stringify({ name: 'Bench', subdomain: `bench-${Date.now()}` }) })).data;
  const headers = { authorization: `Bearer ${token}`, 'x-store-id': store.id };

  // Seed through the catalog service (the same code path as POST /v1/products), 16 at a time.
  const seedStarted = Date.now();
  const { platform, close } = await openPlatform(loadConfig({ ...env, MONGODB_URL: database.url }), 'bench-seed', { log: createLog('warn', {}) });
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      for (let i = next++; i < PRODUCTS; i = next++) {
        await createProduct(platform, store, {
          title: `Product ${String(i).padStart(5, '0')}`,
          description_html: '<p>A product for the benchmark.</p>',
          vendor: `Vendor ${i % 20}`,
          product_type: 'Bench',
          tags: ['bench', `group-${i % 10}`],
          status: 'active',
          options: [{ name: 'Size', values: ['S', 'M', 'L'] }],
          variants: ['S', 'M', 'L'].map((size, j) => ({ option_values: [size], sku: `P${i}-${size}`, price: 1000 + j * 100, inventory_tracked: true, inventory_policy: 'deny' as const })),
          media_ids: [],
        });
      }
    }),
  );
  const seedSeconds = (Date.now() - seedStarted) / 1000;

  // Every page's path: the cursor after each 50th product, encoded as the API encodes it
  // (walking once over HTTP would cost a full scan per page on the embedded database).
  const ids = (await platform.db.collection('products').find({ store_id: new ObjectId(store.id) }, { projection: { _id: 1 } }).sort({ _id: 1 }).toArray()).map((d) => d._id);
  await close();
  const paths = [`/v1/products?limit=${LIMIT}`];
  for (let i = LIMIT - 1; i < ids.length - 1; i += LIMIT) paths.push(`/v1/products?limit=${LIMIT}&cursor=${encodeKeysetCursor(ids[i]!.toHexString(), ids[i]!)}`);
  const check = await call(paths[1] ?? paths[0]!, { headers });
  if (check.data.length !== Math.min(LIMIT, ids.length - (paths.length > 1 ? LIMIT : 0))) throw new Error('page paths do not match the API');

  const baseUrl = `http://127.0.0.1:${basePort}`;
  const pages = paths.map((path) => ({ method: 'GET' as const, path }));
  await load(api, headers, pages.slice(0, 20), 3); // warm up both
  await load(baseUrl, headers, pages.slice(0, 20), 3);
  const listPlatform = await load(api, headers, pages);
  const listBaseline = await load(baseUrl, headers, pages);

  // Orders: three lines from products spread over the catalog, taxed by a French address.
  await call('/v1/taxes', { method: 'PUT', headers, body: JSON.stringify({ rates: [{ country_code: 'FR', name: 'TVA', rate_bps: 2000 }] }) });
  const sample = (await call(`/v1/products?limit=3&sort=-title`, { headers })).data as { variants: { id: string }[] }[];
  const orderBody = JSON.stringify({ line_items: sample.map((p, i) => ({ variant_id: p.variants[i % 3]!.id, quantity: i + 1 })), shipping_address: { address1: '1 rue de Rivoli', city: 'Paris', country_code: 'FR' } });
  const create = [{ method: 'POST' as const, path: '/v1/orders', body: orderBody, headers: { 'content-type': 'application/json' } }];
  await load(api, headers, create, 3);
  await load(baseUrl, headers, create, 3);
  const orderPlatform = await load(api, headers, create);
  const orderBaseline = await load(baseUrl, headers, create);

  const where = `${CONNECTIONS} connections, ${DURATION_S} s each, database ${database.embedded ? 'embedded FerretDB' : 'MONGODB_URL'}`;
  console.log(`seeded ${PRODUCTS} products x 3 variants in ${seedSeconds.toFixed(1)} s; ${paths.length} pages of ${LIMIT}\n`);
  printComparison(`GET /v1/products?limit=${LIMIT} walking all pages, ${where}`, listPlatform, listBaseline);
  printComparison(`POST /v1/orders (3 lines, taxed), ${where}`, orderPlatform, orderBaseline);
} finally {
  web.kill('SIGTERM');
  base.kill('SIGTERM');
  await database.stop();
}
