import { createProduct } from '../src/catalog/index.js';
import { loadConfig } from '../src/config.js';
import { createCustomer, CreateCustomerBody } from '../src/customers/index.js';
import { lowStockLevels, setLevel } from '../src/inventory/index.js';
import { createLog } from '../src/log.js';
import { openPlatform } from '../src/boot.js';
import { countOrdersToFulfil, createOrder, CreateOrderBody, fulfillOrder, FulfillBody, orderDaysUpTo } from '../src/orders/index.js';
import { getLiveTheme } from '../src/themes/index.js';
import type { StoreView } from '../src/stores/index.js';
import {
  benchDatabase,
  freePort,
  jsonClient,
  inParallel,
  pageWeights,
  percentile,
  signInBrowser,
  startServer,
  timedGet as timedGetAt,
  UNTHROTTLED,
  type Json,
} from './support.js';

/**
 * `npm run bench:admin` (issue 38, docs/benchmarks.md): the merchant admin's pages on a store of
 * BENCH_PRODUCTS products (default 10,000, 2 tracked variants each) and BENCH_ORDERS orders
 * (default 10,000, from 2,000 customers), each beside the REST API call that reads the same
 * thing, on the real web process in the same run:
 * - Home beside the reads Home makes (the order days, the orders to fulfil, the low stock, the
 *   live theme), called in this process: the admin has no API of its own for them;
 * - the orders list beside `GET /v1/orders?limit=50&order=newest`, an order beside
 *   `GET /v1/orders/<id>`, the products list beside `GET /v1/products?limit=50&sort=-created_at`,
 *   the customers list beside `GET /v1/customers?limit=50`, a customer beside `GET /v1/customers/<id>`.
 * One request at a time, alternating (page, API, page, API…) so the machine's other work falls on
 * both alike, after a warm-up of each; BENCH_ROUNDS (default 200) pairs of each. Printed: p50 and
 * p95 of each and the page's p50 over the API's. Then each page kind's weight as Chromium loads
 * it: the bytes of every response (headers and body as sent) of the page and what it links.
 * BENCH_PROF=1 writes the web process's CPU profile to /tmp/prof.
 *
 * The store is seeded in this process through the domains' own services (createProduct, setLevel,
 * createCustomer, createOrder, fulfillOrder: what the API calls), 16 at a time as bench:commerce
 * does, so every figure the pages read (the order days, customers' totals, stock committed) is
 * what the platform keeps, without paying an HTTP request per write.
 */
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 10_000);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 10_000);
const CUSTOMERS = Math.max(1, Math.round(ORDERS / 5));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const WARM_UP = 20;
const SEED_CONCURRENCY = 16;
/** Every this-many-th variant has 3 units, so Home has low stock to show, and no order takes it. */
const LOW_EVERY = 50;

const database = await benchDatabase();
const port = await freePort();
const env = { APP_ENV: 'development', MONGODB_URL: database.url, MONGODB_DB: `bench_admin_${Date.now()}`, ...UNTHROTTLED };
const profile = process.env.BENCH_PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof', '--cpu-prof-name=admin-web.cpuprofile'] : [];
const web = await startServer('dist/src/web.js', { ...env, PORT: String(port), LOG_LEVEL: 'info' }, 'web.listening', profile);
const base = `http://127.0.0.1:${port}`;
const call = jsonClient(base);
const timedGet = (path: string, headers: Record<string, string>) => timedGetAt(base, path, headers);
const { platform, close } = await openPlatform(loadConfig(env), 'bench-seed', { log: createLog('warn', {}) });

type Case = { name: string; page: (i: number) => string; api: { label: string; run: (i: number) => Promise<number> } };

