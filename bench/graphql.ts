import autocannon from 'autocannon';
import { execute, parse } from 'graphql';
import { MongoClient } from 'mongodb';
import { loadConfig } from '../src/config.js';
import { openPlatform } from '../src/boot.js';
import { adminSchema } from '../src/graphql/index.js';
import { adminLoaders } from '../src/graphql/admin/context.js';
import { requestedCost } from '../src/graphql/cost.js';
import { benchDatabase, cpuMicros, freePort, jsonClient, printComparison, startServer, UNTHROTTLED, type LoadFigures } from './support.js';

/**
 * `npm run bench:graphql` (issue 24's proof; docs/graphql.md, Performance), on the real web
 * process and the embedded database:
 * - a page of 50 products with their variants through GraphQL against the same page through
 *   REST (`GET /v1/products?limit=50`), under autocannon in alternating slices: the ratio;
 * - what computing the query's cost takes, against the request's own time;
 * - the database round trips of a 50-order query with line items and customers (a command
 *   monitor on the resolvers' database client).
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 200);

const QUERY = '{ products(first: 50) { nodes { id title handle vendor tags status variants(first: 5) { nodes { id sku price { amount currencyCode } } } } } }';

const database = await benchDatabase();
const port = await freePort();
const dbName = `bench_graphql_${Date.now()}`;
const env = {
  APP_ENV: 'development',
  MONGODB_URL: database.url,
  MONGODB_DB: dbName,
  PORT: String(port),
  ...UNTHROTTLED,
  GRAPHQL_BUCKET_CAPACITY: '100000000',
  GRAPHQL_RESTORE_RATE: '1000000',
};
const web = await startServer('dist/src/web.js', { ...env, LOG_LEVEL: 'info' }, 'web.listening');
const api = `http://127.0.0.1:${port}`;
const call = jsonClient(api);

/** One autocannon slice, with the CPU the web process and the database spent on it (ms, in all). */
async function slice(request: autocannon.Options, seconds: number): Promise<LoadFigures & { serverMs: number; dbMs: number | null }> {
  const before = [cpuMicros(web.pid), cpuMicros(database.pid)];
  const r = await autocannon({ ...request, connections: CONNECTIONS, duration: seconds });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${request.url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  const [server, db] = [cpuMicros(web.pid), cpuMicros(database.pid)].map((after, i) =>
    after === null || before[i] === null ? null : (after - before[i]!) / 1000,
  );
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, total: r.requests.total, serverMs: server ?? 0, dbMs: db ?? null };
}

const combine = (runs: Awaited<ReturnType<typeof slice>>[]): LoadFigures => {
  const total = runs.reduce((a, r) => a + r.total, 0);
  return {
    rps: runs.reduce((a, r) => a + r.rps, 0) / runs.length,
    p50: [...runs.map((r) => r.p50)].sort((a, b) => a - b)[Math.floor(runs.length / 2)]!,
    p99: [...runs.map((r) => r.p99)].sort((a, b) => a - b)[Math.floor(runs.length / 2)]!,
    total,
    cpu: {
      server: runs.reduce((a, r) => a + r.serverMs, 0) / total,
      db: runs.every((r) => r.dbMs !== null) ? runs.reduce((a, r) => a + r.dbMs!, 0) / total : null,
    },
  };
};

