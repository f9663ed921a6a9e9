import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { MongoClient } from 'mongodb';
import { benchDatabase, cpuMicros, freePort, jsonClient, percentile, printComparison, startServer, type Json, type LoadFigures } from './support.js';

/**
 * `npm run bench:functions`, second part (issue 23's proof; docs/extensions.md, At checkout):
 * storefront checkout with three Checkout Functions enabled against checkout with none, on the
 * real web process and the embedded database, in the same run. Two stores alike (the same
 * shipping rates, payment providers and BENCH_PRODUCTS products); in one, an app's shipping,
 * payment method and validation functions are installed and enabled (realistic programs: hide
 * an option abroad, rename one over an amount, move pickup first; hide a payment method over an
 * amount; one error per line over a quantity). BENCH_WORKERS async workers loop cart (2 lines)
 * → checkout (with a shipping address and option), BENCH_SECONDS per side in BENCH_ROUNDS
 * alternating slices. Printed: checkouts per second and latency of each store, the ratio, the
 * CPU per checkout, and the functions' own run durations (p50, p99, max) from the run log.
 *
 * Then a hostile function (issue 36): a third store's app has the validation function that once
 * held the web process for seconds (HOSTILE below). For each depth of BENCH_HOSTILE_DEPTHS, the
 * merchant sets it, and printed are the time of one `GET …/cart/checkout-options` of that store,
 * and `/health`'s latency (one probe at a time) alone, the baseline, and while one client loads
 * that store's checkout options without pause, BENCH_HOSTILE_SECONDS each (the loaded side lasts
 * at least until one hostile request has been answered).
 */
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 200);
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 4);
const OPERATOR = `bench-operator-${Date.now()}@example.com`;
const HOSTILE_DEPTHS = (process.env.BENCH_HOSTILE_DEPTHS ?? '22,26').split(',').map(Number);
const HOSTILE_SECONDS = Number(process.env.BENCH_HOSTILE_SECONDS ?? 5);

const FUNCTIONS = [
  {
    kind: 'checkout_function',
    handle: 'ship-rules',
    name: 'Shipping rules',
    target: 'shipping',
    config: {
      program: {
        eachKey: {
          operations: {
            merge: [
              {
                if: [
                  { '!=': [{ var: 'cart.shipping_address.country' }, { var: 'settings.home_country' }] },
                  { preserve: [{ hide: 'express' }] },
                  { preserve: [] },
                ],
              },
              {
                if: [
                  { '>=': [{ var: 'cart.subtotal' }, { var: 'settings.tracked_over' }] },
                  { preserve: [{ rename: { code: 'standard', name: 'Standard (tracked)' } }] },
                  { preserve: [] },
                ],
              },
              { preserve: [{ move: { code: 'pickup', index: 0 } }] },
            ],
          },
        },
      },
      settings: { home_country: 'CA', tracked_over: 2000 },
    },
  },
  {
    kind: 'checkout_function',
    handle: 'pay-rules',
    name: 'Payment rules',
    target: 'payment_method',
    config: {
      program: {
        eachKey: {
          operations: { if: [{ '>': [{ var: 'cart.subtotal' }, { var: 'settings.manual_up_to' }] }, { preserve: [{ hide: 'manual' }] }, { preserve: [] }] },
        },
      },
      settings: { manual_up_to: 100_000 },
    },
  },
  {
    kind: 'checkout_function',
    handle: 'max-qty',
    name: 'Quantity limit',
    target: 'validation',
    config: {
      program: {
        eachKey: {
          errors: {
            map: [
              { filter: [{ var: 'cart.lines' }, { '>': [{ var: 'quantity' }, { var: '../../settings.max_quantity' }] }] },
              { eachKey: { message: { cat: ['At most ', { var: '../../settings.max_quantity' }, ' of ', { var: 'sku' }] }, field: 'lines' } },
            ],
          },
        },
      },
      settings: { max_quantity: 5 },
    },
  },
];

/** The audit's deep list and one `cat` (fixtures/functions/deep-list.json), its depth a setting. */
const HOSTILE = JSON.parse(readFileSync(new URL('../../fixtures/functions/deep-list.json', import.meta.url), 'utf8'));