try {
  const account = { email: `bench-admin-${Date.now()}@example.com`, password: 'benchmark password' };
  await call('POST', '/v1/auth/signup', { ...account, name: 'Bench' });
  const token: string = (await call('POST', '/v1/auth/signin', account)).data.session.token;
  const auth = { authorization: `Bearer ${token}` };
  const store: StoreView = (await call('POST', '/v1/stores', { name: 'Bench admin', subdomain: `bench-admin-${Date.now()}` }, auth)).data;
  const api = { ...auth, 'x-store-id': store.id };
  const location: { id: string } = (await call('POST', '/v1/inventory/locations', { name: 'Bench warehouse' }, api)).data;

  const seedStarted = Date.now();
  const sellable: string[] = [];
  await inParallel(PRODUCTS, SEED_CONCURRENCY, async (i) => {
    const product = await createProduct(platform, store, {
      title: `Product ${String(i).padStart(5, '0')}`,
      description_html: '<p>A product for the benchmark.</p>',
      vendor: `Vendor ${i % 20}`,
      product_type: 'Bench',
      tags: ['bench', `group-${i % 10}`],
      status: i % 10 === 9 ? 'draft' : 'active',
      options: [{ name: 'Size', values: ['S', 'M'] }],
      variants: ['S', 'M'].map((size, j) => ({
        option_values: [size],
        sku: `P${i}-${size}`,
        price: 1000 + j * 200 + (i % 7) * 100,
        inventory_tracked: true,
        inventory_policy: 'deny' as const,
      })),
      media_ids: [],
    });
    for (const [j, v] of product.variants.entries()) {
      const low = (i * 2 + j) % LOW_EVERY === 0;
      await setLevel(platform, store.id, { variant_id: v.id, location_id: location.id, available: low ? 3 : 1_000 });
      if (!low) sellable.push(v.id);
    }
  });
  const productsSeconds = (Date.now() - seedStarted) / 1000;

  const customerIds: string[] = [];
  await inParallel(CUSTOMERS, SEED_CONCURRENCY, async (i) => {
    const c = await createCustomer(
      platform,
      store,
      CreateCustomerBody.parse({ email: `customer-${i}@example.com`, first_name: 'Customer', last_name: `Number ${i}` }),
    );
    customerIds[i] = c.id;
  });
  const address = { first_name: 'Ada', last_name: 'Shopper', address1: '1 Main St', city: 'Austin', province_code: 'TX', zip: '78701', country_code: 'US' };
  let fulfilled = 0;
  await inParallel(ORDERS, SEED_CONCURRENCY, async (i) => {
    const lines = 1 + (i % 3);
    const order = await createOrder(
      platform,
      store,
      CreateOrderBody.parse({
        customer_id: customerIds[i % CUSTOMERS],
        line_items: Array.from({ length: lines }, (_, j) => ({ variant_id: sellable[(i * 3 + j * 7919) % sellable.length]!, quantity: 1 })),
        shipping_line: { title: 'Standard', code: 'standard', price: 495 },
        shipping_address: address,
        billing_address: address,
        financial_status: i % 5 === 4 ? 'pending' : 'paid',
        location_id: location.id,
      }),
      null,
    );
    // Half the paid orders are shipped, so the lists and Home show every state.
    if (i % 5 !== 4 && i % 2 === 0) {
      const body = FulfillBody.parse({
        location_id: location.id,
        line_items: order.line_items.map((l) => ({ line_item_id: l.id, quantity: l.quantity })),
        tracking_number: `1Z${String(i).padStart(10, '0')}`,
      });
      await fulfillOrder(platform, store.id, order.id, body, null);
      fulfilled++;
    }
  });
  const seedSeconds = (Date.now() - seedStarted) / 1000;
  console.log(
    `seeded ${PRODUCTS} products × 2 variants in ${productsSeconds.toFixed(0)} s, ${CUSTOMERS} customers and ${ORDERS} orders (${fulfilled} fulfilled) in ${(seedSeconds - productsSeconds).toFixed(0)} s`,
  );

  const cookie = await signInBrowser(base, account.email, account.password);
  const browser = { cookie };
  const page = (path: string) => `/admin/stores/${store.id}${path}`;
  // A sample of orders and customers to open in turn (the newest page, as a merchant opens them).
  const orderIds: string[] = (await call('GET', '/v1/orders?limit=50&order=newest', undefined, api)).data.map((o: Json) => o.id);
  const customerSample: string[] = (await call('GET', '/v1/customers?limit=50', undefined, api)).data.map((c: Json) => c.id);
  const nth = <T>(xs: readonly T[], i: number) => xs[i % xs.length]!;
  const apiGet = (label: string, path: (i: number) => string) => ({ label, run: (i: number) => timedGet(path(i), api) });

  const homeReads = async () => {
    const t0 = performance.now();
    await Promise.all([
      orderDaysUpTo(platform, store.id, new Date(), 30),
      countOrdersToFulfil(platform, store.id, 1000),
      lowStockLevels(platform, store.id, 5, 5),
      getLiveTheme(platform, store),
    ]);
    return performance.now() - t0;
  };
  const cases: Case[] = [
    { name: 'Home', page: () => page(''), api: { label: 'its reads, in process', run: homeReads } },
    { name: 'Orders list', page: () => page('/orders'), api: apiGet('GET /v1/orders?limit=50&order=newest', () => '/v1/orders?limit=50&order=newest') },
    { name: 'An order', page: (i) => page(`/orders/${nth(orderIds, i)}`), api: apiGet('GET /v1/orders/<id>', (i) => `/v1/orders/${nth(orderIds, i)}`) },
    {
      name: 'Products list',
      page: () => page('/products'),
      api: apiGet('GET /v1/products?limit=50&sort=-created_at', () => '/v1/products?limit=50&sort=-created_at'),
    },
    { name: 'Customers list', page: () => page('/customers'), api: apiGet('GET /v1/customers?limit=50', () => '/v1/customers?limit=50') },
    {
      name: 'A customer',
      page: (i) => page(`/customers/${nth(customerSample, i)}`),
      api: apiGet('GET /v1/customers/<id>', (i) => `/v1/customers/${nth(customerSample, i)}`),
    },
  ];

  const results: { c: Case; pageMs: number[]; apiMs: number[] }[] = [];
  for (const c of cases) {
    for (let i = 0; i < WARM_UP; i++) {
      await timedGet(c.page(i), browser);
      await c.api.run(i);
    }
    const pageMs: number[] = [];
    const apiMs: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      pageMs.push(await timedGet(c.page(i), browser));
      apiMs.push(await c.api.run(i));
    }
    results.push({ c, pageMs, apiMs });
  }

  // Each page kind as a browser loads it: every response's bytes, headers included.
  const productId: string = (await call('GET', '/v1/products?limit=1', undefined, api)).data[0].id;
  const weights = await pageWeights(base, cookie, [
    ...cases.map((c) => ({ name: c.name, path: c.page(0) })),
    { name: 'A product', path: page(`/products/${productId}`) },
  ]);

  const ms = (x: number) => x.toFixed(1).padStart(6);
  console.log(`\nThe admin on a store of ${PRODUCTS} products and ${ORDERS} orders, ${ROUNDS} alternating pairs each, one request at a time`);
  console.log(`${'page'.padEnd(16)}  p50 ms  p95 ms   ${'beside'.padEnd(42)}  p50 ms  p95 ms   ratio of p50 (target ≤ 1.3)`);
  for (const { c, pageMs, apiMs } of results) {
    const [p, a] = [percentile(pageMs, 0.5), percentile(apiMs, 0.5)];
    console.log(
      `${c.name.padEnd(16)}  ${ms(p)}  ${ms(percentile(pageMs, 0.95))}   ${c.api.label.padEnd(42)}  ${ms(a)}  ${ms(percentile(apiMs, 0.95))}   ${(p / a).toFixed(2)}`,
    );
  }
  console.log(`Home p50 target < 50 ms: ${percentile(results[0]!.pageMs, 0.5).toFixed(1)} ms`);
  console.log('\nWeight as Chromium loads each page (HTML, CSS, scripts and images: every response; target < 100 KB)');
  for (const w of weights)
    console.log(`${w.name.padEnd(16)}  ${(w.bytes / 1024).toFixed(1).padStart(6)} KB in ${w.responses} response${w.responses === 1 ? '' : 's'}`);
} finally {
  await close();
  web.kill('SIGTERM');
  await database.stop();
}
