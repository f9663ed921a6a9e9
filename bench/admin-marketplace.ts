import { themeFixture } from '../src/dev/theme-fixtures.js';
import { createHash, randomBytes } from 'node:crypto';
import { openPlatform } from '../src/boot.js';
import { createProduct } from '../src/catalog/index.js';
import { loadConfig } from '../src/config.js';
import { exampleAppPage, servePage } from '../src/dev/example-app.js';
import { createLog } from '../src/log.js';
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
  timedGet,
  UNTHROTTLED,
  type Json,
} from './support.js';

/**
 * `npm run bench:admin-marketplace` (issue 39, docs/benchmarks.md): the admin's marketplace pages
 * (Apps, the embedded app host, Online store, the theme editor) on a store of BENCH_PRODUCTS
 * products (default 2,000) with ~50 published apps in the App Store, each figure beside its
 * baseline in the same run, on the real web process, one request at a time, alternating (each
 * measure of a row in turn, so the machine's other work falls on all alike), after a warm-up;
 * BENCH_ROUNDS (default 100) rounds of each row. Printed: p50 and p95 of each and the first
 * measure's p50 over each baseline's.
 * - Pages beside the REST reads of the same thing: the App Store, an installed app's settings,
 *   the theme library, the theme store, the editor.
 * - The bridge's cost: an embedded app's `api.fetch`, `toast` and `handshake` posted to the
 *   admin's bridge endpoint as the host script posts them (a form with the session cookie and
 *   CSRF token), beside the app's own token at `POST /v1/app-store/bridge/fetch`, the plain
 *   `GET /v1/products?limit=50`, `GET /health` and the cheapest authenticated read, `GET /v1/stores/current`.
 * - A keystroke in the editor: one debounce (the settings form's save post, as the script posts
 *   it, then the preview's GET) beside the drafts API's PUT and a render of the shop's page.
 * Then the page weights in Chromium (every response, frames and what the scripts fetch
 * included). BENCH_PROF=1 writes the web process's CPU profile to /tmp/prof.
 */
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 2_000);
const APPS = Number(process.env.BENCH_APPS ?? 50);
const THEMES = Number(process.env.BENCH_THEMES ?? 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 100);
const WARM_UP = 10;
const SEED_CONCURRENCY = 16;
const OPERATOR = 'bench-marketplace-operator@example.com';

const database = await benchDatabase();
const port = await freePort();
const env = {
  APP_ENV: 'development',
  MONGODB_URL: database.url,
  MONGODB_DB: `bench_admin_marketplace_${Date.now()}`,
  OPERATOR_EMAILS: OPERATOR,
  ...UNTHROTTLED,
};
const profile = process.env.BENCH_PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof', '--cpu-prof-name=admin-marketplace-web.cpuprofile'] : [];
const web = await startServer('dist/src/web.js', { ...env, PORT: String(port), LOG_LEVEL: 'info' }, 'web.listening', profile);
// The themes worker runs the review checks of the themes published to the theme store.
const themesWorker = await startServer(
  'dist/src/worker.js',
  { ...env, LOG_LEVEL: 'info', THEMES_SWEEP_INTERVAL_MS: '500' },
  'worker.started',
  [],
  ['--jobs', 'themes'],
);
const base = `http://127.0.0.1:${port}`;
const call = jsonClient(base);
const get = (path: string, headers: Record<string, string>) => timedGet(base, path, headers);
const { platform, close } = await openPlatform(loadConfig(env), 'bench-seed', { log: createLog('warn', {}) });
// The partner's app: the example page of docs/app-bridge.md on an origin of its own, as the browser test serves it.
const partnerSite = await servePage('127.0.0.1', exampleAppPage());

const unescape = (s: string) => s.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
const attr = (tag: string, name: string) => [...tag.matchAll(/\s([\w-]+)="([^"]*)"/g)].find((m) => m[1] === name)?.[2];