const database = await benchDatabase();
const port = await freePort();
const web = await startServer(
  'dist/src/web.js',
  {
    APP_ENV: 'development',
    MONGODB_URL: database.url,
    MONGODB_DB: 'bench_checkout_functions',
    PORT: String(port),
    OPERATOR_EMAILS: OPERATOR,
    LOG_LEVEL: 'info',
  },
  'web.listening',
);
const origin = `http://127.0.0.1:${port}`;
const call = jsonClient(origin);

async function session(email: string): Promise<string> {
  const account = { email, password: 'benchmark password' };
  await call('POST', '/v1/auth/signup', { ...account, name: 'Bench' });
  return (await call('POST', '/v1/auth/signin', account)).data.session.token as string;
}

type Shop = { token: string; id: string; subdomain: string; variants: string[] };

/** A store that ships to CA and US and takes the sandbox and manual payment, with `products` products. */
async function givenStore(token: string, name: string, products = PRODUCTS): Promise<Shop> {
  const subdomain = `${name}-${Date.now()}`;
  const store = (await call('POST', '/v1/stores', { name, subdomain }, { authorization: `Bearer ${token}` })).data as { id: string };
  const admin = { authorization: `Bearer ${token}`, 'x-store-id': store.id };
  await call(
    'PUT',
    '/v1/shipping',
    {
      rates: [
        { code: 'standard', name: 'Standard', price: 900, country_code: 'CA' },
        { code: 'express', name: 'Express', price: 2500, country_code: 'CA' },
        { code: 'pickup', name: 'Pickup', price: 0, country_code: 'CA' },
        { code: 'standard', name: 'International', price: 3000, country_code: '*' },
      ],
    },
    admin,
  );
  await call('PUT', '/v1/payments/providers/sandbox', { enabled: true, credentials: { key_secret: 'sandbox_secret_0123456789abcdef' } }, admin);
  await call('PUT', '/v1/payments/providers/manual', { enabled: true }, admin);
  const variants: string[] = [];
  for (let i = 0; i < products; i++) {
    const product = await call(
      'POST',
      '/v1/products',
      {
        title: `Product ${i}`,
        status: 'active',
        tags: i % 4 === 0 ? ['fragile'] : [],
        variants: [{ sku: `P${i}`, price: 1000 + (i % 50) * 10, inventory_tracked: false }],
      },
      admin,
    );
    variants.push(product.data.variants[0].id as string);
  }
  return { token, id: store.id, subdomain, variants };
}

/** An app with these functions, published, installed in `shop` and each function enabled: the installation id. */
async function installFunctions(shop: Shop, extensions: Json[]): Promise<string> {
  const operator = await session(OPERATOR);
  const partner = await session(`bench-partner-${Date.now()}@example.com`);
  const asPartner = { authorization: `Bearer ${partner}` };
  await call(
    'POST',
    '/v1/app-store/developers/register',
    {
      name: 'Bench Apps',
      contact_email: 'apps@example.com',
      website_url: 'https://bench.example.com',
      support_url: 'https://bench.example.com/support',
      privacy_policy_url: 'https://bench.example.com/privacy',
    },
    asPartner,
  );
  const handle = `bench-functions-${randomBytes(3).toString('hex')}`;
  const submitted = await call(
    'POST',
    '/v1/app-store/developers/apps',
    {
      manifest: {
        schema_version: '2026-06-05.ws13',
        name: 'Bench functions',
        handle,
        version: '1.0.0',
        app_url: `https://${handle}.example.com/app`,
        redirect_urls: [`https://${handle}.example.com/oauth/callback`],
        scopes: ['read_orders'],
        privacy_policy_url: 'https://bench.example.com/privacy',
        extensions,
      },
    },
    asPartner,
  );
  await call('POST', `/v1/operations/app-reviews/${submitted.data.app.latest_version.id}/approve`, undefined, { authorization: `Bearer ${operator}` });
  const verifier = randomBytes(32).toString('base64url');
  const authorized = await call(
    'POST',
    `/v1/app-store/apps/${submitted.data.app.id}/oauth/authorize`,
    {
      store_id: shop.id,
      redirect_uri: `https://${handle}.example.com/oauth/callback`,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      scopes: ['read_orders'],
      state: 'bench',
      webhook_url: 'https://bench.example.com/webhooks',
    },
    { authorization: `Bearer ${shop.token}` },
  );
  const installationId = authorized.data.installation.id as string;
  const admin = { authorization: `Bearer ${shop.token}`, 'x-store-id': shop.id };
  const rows = (await call('GET', `/v1/app-store/installations/${installationId}/extensions`, undefined, admin)).data.functions as Json[];
  for (const row of rows)
    await call('PATCH', `/v1/app-store/installations/${installationId}/functions/${row.id}`, { state: 'enabled', version: row.version }, admin);
  return installationId;
}

