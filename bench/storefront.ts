import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { benchDatabase, cpuMicros, freePort, printComparison, startServer, type LoadFigures } from './support.js';

/**
 * `npm run bench:storefront` (issue 13's proof): a store of BENCH_PRODUCTS (default 2,000)
 * active products of one tracked variant each, created through the admin API
 * (`POST /v1/products`, then `POST /v1/inventory/levels/set`: 1,000,000 units each at one
 * location, so no checkout ever runs out), then, on the real web process and beside a bare
 * Koa + driver baseline on the same embedded database (bench/storefront-baseline-server.ts),
 * in the same run:
 * - the public listing `GET /v1/storefront/:subdomain/products?limit=50` under autocannon
 *   (BENCH_CONNECTIONS, default 2); the baseline reads the store by subdomain, the page of
 *   active products by store_id/status sorted by _id, the active locations and the page's
 *   stock levels, and presents them with the storefront's presenter;
 * - cart → checkout: BENCH_WORKERS (default 4) async workers, each looping
 *   `POST …/cart` with 2 lines (two random variants, quantity 1) then `POST …/orders` with
 *   `X-Cart-Token`, a fresh `Idempotency-Key` and `{ "email" }`. Throughput is completed
 *   checkouts per second, latency that of the two requests together. The baseline answers the
 *   same two requests with the essential writes: a cart document in `storefront_carts`, then
 *   reading it back, the variants and stock, one conditional `$inc` per line on the
 *   platform's own `inventory_levels` documents (both sides draw on the same stock), an
 *   `orders` insert and the cart marked consumed; no idempotency record, no events, no
 *   leases or order numbers (what the ratio shows is the platform's price for those).
 * Each side runs BENCH_SECONDS (default 20) per part, in BENCH_ROUNDS (default 4) alternating
 * slices, platform first then baseline first, so drift falls on both alike; the CPU the server
 * and the database spent per request (per checkout) is printed too. BENCH_ONLY=list|checkout
 * runs one part; BENCH_VERBOSE=1 prints each slice.
 */
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 2_000);
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 2);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 4);
const ONLY = process.env.BENCH_ONLY;
const VERBOSE = Boolean(process.env.BENCH_VERBOSE);
const LIMIT = 50;
const STOCK = 1_000_000;

const database = await benchDatabase();
const env = { APP_ENV: 'development', MONGODB_URL: database.url, MONGODB_DB: 'bench_storefront' };
const [webPort, basePort] = [await freePort(), await freePort()];
const web = await startServer('dist/src/web.js', { ...env, PORT: String(webPort), LOG_LEVEL: 'info' }, 'web.listening');
const base = await startServer('dist/bench/storefront-baseline-server.js', { ...env, PORT: String(basePort) }, 'ready');
const api = `http://127.0.0.1:${webPort}`;
const baseUrl = `http://127.0.0.1:${basePort}`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function call(origin: string, path: string, init: RequestInit = {}): Promise<any> {
  const res = await fetch(origin + path, { ...init, headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) } });
  if (!res.ok) throw new Error(`${origin}${path}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}

type Run = { requests: number; seconds: number; p50: number[]; p99: number[]; serverCpuUs: number; dbCpuUs: number | null };

async function measured(url: string, work: () => Promise<{ requests: number; seconds: number; p50: number; p99: number }>): Promise<Run> {
  const serverPid = url === api ? web.pid : base.pid;
  const before = [cpuMicros(serverPid), cpuMicros(database.pid)];
  const r = await work();
  const [server, db] = [cpuMicros(serverPid), cpuMicros(database.pid)].map((after, i) => (after === null || before[i] === null ? null : after - before[i]!));
  return { requests: r.requests, seconds: r.seconds, p50: [r.p50], p99: [r.p99], serverCpuUs: server ?? 0, dbCpuUs: db ?? null };
}

/** One autocannon slice of the listing. */
const listSlice = (url: string, path: string, seconds: number) =>
  measured(url, async () => {
    const result = await autocannon({ url: url + path, connections: CONNECTIONS, duration: seconds, timeout: 120 });
    if (result.non2xx > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers`);
    return { requests: result.requests.total, seconds: result.duration, p50: result.latency.p50, p99: result.latency.p99 };
  });