/** The fields a browser's FormData would take from the form `id` of `page`: inputs (checked boxes only), textareas, selects' chosen option. */
function formFields(page: string, id: string): [string, string][] {
  const start = page.indexOf(`id="${id}"`);
  if (start < 0) throw new Error(`no form #${id}`);
  const form = page.slice(start, page.indexOf('</form>', start));
  const fields: [string, string][] = [];
  for (const [tag, kind, inner = ''] of form.matchAll(/<(input|textarea|select)\b[^>]*>(?:([\s\S]*?)<\/\1>)?/g)) {
    const name = attr(tag, 'name');
    if (!name) continue;
    const type = attr(tag, 'type');
    if (kind === 'input' && (type === 'submit' || ((type === 'checkbox' || type === 'radio') && !/\schecked\b/.test(tag)))) continue;
    if (kind === 'textarea') fields.push([name, unescape(inner)]);
    else if (kind === 'select') {
      const options = [...inner.matchAll(/<option\b[^>]*>/g)].map((o) => o[0]);
      const chosen = options.find((o) => /\sselected\b/.test(o)) ?? options[0];
      if (chosen) fields.push([name, unescape(attr(chosen, 'value') ?? '')]);
    } else fields.push([name, unescape(attr(tag, 'value') ?? '')]);
  }
  return fields;
}

/** One measure of a row: a label and a run that answers its milliseconds (or throws). */
type Measure = { label: string; run: (i: number) => Promise<number> };
type Row = { name: string; measures: Measure[] };

/** Every measure of each row in turn, WARM_UP rounds then ROUNDS recorded: the milliseconds of each. */
async function measure(rows: Row[]): Promise<Map<Measure, number[]>> {
  const times = new Map<Measure, number[]>();
  for (const row of rows) {
    for (let i = 0; i < WARM_UP; i++) for (const m of row.measures) await m.run(i);
    for (const m of row.measures) times.set(m, []);
    for (let i = 0; i < ROUNDS; i++) for (const m of row.measures) times.get(m)!.push(await m.run(WARM_UP + i));
  }
  return times;
}

