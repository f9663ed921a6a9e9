import { readFileSync } from 'node:fs';
import { fragmentDag, nodesQuery } from '../test/helpers/graphql-hostile.js';
import { benchDatabase, cpuMicros, freePort, jsonClient, percentile, startServer, UNTHROTTLED } from './support.js';

/**
 * `npm run bench:graphql-hostile` (issue 36's proof; docs/graphql.md, Limits): what two hostile
 * documents cost the real web process, each sent one at a time for BENCH_SECONDS while a client
 * asks `GET /health` one request after another:
 * - the fragment DAG of K = 20 (800 bytes) on the anonymous storefront;
 * - `nodes` with 250 collection ids on the admin, over a store of BENCH_PRODUCTS products of 3
 *   variants in 250 collections of all of them: each collection's first 30 products with their
 *   variants (the audit's 180-point query), then each collection's first 250 products (its
 *   253-point one), then 3 collections' first 250 products (759 points: the most `nodes` of
 *   collections may ask once it is costed per id).
 * Per document: its answer, the web process's time (wall and CPU) per request, the growth of
 * its resident memory, and `/health`'s p50 and p99 beside those of `/health` alone (the baseline,
 * measured in the same run). A request unanswered after BENCH_TIMEOUT_SECONDS is given up (and
 * so is a /health one after 10 s, counted failed). Buckets are lifted out of reach: this
 * measures the work a request can make, not the throttle.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 250);
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_SECONDS ?? 60) * 1000;
const HEALTH_TIMEOUT_MS = 10_000;
const COLLECTIONS = 250;
const K = 20;

const database = await benchDatabase();
const port = await freePort();
const lifted = { capacity: '100000000', rate: '1000000' };
const env = {
  APP_ENV: 'development',
  MONGODB_URL: database.url,
  MONGODB_DB: `bench_graphql_hostile_${Date.now()}`,
  PORT: String(port),
  ...UNTHROTTLED,
  GRAPHQL_BUCKET_CAPACITY: lifted.capacity,
  GRAPHQL_RESTORE_RATE: lifted.rate,
  STOREFRONT_GRAPHQL_CLIENT_CAPACITY: lifted.capacity,
  STOREFRONT_GRAPHQL_CLIENT_RESTORE_RATE: lifted.rate,
  STOREFRONT_GRAPHQL_STORE_CAPACITY: lifted.capacity,
  STOREFRONT_GRAPHQL_STORE_RESTORE_RATE: lifted.rate,
};
const web = await startServer('dist/src/web.js', { ...env, LOG_LEVEL: 'info' }, 'web.listening');
const api = `http://127.0.0.1:${port}`;
const call = jsonClient(api);

/** The web process's resident memory, MB (VmRSS). */
function residentMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'))!;
  return Number(line.split(/\s+/)[1]) / 1024;
}