/** Per server, the latency of each request of the cart → checkout loop apart (ms), over every slice. */
const split = new Map<string, { cart: number[]; checkout: number[] }>();

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

/** One slice of cart → checkout: WORKERS loops for `seconds`; a checkout counts when its 201 arrived in time. */
const checkoutSlice = (url: string, subdomain: string, variantIds: string[], seconds: number) =>
  measured(url, async () => {
    const latencies: number[] = [];
    const parts = split.get(url) ?? { cart: [], checkout: [] };
    split.set(url, parts);
    const started = performance.now();
    const until = started + seconds * 1000;
    await Promise.all(
      Array.from({ length: WORKERS }, async () => {
        while (performance.now() < until) {
          const t0 = performance.now();
          const a = Math.floor(Math.random() * variantIds.length);
          const b = (a + 1 + Math.floor(Math.random() * (variantIds.length - 1))) % variantIds.length;
          const lines = [variantIds[a]!, variantIds[b]!].map((variant_id) => ({ variant_id, quantity: 1 }));
          const cart = (await call(url, `/v1/storefront/${subdomain}/cart`, { method: 'POST', body: JSON.stringify({ lines }) })).data as { token: string };
          const tCart = performance.now();
          const order = (
            await call(url, `/v1/storefront/${subdomain}/orders`, {
              method: 'POST',
              headers: { 'x-cart-token': cart.token, 'idempotency-key': randomUUID() },
              body: JSON.stringify({ email: 'shopper@example.com' }),
            })
          ).data as { line_items: unknown[] };
          if (order.line_items.length !== 2) throw new Error('an order without its two lines');
          const t1 = performance.now();
          if (t1 <= until) {
            latencies.push(t1 - t0);
            parts.cart.push(tCart - t0);
            parts.checkout.push(t1 - tCart);
          }
        }
      }),
    );
    latencies.sort((x, y) => x - y);
    const elapsed = (Math.max(performance.now(), until) - started) / 1000;
    return {
      requests: latencies.length,
      seconds: Math.min(elapsed, seconds),
      p50: Math.round(percentile(latencies, 50)),
      p99: Math.round(percentile(latencies, 99)),
    };
  });

