import autocannon from 'autocannon';
import { ObjectId } from 'mongodb';
import { createProduct } from '../src/catalog/products.js';
import { encodeKeysetCursor } from '../src/pagination.js';
import { loadConfig } from '../src/config.js';
import { createLog } from '../src/log.js';
import { openPlatform } from '../src/boot.js';
import type { StoreView } from '../src/stores/index.js';
import { benchDatabase, cpuMicros, freePort, printComparison, startServer, type LoadFigures } from './support.js';

/**
 * `npm run bench:commerce`: a store with 10,000 products (3 variants each), then, on the real
 * web process and beside a bare Koa baseline making the same database calls and JSON
 * (bench/commerce-baseline-server.ts), under the same autocannon load in the same run:
 * - GET /v1/products?limit=50 walking every page (each connection walks the pages in order);
 * - POST /v1/orders with three catalog lines and a shipping address (priced and taxed); the
 *   variants are tracked and in stock at one location, so each line commits its units there.
 * Each run also prints the CPU the server and the database spent per request. The two servers
 * take turns in BENCH_ROUNDS slices (default 6) of BENCH_SECONDS (default 60). BENCH_ONLY=list
 * or =orders runs one part; BENCH_PROF=1 writes the web and baseline processes' CPU profiles to /tmp/prof.
 * BENCH_BASELINE=recording-off makes the baseline the web process itself with OPERATIONS_RECORDING=off
 * (no heartbeats, no runtime counters): what recording costs the request path (`npm run bench:operations`).
 */
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 10_000);
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 2);
const LIMIT = 50;
const ONLY = process.env.BENCH_ONLY;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const RECORDING_BASELINE = process.env.BENCH_BASELINE === 'recording-off';

const database = await benchDatabase();
const env = { APP_ENV: 'development', MONGODB_URL: database.url, MONGODB_DB: 'bench_catalog' };
const [webPort, basePort] = [await freePort(), await freePort()];
const profile = (name: string) => (process.env.BENCH_PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof', `--cpu-prof-name=${name}.cpuprofile`] : []);
const web = await startServer('dist/src/web.js', { ...env, PORT: String(webPort), LOG_LEVEL: 'info' }, 'web.listening', profile('web'));
const base = RECORDING_BASELINE
  ? await startServer(
      'dist/src/web.js',
      { ...env, PORT: String(basePort), LOG_LEVEL: 'info', OPERATIONS_RECORDING: 'off' },
      'web.listening',
      profile('baseline'),
    )
  : await startServer('dist/bench/commerce-baseline-server.js', { ...env, PORT: String(basePort) }, 'ready', profile('baseline'));
const labels = RECORDING_BASELINE ? (['recording on', 'recording off'] as const) : undefined;
const api = `http://127.0.0.1:${webPort}`;
const baseUrl = `http://127.0.0.1:${basePort}`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function call(path: string, init: RequestInit = {}): Promise<any> {
  const res = await fetch(api + path, { ...init, headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) } });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}

type Run = { requests: number; seconds: number; p50: number[]; p99: number[]; serverCpuUs: number; dbCpuUs: number | null };