/** `GET /health` one request after another until `done()`: each one's latency, ms, and how many failed (not 200, or no answer in 10 s). */
async function healthLatencies(done: () => boolean): Promise<number[] & { failed?: number }> {
  const latencies: number[] & { failed?: number } = [];
  latencies.failed = 0;
  while (!done()) {
    const started = performance.now();
    try {
      const res = await fetch(`${api}/health`, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
      await res.arrayBuffer();
      if (res.status !== 200) latencies.failed++;
    } catch {
      latencies.failed++;
    }
    latencies.push(performance.now() - started);
  }
  return latencies;
}

type Attack = { name: string; url: string; headers: Record<string, string>; body: unknown };
type Figures = { requests: number; answer: string; wallMs: number; cpuMs: number; growthMb: number; health: number[] & { failed?: number } };

/** `attack` one request at a time for SECONDS (at least one), beside the /health client; memory sampled every 20 ms. */
async function measure(attack: Attack): Promise<Figures> {
  const pid = web.pid!;
  const startMb = residentMb(pid);
  let peakMb = startMb;
  const sampler = setInterval(() => (peakMb = Math.max(peakMb, residentMb(pid))), 20);
  const cpuBefore = cpuMicros(pid)!;
  const until = Date.now() + SECONDS * 1000;
  let finished = false;
  const health = healthLatencies(() => finished);
  const walls: number[] = [];
  let answer = '';
  while (walls.length === 0 || Date.now() < until) {
    const started = performance.now();
    let res: Response;
    let text: string;
    try {
      res = await fetch(attack.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...attack.headers },
        body: JSON.stringify(attack.body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      text = await res.text();
    } catch {
      walls.push(performance.now() - started);
      answer = `no answer in ${TIMEOUT_MS / 1000} s`;
      break;
    }
    walls.push(performance.now() - started);
    const body = JSON.parse(text) as { errors?: { extensions?: { code?: string } }[]; extensions?: { cost?: { requestedQueryCost?: number } } };
    answer = `${res.status} ${body.errors?.[0]?.extensions?.code ?? 'data'}, requested ${body.extensions?.cost?.requestedQueryCost ?? '-'}, ${(text.length / 1024).toFixed(0)} KB`;
  }
  finished = true;
  const cpuMs = (cpuMicros(pid)! - cpuBefore) / 1000 / walls.length;
  clearInterval(sampler);
  return { requests: walls.length, answer, wallMs: percentile(walls, 0.5), cpuMs, growthMb: peakMb - startMb, health: await health };
}

try {
  const email = `bench-hostile-${Date.now()}@example.com`;
  await call('POST', '/v1/auth/signup', { email, password: 'benchmark password', name: 'Bench' });
  const token = (await call('POST', '/v1/auth/signin', { email, password: 'benchmark password' })).data.session.token as string;
  const subdomain = `hostile-${Date.now()}`;
  const store = (await call('POST', '/v1/stores', { name: 'Bench', subdomain }, { authorization: `Bearer ${token}` })).data as { id: string };
  const admin = { authorization: `Bearer ${token}`, 'x-store-id': store.id };
  const productIds: string[] = [];
  for (let i = 0; i < PRODUCTS; i++) {
    const p = await call(
      'POST',
      '/v1/products',
      {
        title: `Product ${i}`,
        status: 'active',
        options: [{ name: 'Size', values: ['S', 'M', 'L'] }],
        variants: ['S', 'M', 'L'].map((size, j) => ({ sku: `P${i}-${size}`, price: 1000 + j * 100, option_values: [size], inventory_tracked: false })),
      },
      admin,
    );
    productIds.push(p.data.id as string);
  }
  const collectionIds: string[] = [];
  for (let i = 0; i < COLLECTIONS; i++)
    collectionIds.push((await call('POST', '/v1/products/collections', { type: 'manual', title: `C${i}`, product_ids: productIds }, admin)).data.id as string);

  // `nodes` of collections, `selection` asked of each.
  const ofCollections = (name: string, ids: string[], selection: string): Attack => ({
    name: `nodes: ${name} (admin)`,
    url: `${api}/v1/admin/graphql`,
    headers: admin,
    body: nodesQuery(
      ids.map((id) => `gid://emporium/Collection/${id}`),
      `... on Collection { ${selection} }`,
    ),
  });
  const attacks: Attack[] = [
    {
      name: `fragment DAG, K = ${K} (storefront, anonymous)`,
      url: `${api}/v1/storefront/graphql`,
      headers: { 'x-store-subdomain': subdomain },
      body: { query: fragmentDag(K) },
    },
    ofCollections(
      `${COLLECTIONS} collections × products(first: 30) × variants(first: 3)`,
      collectionIds,
      'products(first: 30) { nodes { id variants(first: 3) { nodes { id } } } }',
    ),
    ofCollections(`${COLLECTIONS} collections × products(first: 250)`, collectionIds, 'products(first: 250) { nodes { id } }'),
    ofCollections('3 collections × products(first: 250)', collectionIds.slice(0, 3), 'products(first: 250) { nodes { id } }'),
  ];

  // The baseline: /health alone, in the same run.
  const idleUntil = Date.now() + SECONDS * 1000;
  const idle = await healthLatencies(() => Date.now() >= idleUntil);
  const row = (name: string, health: number[], rest: string) =>
    console.log(
      `${name.padEnd(58)} /health p50 ${percentile(health, 0.5).toFixed(1).padStart(7)} ms, p99 ${percentile(health, 0.99).toFixed(1).padStart(7)} ms${rest}`,
    );
  console.log(`${PRODUCTS} products of 3 variants in ${COLLECTIONS} collections; ${SECONDS} s a document, one request at a time, beside GET /health\n`);
  row('baseline: /health alone', idle, ` (${idle.length} requests)`);
  for (const attack of attacks) {
    const f = await measure(attack);
    row(
      attack.name,
      f.health,
      `; the document: ${f.requests} requests, ${f.answer}; per request ${f.wallMs.toFixed(0)} ms wall, ${f.cpuMs.toFixed(0)} ms CPU; memory +${f.growthMb.toFixed(0)} MB; /health p99 ${(percentile(f.health, 0.99) / percentile(idle, 0.99)).toFixed(1)} × baseline, ${f.health.failed} /health failed`,
    );
  }
} finally {
  // A web process stuck on its database does not stop on SIGTERM.
  web.kill('SIGKILL');
  await new Promise((resolve) => web.once('exit', resolve));
  await database.stop();
}