/** ROUNDS alternating slices of DURATION_S per side (platform first, then baseline first, ...). */
async function compare(slice: (url: string, seconds: number) => Promise<Run>): Promise<[LoadFigures, LoadFigures]> {
  const seconds = Math.max(1, Math.round(DURATION_S / ROUNDS));
  const runs = { [api]: [] as Run[], [baseUrl]: [] as Run[] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const url of round % 2 === 0 ? [api, baseUrl] : [baseUrl, api]) {
      const run = await slice(url, seconds);
      runs[url]!.push(run);
      if (VERBOSE)
        console.log(`  slice ${round + 1} ${url === api ? 'platform' : 'baseline'}: ${(run.requests / run.seconds).toFixed(0)}/s, p50 ${run.p50[0]} ms`);
    }
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
  await call(api, '/v1/auth/signup', { method: 'POST', body: JSON.stringify({ ...account, name: 'Bench' }) });
  const token: string = (await call(api, '/v1/auth/signin', { method: 'POST', body: JSON.stringify(account) })).data.session.token;
  const subdomain = `bench-${Date.now()}`;
  const store = (
    await call(api, '/v1/stores', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: JSON.stringify({ name: 'Bench', subdomain }) })
  ).data as { id: string };
  const admin = { authorization: `Bearer ${token}`, 'x-store-id': store.id };
  const location = (await call(api, '/v1/inventory/locations', { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Bench warehouse' }) })).data as {
    id: string;
  };

  // Seed through the admin API, 8 at a time: the product, then its variant's stock.
  const seedStarted = Date.now();
  const variantIds: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let i = next++; i < PRODUCTS; i = next++) {
        const product = (
          await call(api, '/v1/products', {
            method: 'POST',
            headers: { ...admin, 'idempotency-key': randomUUID() },
            body: JSON.stringify({
              title: `Product ${String(i).padStart(5, '0')}`,
              description_html: '<p>A product for the benchmark.</p>',
              vendor: `Vendor ${i % 20}`,
              product_type: 'Bench',
              tags: ['bench', `group-${i % 10}`],
              status: 'active',
              variants: [{ sku: `P${i}`, price: 1000 + (i % 50) * 10, inventory_tracked: true, inventory_policy: 'deny' }],
            }),
          })
        ).data as { variants: { id: string }[] };
        const variant = product.variants[0]!.id;
        await call(api, '/v1/inventory/levels/set', {
          method: 'POST',
          headers: { ...admin, 'idempotency-key': randomUUID() },
          body: JSON.stringify({ variant_id: variant, location_id: location.id, available: STOCK }),
        });
        variantIds.push(variant);
      }
    }),
  );
  const seedSeconds = (Date.now() - seedStarted) / 1000;

  // Both answer the same first page.
  const listPath = `/v1/storefront/${subdomain}/products?limit=${LIMIT}`;
  const [mine, theirs] = [await call(api, listPath), await call(baseUrl, listPath)];
  if (JSON.stringify(mine.data) !== JSON.stringify(theirs.data) || mine.page.next_cursor !== theirs.page.next_cursor)
    throw new Error('the baseline page differs from the platform page');
  if (mine.data.length !== Math.min(LIMIT, PRODUCTS) || !mine.data.every((p: { available: boolean }) => p.available)) throw new Error('unexpected first page');

  let list: [LoadFigures, LoadFigures] | null = null;
  if (ONLY !== 'checkout') {
    await listSlice(api, listPath, 2); // warm up both
    await listSlice(baseUrl, listPath, 2);
    list = await compare((url, seconds) => listSlice(url, listPath, seconds));
  }
  let checkouts: [LoadFigures, LoadFigures] | null = null;
  if (ONLY !== 'list') {
    await checkoutSlice(api, subdomain, variantIds, 2);
    await checkoutSlice(baseUrl, subdomain, variantIds, 2);
    split.clear(); // the warm-up's latencies are not reported
    checkouts = await compare((url, seconds) => checkoutSlice(url, subdomain, variantIds, seconds));
  }

  const where = `${DURATION_S} s each in ${ROUNDS} alternating slices, database ${database.embedded ? 'embedded FerretDB' : 'MONGODB_URL'}`;
  console.log(`seeded ${PRODUCTS} products x 1 variant (${STOCK} units each) through the admin API in ${seedSeconds.toFixed(1)} s\n`);
  if (list) printComparison(`GET /v1/storefront/:subdomain/products?limit=${LIMIT}, ${CONNECTIONS} connections, ${where}`, ...list);
  if (checkouts) {
    printComparison(`cart (2 lines) + checkout, ${WORKERS} workers, ${where}; req/s = checkouts/s, latency = both requests`, ...checkouts, [
      'platform (checkouts)',
      'baseline (bare Koa)',
    ]);
    const p50 = (url: string, part: 'cart' | 'checkout') =>
      percentile(
        [...split.get(url)![part]].sort((x, y) => x - y),
        50,
      ).toFixed(1);
    console.log(
      `p50 of each request: POST …/cart ${p50(api, 'cart')} ms, POST …/orders ${p50(api, 'checkout')} ms (baseline ${p50(baseUrl, 'cart')} ms, ${p50(baseUrl, 'checkout')} ms)`,
    );
  }
} finally {
  web.kill('SIGTERM');
  base.kill('SIGTERM');
  await database.stop();
}