try {
  const account = async (email: string) => {
    const body = { email, password: 'benchmark password', name: 'Bench' };
    await call('POST', '/v1/auth/signup', body);
    return (await call('POST', '/v1/auth/signin', { email, password: body.password })).data.session.token as string;
  };
  const operator = { authorization: `Bearer ${await account(OPERATOR)}` };
  const merchant = { email: `bench-marketplace-${Date.now()}@example.com`, password: 'benchmark password' };
  const auth = { authorization: `Bearer ${await account(merchant.email)}` };
  const store: StoreView = (await call('POST', '/v1/stores', { name: 'Bench marketplace', subdomain: `bench-mkt-${Date.now()}` }, auth)).data;
  const api = { ...auth, 'x-store-id': store.id };

  const seedStarted = Date.now();
  await inParallel(PRODUCTS, SEED_CONCURRENCY, (i) =>
    createProduct(platform, store, {
      title: `Product ${String(i).padStart(5, '0')}`,
      description_html: '<p>A product for the benchmark.</p>',
      vendor: `Vendor ${i % 20}`,
      product_type: 'Bench',
      tags: ['bench'],
      status: 'active',
      options: [{ name: 'Size', values: ['S', 'M'] }],
      variants: ['S', 'M'].map((size, j) => ({
        option_values: [size],
        sku: `P${i}-${size}`,
        price: 1000 + j * 200,
        inventory_tracked: false,
        inventory_policy: 'deny' as const,
      })),
      media_ids: [],
    }),
  );

  // The catalog: APPS apps of 10 partners, each submitted and approved by the operator as the
  // tests do; the first is the embedded one the store installs (the example app, every capability).
  const partners = await Promise.all(
    Array.from({ length: Math.ceil(APPS / 10) }, async (_, p) => {
      const partner = { authorization: `Bearer ${await account(`bench-partner-${p}-${Date.now()}@example.com`)}` };
      const profile = {
        name: `Partner ${p}`,
        contact_email: `p${p}@example.com`,
        support_url: 'https://p.example.com/s',
        privacy_policy_url: 'https://p.example.com/p',
      };
      await call('POST', '/v1/app-store/developers/register', profile, partner);
      return partner;
    }),
  );
  const published: { id: string; handle: string; redirect: string; credentials: Json }[] = [];
  await inParallel(APPS, SEED_CONCURRENCY, async (i) => {
    const handle = `bench-app-${i}-${randomBytes(3).toString('hex')}`;
    const origin = i === 0 ? partnerSite.origin : `https://${handle}.example.com`;
    const manifest = {
      schema_version: '2026-06-05.ws13',
      name: `Bench app ${i}`,
      handle,
      version: '1.0.0',
      description: `App number ${i} of the benchmark's catalog: it prints, counts and sends things for a store.`,
      app_url: `${origin}/app`,
      redirect_urls: [`${origin}/oauth/callback`],
      scopes: ['read_orders', 'read_products'],
      bridge: { capabilities: ['api.fetch', 'toast', 'resize', 'navigation.redirect'] },
      privacy_policy_url: 'https://example.com/privacy',
    };
    const submitted = (await call('POST', '/v1/app-store/developers/apps', { manifest }, partners[i % partners.length])).data;
    await call('POST', `/v1/operations/app-reviews/${submitted.app.latest_version.id}/approve`, undefined, operator);
    published[i] = { id: submitted.app.id, handle, redirect: manifest.redirect_urls[0]!, credentials: submitted.credentials };
  });
  const embedded = published[0]!;
  const verifier = randomBytes(32).toString('base64url');
  const granted = (
    await call(
      'POST',
      `/v1/app-store/apps/${embedded.id}/oauth/authorize`,
      {
        store_id: store.id,
        redirect_uri: embedded.redirect,
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
        scopes: ['read_products'],
        state: 's',
        webhook_url: `${partnerSite.origin}/webhooks`,
      },
      auth,
    )
  ).data;
  const tokens = await call('POST', '/v1/app-store/oauth/token', {
    grant_type: 'authorization_code',
    code: granted.code,
    redirect_uri: embedded.redirect,
    code_verifier: verifier,
    client_id: embedded.credentials.oauth_client_id,
    client_secret: embedded.credentials.client_secret,
  });
  const installationId: string = granted.installation.id;
  const appAuth = { authorization: `Bearer ${tokens.access_token}` };

  // The theme store: THEMES copies of the fixtures (every other one paid) uploaded by an author, checked by the worker and
  // approved by the operator; the store's own theme: a private copy of Aurora (every setting type) installed live, the editor's.
  const fixture = (name: string) => themeFixture(name) as Json;
  const author = { authorization: `Bearer ${await account(`bench-theme-author-${Date.now()}@example.com`)}` };
  await inParallel(THEMES, SEED_CONCURRENCY, async (i) => {
    const bundle = fixture(i % 2 ? 'ember-liquid' : 'aurora');
    Object.assign(bundle.package, { slug: `bench-theme-${i}-${randomBytes(3).toString('hex')}`, name: `Bench theme ${i}` });
    if (i % 2) Object.assign(bundle.package, { pricing_type: 'paid', price: 49, currency: 'USD' });
    const review: string = (await call('POST', '/v1/themes/packages/upload', { bundle }, author)).data.review_record.id;
    while ((await call('GET', `/v1/operations/theme-reviews/${review}`, undefined, operator)).data.status === 'pending_checks')
      await new Promise((resolve) => setTimeout(resolve, 250));
    await call('POST', `/v1/operations/theme-reviews/${review}/approve`, undefined, operator);
  });
  const aurora = fixture('aurora');
  const slug = (aurora.package.slug = `aurora-bench-${randomBytes(3).toString('hex')}`);
  await call('POST', '/v1/themes/packages/upload', { bundle: aurora, submission_mode: 'private_install' }, auth);
  const theme: Json = (await call('POST', `/v1/themes/${slug}/install`, { store_id: store.id, publish: true }, auth)).data;
  console.log(`seeded ${PRODUCTS} products, ${APPS} published apps, ${THEMES} published themes in ${((Date.now() - seedStarted) / 1000).toFixed(0)} s`);

  const cookie = await signInBrowser(base, merchant.email, merchant.password);
  const browser = { cookie };
  const page = (path: string) => `/admin/stores/${store.id}${path}`;
  /** A form post as a browser sends one from the admin's own page (same origin, the session cookie). */
  const post = async (path: string, fields: [string, string][], accept = 'text/html') => {
    const t0 = performance.now();
    const res = await fetch(base + path, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...browser, accept, 'content-type': 'application/x-www-form-urlencoded', origin: base, 'sec-fetch-site': 'same-origin' },
      body: new URLSearchParams(fields).toString(),
    });
    const body = await res.text();
    return { ms: performance.now() - t0, status: res.status, body };
  };

  // The bridge, as the host script asks it: the host page's CSRF token, a form of the action's fields.
  const hostPath = page(`/apps/${embedded.handle}`);
  const hostPage = await (await fetch(base + hostPath, { headers: browser })).text();
  const csrf = /data-csrf="([^"]+)"/.exec(hostPage)?.[1];
  if (!csrf) throw new Error(`no CSRF token on ${hostPath}`);
  const bridge = (fields: [string, string][]) => async () => {
    const res = await post(`${hostPath}/bridge`, [['csrf_token', csrf], ...fields], 'application/json');
    if (res.status !== 200 || !JSON.parse(res.body).ok) throw new Error(`bridge ${fields[0]![1]}: ${res.status} ${res.body.slice(0, 300)}`);
    return res.ms;
  };
  const appFetch = async () => {
    const t0 = performance.now();
    const res = await fetch(`${base}/v1/app-store/bridge/fetch`, {
      method: 'POST',
      headers: { ...appAuth, 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'GET', path: '/products?limit=50', store_id: store.id }),
    });
    const body = (await res.json()) as Json;
    const ms = performance.now() - t0;
    if (res.status !== 200 || !body.data.ok) throw new Error(`bridge/fetch: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    return ms;
  };

  // The keystroke: the hero heading block's settings form, as the script posts it (every field of
  // the form, the version moving on with each save), then the preview; beside it the drafts API's
  // PUT of the same template from the same version, then the shop's page.
  const at = `template=home&section=hero&block=heading`;
  const editorPath = page(`/themes/${theme.id}/editor`);
  const form = formFields(await (await fetch(`${base}${editorPath}?${at}`, { headers: browser })).text(), 'settings-form');
  const state: Json = (await call('GET', `/v1/themes/${slug}/editor?theme_id=${theme.id}`, undefined, api)).data;
  const home: Json = structuredClone(state.templates.home.draft ?? state.templates.home.live);
  let version: number = state.templates.home.version;
  const previewBytes: number[] = [];
  const parts = { save: [] as number[], preview: [] as number[], put: [] as number[], shop: [] as number[] };
  const keystroke = async (i: number) => {
    const fields = form.map(([name, value]): [string, string] =>
      name === 'version' ? [name, String(version)] : name === 's.heading' ? [name, `New season ${i}`] : [name, value],
    );
    const saved = await post(editorPath, fields);
    if (saved.status !== 303) throw new Error(`editor save: ${saved.status} ${saved.body.slice(0, 300)}`);
    version++;
    const t0 = performance.now();
    const res = await fetch(`${base}${editorPath}/preview?template=home`, { headers: browser });
    const bytes = (await res.arrayBuffer()).byteLength;
    const previewMs = performance.now() - t0;
    if (res.status !== 200) throw new Error(`preview: ${res.status}`);
    previewBytes.push(bytes);
    parts.save.push(saved.ms);
    parts.preview.push(previewMs);
    return saved.ms + previewMs;
  };
  const draftAndRender = async (i: number) => {
    home.sections.hero.blocks.heading.settings.heading = `API season ${i}`;
    const t0 = performance.now();
    const res = await fetch(`${base}/v1/themes/${slug}/editor/draft?theme_id=${theme.id}`, {
      method: 'PUT',
      headers: { ...api, 'content-type': 'application/json' },
      body: JSON.stringify({ template_key: 'home', version, content: home }),
    });
    const body = (await res.json()) as Json;
    const putMs = performance.now() - t0;
    if (res.status !== 200) throw new Error(`draft PUT: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    version = body.data.version;
    const shopMs = await get(`/v1/storefront/${store.subdomain}/pages/home`, {});
    parts.put.push(putMs);
    parts.shop.push(shopMs);
    return putMs + shopMs;
  };

  const pageOf = (label: string, path: string): Measure => ({ label, run: () => get(page(path), browser) });
  const apiOf = (label: string, path: string, headers: Record<string, string> = api): Measure => ({ label, run: () => get(path, headers) });
  // A toast's and a handshake's baselines: the cheapest answer, and the cheapest authenticated read (the session's store).
  const cheapest = () => [apiOf('GET /health', '/health', {}), apiOf('GET /v1/stores/current', '/v1/stores/current')];
  const rows: Row[] = [
    { name: 'App Store', measures: [pageOf('page', '/app-store'), apiOf('GET /v1/app-store/apps?limit=24', '/v1/app-store/apps?limit=24')] },
    {
      name: "An app's settings",
      measures: [
        pageOf('page', `/apps/${embedded.handle}/settings`),
        apiOf('GET /v1/app-store/installations/<id>', `/v1/app-store/installations/${installationId}`),
      ],
    },
    { name: 'Theme library', measures: [pageOf('page', '/themes'), apiOf('GET /v1/themes/installed', '/v1/themes/installed')] },
    { name: 'Theme store', measures: [pageOf('page', '/themes/store'), apiOf('GET /v1/themes', '/v1/themes')] },
    {
      name: 'Theme editor',
      measures: [
        pageOf('page', `/themes/${theme.id}/editor?template=home`),
        apiOf('GET /v1/themes/<slug>/editor', `/v1/themes/${slug}/editor?theme_id=${theme.id}`),
      ],
    },
    {
      name: 'Bridge api.fetch',
      measures: [
        {
          label: 'admin bridge: /products?limit=50',
          run: bridge([
            ['type', 'api.fetch'],
            ['method', 'GET'],
            ['path', '/products?limit=50'],
          ]),
        },
        { label: 'POST /v1/app-store/bridge/fetch', run: appFetch },
        apiOf('GET /v1/products?limit=50', '/v1/products?limit=50'),
      ],
    },
    {
      name: 'Bridge toast',
      measures: [
        {
          label: 'admin bridge: toast',
          run: bridge([
            ['type', 'toast'],
            ['message', 'Saved'],
          ]),
        },
        ...cheapest(),
      ],
    },
    { name: 'Bridge handshake', measures: [{ label: 'admin bridge: handshake', run: bridge([['type', 'handshake']]) }, ...cheapest()] },
    {
      name: 'Editor keystroke',
      measures: [
        { label: 'save post + preview GET', run: keystroke },
        { label: 'PUT …/editor/draft + shop page', run: draftAndRender },
      ],
    },
  ];
  const times = await measure(rows);

  // Each page kind as Chromium loads it, until the network is quiet: the app host's script, the
  // app's frame and its bridge calls; the editor's script and its preview frame.
  const weights = await pageWeights(
    base,
    cookie,
    [
      { name: 'App Store', path: page('/app-store') },
      { name: 'App host', path: hostPath },
      { name: 'Theme library', path: page('/themes') },
      { name: 'Theme editor', path: page(`/themes/${theme.id}/editor?template=home`) },
    ],
    'networkidle',
  );

  const ms = (x: number) => x.toFixed(1).padStart(6);
  const figures = (xs: number[]) => `${ms(percentile(xs, 0.5))}  ${ms(percentile(xs, 0.95))}`;
  console.log(
    `\nThe admin's marketplace on a store of ${PRODUCTS} products and ${APPS} published apps, ${ROUNDS} alternating rounds each, one request at a time`,
  );
  console.log(`${'row'.padEnd(18)}  ${'measure'.padEnd(40)}  p50 ms  p95 ms   ratio of the first's p50 to this one's`);
  for (const row of rows) {
    const first = percentile(times.get(row.measures[0]!)!, 0.5);
    for (const [j, m] of row.measures.entries()) {
      const xs = times.get(m)!;
      const ratio = j === 0 ? '' : (first / percentile(xs, 0.5)).toFixed(2);
      console.log(`${(j === 0 ? row.name : '').padEnd(18)}  ${m.label.padEnd(40)}  ${figures(xs)}   ${ratio}`);
    }
  }
  console.log('\nThe keystroke in parts');
  for (const [label, xs] of Object.entries(parts)) console.log(`${label.padEnd(18)}  ${figures(xs)}`);
  console.log(`preview: ${(percentile(previewBytes, 0.5) / 1024).toFixed(1)} KB (its body, p50)`);
  console.log('\nWeight as Chromium loads each page (every response, headers included, frames and script calls too; target < 100 KB)');
  for (const w of weights)
    console.log(`${w.name.padEnd(18)}  ${(w.bytes / 1024).toFixed(1).padStart(6)} KB in ${w.responses} response${w.responses === 1 ? '' : 's'}`);
} finally {
  await close();
  await partnerSite.close();
  web.kill('SIGTERM');
  themesWorker.kill('SIGTERM');
  await database.stop();
}