/** One autocannon run against `url`: completed requests, the time they took, latency and CPU spent. */
async function loadOnce(url: string, headers: Record<string, string>, requests: autocannon.Request[], duration: number): Promise<Run> {
  const serverPid = url === api ? web.pid : base.pid;
  const cpuBefore = [cpuMicros(serverPid), cpuMicros(database.pid)];
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration, requests, timeout: 120 });
  const [server, db] = [cpuMicros(serverPid), cpuMicros(database.pid)].map((after, i) =>
    after === null || cpuBefore[i] === null ? null : after - cpuBefore[i]!,
  );
  // Requests still in flight when the duration ends are cut off and counted as errors; a
  // non-2xx answer is a real failure.
  if (result.non2xx > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers`);
  return {
    requests: result.requests.total,
    seconds: result.duration,
    p50: [result.latency.p50],
    p99: [result.latency.p99],
    serverCpuUs: server ?? 0,
    dbCpuUs: db ?? null,
  };
}

/**
 * The platform and the baseline under the same load, in ROUNDS alternating slices of the
 * duration (platform first, then baseline first, and so on), so that drift over the run (the
 * database's checkpoints and garbage collection, the growing collections, other work on the
 * machine) falls on both alike. Throughput is completed requests over the measured time of all
 * slices; latency is the median of the slices' percentiles.
 */
async function compare(requests: autocannon.Request[], headers: Record<string, string>): Promise<[LoadFigures, LoadFigures]> {
  const slice = Math.max(1, Math.round(DURATION_S / ROUNDS));
  const runs = { [api]: [] as Run[], [baseUrl]: [] as Run[] };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [api, baseUrl] : [baseUrl, api];
    for (const url of order) runs[url]!.push(await loadOnce(url, headers, requests, slice));
  }
  return [figures(runs[api]!), figures(runs[baseUrl]!)];
}

function figures(runs: Run[]): LoadFigures {
  const sum = (f: (r: Run) => number) => runs.reduce((a, r) => a + f(r), 0);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const total = sum((r) => r.requests);
  const db = runs.every((r) => r.dbCpuUs !== null) ? sum((r) => r.dbCpuUs!) / 1000 / total : null;
  return {
    rps: total / sum((r) => r.seconds),
    p50: median(runs.flatMap((r) => r.p50)),
    p99: median(runs.flatMap((r) => r.p99)),
    total,
    cpu: { server: sum((r) => r.serverCpuUs) / 1000 / total, db },
  };
}

try {
  const account = { email: `bench-${Date.now()}@example.com`, password: 'benchmark password' };
  await call('/v1/auth/signup', { method: 'POST', body: JSON.stringify({ ...account, name: 'Bench' }) });
  const token: string = (await call('/v1/auth/signin', { method: 'POST', body: JSON.stringify(account) })).data.session.token;
  const store: StoreView = (
    await call('/v1/stores', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: 'Bench', subdomain: `bench-${Date.now()}` }),
    })
  ).data;
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
          variants: ['S', 'M', 'L'].map((size, j) => ({
            option_values: [size],
            sku: `P${i}-${size}`,
            price: 1000 + j * 100,
            inventory_tracked: true,
            inventory_policy: 'deny' as const,
          })),
          media_ids: [],
        });
      }
    }),
  );
  const seedSeconds = (Date.now() - seedStarted) / 1000;

  // Every page's path: the cursor after each 50th product, encoded as the API encodes it
  // (walking once over HTTP would cost a full scan per page on the embedded database).
  const ids = (
    await platform.db
      .collection('products')
      .find({ store_id: new ObjectId(store.id) }, { projection: { _id: 1 } })
      .sort({ _id: 1 })
      .toArray()
  ).map((d) => d._id);
  await close();
  const paths = [`/v1/products?limit=${LIMIT}`];
  for (let i = LIMIT - 1; i < ids.length - 1; i += LIMIT)
    paths.push(`/v1/products?limit=${LIMIT}&cursor=${encodeKeysetCursor(ids[i]!.toHexString(), ids[i]!)}`);
  const check = await call(paths[1] ?? paths[0]!, { headers });
  if (check.data.length !== Math.min(LIMIT, ids.length - (paths.length > 1 ? LIMIT : 0))) throw new Error('page paths do not match the API');

  const pages = paths.map((path) => ({ method: 'GET' as const, path }));
  let list: [LoadFigures, LoadFigures] | null = null;
  if (ONLY !== 'orders') {
    await loadOnce(api, headers, pages.slice(0, 20), 3); // warm up both
    await loadOnce(baseUrl, headers, pages.slice(0, 20), 3);
    list = await compare(pages, headers);
  }

  // Orders: three lines from products spread over the catalog, taxed by a French address.
  await call('/v1/taxes', { method: 'PUT', headers, body: JSON.stringify({ rates: [{ country_code: 'FR', name: 'TVA', rate_bps: 2000 }] }) });
  const sample = (await call(`/v1/products?limit=3&sort=-title`, { headers })).data as { variants: { id: string }[] }[];
  const location = (await call('/v1/inventory/locations', { method: 'POST', headers, body: JSON.stringify({ name: 'Bench warehouse' }) })).data as {
    id: string;
  };
  for (const [i, p] of sample.entries()) {
    await call('/v1/inventory/levels/set', {
      method: 'POST',
      headers,
      body: JSON.stringify({ variant_id: p.variants[i % 3]!.id, location_id: location.id, available: 1_000_000_000 }),
    });
  }
  const orderBody = JSON.stringify({
    line_items: sample.map((p, i) => ({ variant_id: p.variants[i % 3]!.id, quantity: i + 1 })),
    shipping_address: { address1: '1 rue de Rivoli', city: 'Paris', country_code: 'FR' },
  });
  const create = [{ method: 'POST' as const, path: '/v1/orders', body: orderBody, headers: { 'content-type': 'application/json' } }];
  let order: [LoadFigures, LoadFigures] | null = null;
  if (ONLY !== 'list') {
    await loadOnce(api, headers, create, 3);
    await loadOnce(baseUrl, headers, create, 3);
    order = await compare(create, headers);
  }

  const where = `${CONNECTIONS} connections, ${DURATION_S} s each in ${ROUNDS} alternating slices, database ${database.embedded ? 'embedded FerretDB' : 'MONGODB_URL'}`;
  console.log(`seeded ${PRODUCTS} products x 3 variants in ${seedSeconds.toFixed(1)} s; ${paths.length} pages of ${LIMIT}\n`);
  if (list) printComparison(`GET /v1/products?limit=${LIMIT} walking all pages, ${where}`, ...list, labels);
  if (order) printComparison(`POST /v1/orders (3 lines, taxed), ${where}`, ...order, labels);
} finally {
  web.kill('SIGTERM');
  base.kill('SIGTERM');
  await database.stop();
}