type Slice = { checkouts: number; seconds: number; latencies: number[]; serverCpuUs: number; dbCpuUs: number | null };

/** WORKERS loops of cart → checkout in `shop` for `seconds`. */
async function slice(shop: Shop, seconds: number): Promise<Slice> {
  const before = [cpuMicros(web.pid), cpuMicros(database.pid)];
  const latencies: number[] = [];
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      while (performance.now() < until) {
        const t0 = performance.now();
        const a = Math.floor(Math.random() * shop.variants.length);
        const lines = [a, (a + 1) % shop.variants.length].map((i) => ({ variant_id: shop.variants[i]!, quantity: 1 }));
        const cart = await call('POST', `/v1/storefront/${shop.subdomain}/cart`, { lines });
        const order = await call(
          'POST',
          `/v1/storefront/${shop.subdomain}/orders`,
          {
            email: 'shopper@example.com',
            shipping_address: { address1: '1 Main St', city: 'Montréal', country_code: 'CA', province_code: 'QC' },
            shipping_option: 'standard',
          },
          { 'x-cart-token': cart.data.token, 'idempotency-key': randomUUID() },
        );
        if (order.data.shipping_total !== 900) throw new Error(`shipping charged ${order.data.shipping_total}`);
        const t1 = performance.now();
        if (t1 <= until) latencies.push(t1 - t0);
      }
    }),
  );
  const [server, db] = [cpuMicros(web.pid), cpuMicros(database.pid)].map((after, i) => (after === null || before[i] === null ? null : after - before[i]!));
  return { checkouts: latencies.length, seconds, latencies, serverCpuUs: server ?? 0, dbCpuUs: db ?? null };
}

function figures(slices: Slice[]): LoadFigures {
  const total = slices.reduce((n, s) => n + s.checkouts, 0);
  const all = slices.flatMap((s) => s.latencies);
  const db = slices.every((s) => s.dbCpuUs !== null) ? slices.reduce((n, s) => n + s.dbCpuUs!, 0) / 1000 / total : null;
  return {
    rps: total / slices.reduce((n, s) => n + s.seconds, 0),
    p50: Math.round(percentile(all, 0.5)),
    p99: Math.round(percentile(all, 0.99)),
    total,
    cpu: { server: slices.reduce((n, s) => n + s.serverCpuUs, 0) / 1000 / total, db },
  };
}

/**
 * A GET on a connection of its own: a kept-alive one may be closed by the server while its event
 * loop is held, and the next request on it would fail instead of waiting.
 */