try {
  const email = `bench-${Date.now()}@example.com`;
  await call('POST', '/v1/auth/signup', { email, password: 'benchmark password', name: 'Bench' });
  const token = (await call('POST', '/v1/auth/signin', { email, password: 'benchmark password' })).data.session.token as string;
  const store = (await call('POST', '/v1/stores', { name: 'Bench', subdomain: `bench-${Date.now()}` }, { authorization: `Bearer ${token}` })).data as {
    id: string;
  };
  const admin = { authorization: `Bearer ${token}`, 'x-store-id': store.id };
  const variants: string[] = [];
  for (let i = 0; i < PRODUCTS; i++) {
    const p = await call(
      'POST',
      '/v1/products',
      {
        title: `Product ${i}`,
        vendor: 'Bench',
        tags: ['bench'],
        status: 'active',
        options: [{ name: 'Size', values: ['S', 'M', 'L'] }],
        variants: ['S', 'M', 'L'].map((size, j) => ({ sku: `P${i}-${size}`, price: 1000 + j * 100, option_values: [size], inventory_tracked: false })),
      },
      admin,
    );
    variants.push(p.data.variants[0].id as string);
  }
  const customer = (await call('POST', '/v1/customers', { email: 'bench-customer@example.com' }, admin)).data.id as string;
  for (let i = 0; i < 50; i++)
    await call(
      'POST',
      '/v1/orders',
      {
        customer_id: customer,
        line_items: [
          { variant_id: variants[i % variants.length], quantity: 1 },
          { variant_id: variants[(i + 1) % variants.length], quantity: 2 },
        ],
      },
      admin,
    );

  // Both answer the same 50 products.
  const viaRest = (await call('GET', '/v1/products?limit=50', undefined, admin)).data as { id: string }[];
  const answer = await call('POST', '/v1/admin/graphql', { query: QUERY }, admin);
  if (!answer.data) throw new Error(`GraphQL: ${JSON.stringify(answer).slice(0, 500)}`);
  const viaGraphql = answer.data.products.nodes as { id: string }[];
  if (viaGraphql.map((p) => p.id.split('/').pop()).join() !== viaRest.map((p) => p.id).join()) throw new Error('GraphQL and REST answer different pages');

  const rest: autocannon.Options = { url: `${api}/v1/products?limit=50`, headers: admin };
  const graphql: autocannon.Options = {
    url: `${api}/v1/admin/graphql`,
    method: 'POST',
    headers: { ...admin, 'content-type': 'application/json' },
    body: JSON.stringify({ query: QUERY }),
  };
  await slice(rest, 2);
  await slice(graphql, 2);
  const seconds = Math.max(1, Math.round(SECONDS / ROUNDS));
  const runs = { graphql: [] as Awaited<ReturnType<typeof slice>>[], rest: [] as Awaited<ReturnType<typeof slice>>[] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of round % 2 === 0 ? (['graphql', 'rest'] as const) : (['rest', 'graphql'] as const))
      runs[side].push(await slice(side === 'graphql' ? graphql : rest, seconds));
  }
  const [g, r] = [combine(runs.graphql), combine(runs.rest)];
  console.log(`50 products with 3 variants each, ${CONNECTIONS} connections, ${ROUNDS} × ${seconds} s per side, ${PRODUCTS} products in the store\n`);
  printComparison('a page of products', g, r, ['GraphQL products(first: 50)', 'REST GET /v1/products']);

  // The cost of computing the cost.
  const document = parse(QUERY);
  const N = 5000;
  const t0 = performance.now();
  for (let i = 0; i < N; i++) requestedCost(adminSchema, document, undefined, {});
  const costMs = (performance.now() - t0) / N;
  console.log(
    `cost calculation: ${(costMs * 1000).toFixed(1)} µs a query (requested ${requestedCost(adminSchema, document, undefined, {}).cost}); ${((costMs / g.p50) * 100).toFixed(2)} % of the GraphQL request's p50 (${g.p50} ms)`,
  );

  // Round trips of 50 orders with line items and customers, counted on the resolvers' own client.
  const config = loadConfig({ ...process.env, ...env, LOG_LEVEL: 'silent' });
  const opened = await openPlatform(config, 'web');
  const monitored = new MongoClient(database.url, { monitorCommands: true });
  await monitored.connect();
  try {
    const commands: string[] = [];
    monitored.on('commandStarted', (e) => commands.push(e.commandName));
    const platform = { ...opened.platform, db: monitored.db(dbName) };
    const scoped = (await call('GET', `/v1/stores/${store.id}`, undefined, admin)).data;
    const result = await execute({
      schema: adminSchema,
      document: parse('{ orders(first: 50) { nodes { name customer { email } lineItems(first: 10) { nodes { title quantity total { amount } } } } } }'),
      contextValue: {
        platform,
        store: scoped,
        principal: { kind: 'merchant', merchantId: 'bench', sessionId: 'bench' },
        loaders: adminLoaders(platform, store.id),
      },
    });
    const orders = (result.data as { orders: { nodes: unknown[] } }).orders.nodes.length;
    console.log(`50-order query with line items and customers: ${orders} orders in ${commands.length} database round trips (${commands.join(', ')})`);
  } finally {
    await monitored.close();
    await opened.close();
  }
} finally {
  web.kill('SIGTERM');
  await new Promise((resolve) => web.once('exit', resolve));
  await database.stop();
}