function getFresh(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get(`${origin}${path}`, { agent: false, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

/** `/health`, one probe at a time, while `running()`: each probe's latency. */
async function probeHealth(running: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  while (running()) {
    const t0 = performance.now();
    const res = await getFresh('/health');
    if (res.status !== 200) throw new Error(`/health: ${res.status} ${res.body}`);
    latencies.push(performance.now() - t0);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return latencies;
}

/** The hostile function's figures at each of HOSTILE_DEPTHS (the header comment). */
async function hostileFunction(merchant: string): Promise<void> {
  const shop = await givenStore(merchant, 'hostile', 1);
  const installationId = await installFunctions(shop, [HOSTILE]);
  const admin = { authorization: `Bearer ${merchant}`, 'x-store-id': shop.id };
  const cart = await call('POST', `/v1/storefront/${shop.subdomain}/cart`, { lines: [{ variant_id: shop.variants[0]!, quantity: 1 }] });
  const options = async () => {
    const res = await getFresh(`/v1/storefront/${shop.subdomain}/cart/checkout-options`, { 'x-cart-token': cart.data.token });
    if (res.status !== 200 && res.status !== 503) throw new Error(`checkout-options: ${res.status} ${res.body}`);
    return res.status;
  };
  const ms = (xs: number[], p: number) => percentile(xs, p).toFixed(1).padStart(8);
  console.log(`\nA hostile validation function (the audit's deep list and one cat), ${HOSTILE_SECONDS} s per side`);
  console.log(
    'depth   one checkout-options   /health alone: p50  p99  (probes)   beside hostile requests: p50  p99  max  (probes)   hostile requests answered',
  );
  for (const depth of HOSTILE_DEPTHS) {
    const [row] = (await call('GET', `/v1/app-store/installations/${installationId}/extensions`, undefined, admin)).data.functions as Json[];
    await call('PATCH', `/v1/app-store/installations/${installationId}/functions/${row.id}`, { settings: { depth }, version: row.version }, admin);
    const t0 = performance.now();
    await options();
    const one = performance.now() - t0;
    const aloneUntil = performance.now() + HOSTILE_SECONDS * 1000;
    const alone = await probeHealth(() => performance.now() < aloneUntil);
    const loadedUntil = performance.now() + HOSTILE_SECONDS * 1000;
    let answered = 0;
    const load = (async () => {
      while (performance.now() < loadedUntil || answered === 0) {
        await options();
        answered++;
      }
    })();
    const loaded = await probeHealth(() => performance.now() < loadedUntil || answered === 0);
    await load;
    console.log(
      `${String(depth).padEnd(7)} ${(one.toFixed(1) + ' ms').padStart(20)}   ${ms(alone, 0.5)} ${ms(alone, 0.99)}  (${alone.length})   ${''.padStart(20)}${ms(loaded, 0.5)} ${ms(loaded, 0.99)} ${Math.max(
        ...loaded,
      )
        .toFixed(0)
        .padStart(6)}  (${loaded.length})   ${answered}`,
    );
    console.log(`        ratio of /health p99 (beside hostile / alone): ${(percentile(loaded, 0.99) / percentile(alone, 0.99)).toFixed(1)}`);
  }
  const client = await MongoClient.connect(database.url);
  const runs = await client
    .db('bench_checkout_functions')
    .collection('app_function_runs')
    .find({ handle: 'deep-list' }, { projection: { error_code: 1 } })
    .toArray();
  await client.close();
  const codes = new Map<string, number>();
  for (const r of runs) codes.set(String(r.error_code), (codes.get(String(r.error_code)) ?? 0) + 1);
  console.log(`the hostile runs in the run log: ${runs.length}, by error code: ${JSON.stringify(Object.fromEntries(codes))}`);
}

try {
  const merchant = await session(`bench-merchant-${Date.now()}@example.com`);
  const [withFunctions, without] = [await givenStore(merchant, 'with-functions'), await givenStore(merchant, 'without')];
  const installationId = await installFunctions(withFunctions, FUNCTIONS);
  // Warm both up (JIT, caches), then measure.
  await slice(withFunctions, 2);
  await slice(without, 2);
  const seconds = Math.max(1, Math.round(DURATION_S / ROUNDS));
  const runs = new Map<Shop, Slice[]>([
    [withFunctions, []],
    [without, []],
  ]);
  for (let round = 0; round < ROUNDS; round++)
    for (const shop of round % 2 === 0 ? [withFunctions, without] : [without, withFunctions]) runs.get(shop)!.push(await slice(shop, seconds));

  console.log(
    `Storefront checkout (cart of 2 lines → order with shipping), ${WORKERS} workers, ${ROUNDS} × ${seconds} s per side, ${PRODUCTS} products per store\n`,
  );
  printComparison('checkouts per second', figures(runs.get(withFunctions)!), figures(runs.get(without)!), ['3 Checkout Functions', 'no functions']);

  // The functions' own durations, from the run log (every run is kept: no maintenance worker here).
  const client = await MongoClient.connect(database.url);
  const docs = await client
    .db('bench_checkout_functions')
    .collection('app_function_runs')
    .find({}, { projection: { duration_ms: 1, outcome: 1, handle: 1 } })
    .toArray();
  await client.close();
  const durations = docs.map((d) => d.duration_ms as number);
  const failed = docs.filter((d) => d.outcome !== 'ok').length;
  console.log(
    `function runs: ${docs.length} (installation ${installationId}), failed securely ${failed}; duration p50 ${percentile(durations, 0.5).toFixed(3)} ms, p99 ${percentile(durations, 0.99).toFixed(3)} ms, max ${Math.max(...durations).toFixed(3)} ms`,
  );

  await hostileFunction(merchant);
} finally {
  web.kill('SIGTERM');
  await new Promise((resolve) => web.once('exit', resolve));
  await database.stop();
}
