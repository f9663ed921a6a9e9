import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * `npm run screenshot` (docs/rendering.md, "Seeing a page"): what a shopper sees, in a real
 * browser. Against a running platform (`npm start`; BASE_URL, default http://localhost:3000) it
 * makes a merchant, a store with a few products and the collections the fixtures feature, installs each fixture theme
 * (fixtures/themes/, a private install) live in turn, and has headless Chromium (Debian's
 * `chromium`; CHROMIUM to name another binary) load the rendered home and product pages and
 * save them as docs/screenshots/<theme>-<page>.png. With SCREENSHOT_OPERATOR set to an address in
 * the platform's OPERATOR_EMAILS, the merchant is that operator: it also publishes an app with a
 * theme app block, installs it, and saves the aurora home page with the block placed in its hero
 * (docs/screenshots/aurora-app-block.png; docs/extensions.md, Storefront app blocks).
 */
const BASE = (process.env.BASE_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const OUT = new URL('../../../docs/screenshots/', import.meta.url).pathname;
const FIXTURES = new URL('../../../fixtures/themes/', import.meta.url).pathname;

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Json> {
  const res = await fetch(BASE + path, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 500)}`);
  return text ? JSON.parse(text) : null;
}

/** Headless Chromium with the flags this machine's closed network needs, one page to one PNG. */
function screenshot(url: string, file: string): void {
  const profile = mkdtempSync(join(tmpdir(), 'emporium-chromium-'));
  try {
    execFileSync(
      CHROMIUM,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--hide-scrollbars',
        `--user-data-dir=${profile}`,
        '--window-size=1280,1400',
        `--screenshot=${file}`,
        url,
      ],
      { stdio: 'ignore', timeout: 60_000 },
    );
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

const unique = randomBytes(3).toString('hex');
const OPERATOR = process.env.SCREENSHOT_OPERATOR;
const account = { email: OPERATOR ?? `screenshots-${unique}@example.com`, password: 'screenshot password', name: 'Screenshots' };
await call('POST', '/v1/auth/signup', account);
const token: string = (await call('POST', '/v1/auth/signin', { email: account.email, password: account.password })).data.session.token;
const auth = { authorization: `Bearer ${token}` };
const store = (await call('POST', '/v1/stores', { name: 'Lumen & Loom', subdomain: `lumen-${unique}` }, auth)).data;
const as = { ...auth, 'x-store-id': store.id };

const products = [
  { title: 'Linen Throw Blanket', price: 8900, body: 'Stonewashed linen, woven in Portugal.' },
  { title: 'Ceramic Pour-Over Set', price: 5400, body: 'A dripper, a carafe and two cups in speckled clay.' },
  { title: 'Beeswax Candle Trio', price: 3200, body: 'Hand-dipped, unscented, forty hours each.' },
  { title: 'Walnut Serving Board', price: 6500, body: 'Oiled black walnut with a juice groove.' },
];
const created: Json[] = [];
for (const p of products) {
  created.push(
    (
      await call(
        'POST',
        '/v1/products',
        { title: p.title, description_html: `<p>${p.body}</p>`, status: 'active', tags: ['home'], variants: [{ price: p.price, inventory_tracked: false }] },
        as,
      )
    ).data,
  );
}
// The collections the fixtures' featured sections show.
for (const [title, handle] of [
  ['Bestsellers', 'bestsellers'],
  ['New', 'new'],
]) {
  await call('POST', '/v1/products/collections', { type: 'manual', title, handle, product_ids: created.map((p) => p.id) }, as);
}

mkdirSync(OUT, { recursive: true });
for (const fixture of ['aurora', 'ember-liquid']) {
  const bundle = JSON.parse(readFileSync(`${FIXTURES}${fixture}.json`, 'utf8'));
  bundle.package.slug = `${bundle.package.slug}-${unique}`;
  bundle.package.pricing_type = 'free';
  bundle.package.price = 0;
  await call('POST', '/v1/themes/packages/upload', { bundle, submission_mode: 'private_install' }, as);
  await call('POST', `/v1/themes/${bundle.package.slug}/install`, { store_id: store.id, publish: true }, auth);
  const name = fixture.replace(/-liquid$/, '');
  const pages = { home: `/v1/storefront/${store.subdomain}/pages/home`, product: `/v1/storefront/${store.subdomain}/pages/product/${created[0].handle}` };
  for (const [page, path] of Object.entries(pages)) {
    const res = await fetch(BASE + path);
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${(await res.text()).slice(0, 300)}`);
    const file = `${OUT}${name}-${page}.png`;
    screenshot(BASE + path, file);
    console.log(`${file}  ←  ${BASE}${path}`);
  }
}

/** An app with a theme app block, published by the operator and installed in the store; aurora with the block in its hero. */
async function appBlockPage(): Promise<void> {
  const handle = `star-reviews-${unique}`;
  await call(
    'POST',
    '/v1/app-store/developers/register',
    {
      name: 'Star Reviews',
      contact_email: 'apps@example.com',
      website_url: 'https://stars.example.com',
      support_url: 'https://stars.example.com/support',
      privacy_policy_url: 'https://stars.example.com/privacy',
    },
    auth,
  ).catch(() => undefined); // an operator who registered before
  const submitted = (
    await call(
      'POST',
      '/v1/app-store/developers/apps',
      {
        manifest: {
          schema_version: '2026-06-05.ws13',
          name: 'Star Reviews',
          handle,
          version: '1.0.0',
          app_url: `https://${handle}.example.com/app`,
          redirect_urls: [`https://${handle}.example.com/oauth/callback`],
          scopes: ['read_products'],
          privacy_policy_url: 'https://stars.example.com/privacy',
          extensions: [
            {
              kind: 'theme_app_block',
              handle: 'star-rating',
              name: 'Star rating',
              target: 'section',
              config: {
                heading: '★★★★★ Rated 4.8 by 1,200 shoppers',
                body: '“The throw is even softer than it looks.” — Maya, Lisbon',
                cta_label: 'Read the reviews',
                cta_href: '/pages/reviews',
              },
            },
          ],
        },
      },
      auth,
    )
  ).data;
  await call('POST', `/v1/operations/app-reviews/${submitted.app.latest_version.id}/approve`, undefined, auth);
  await call(
    'POST',
    `/v1/app-store/apps/${submitted.app.id}/oauth/authorize`,
    {
      store_id: store.id,
      redirect_uri: `https://${handle}.example.com/oauth/callback`,
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      scopes: ['read_products'],
      state: 'screenshot',
      webhook_url: 'https://stars.example.com/webhooks',
    },
    auth,
  );
  const bundle = JSON.parse(readFileSync(`${FIXTURES}aurora.json`, 'utf8'));
  bundle.package.slug = `aurora-blocks-${unique}`;
  bundle.package.pricing_type = 'free';
  bundle.package.price = 0;
  bundle.sections.hero.accepts_app_blocks = true;
  const hero = bundle.templates.home.sections.hero;
  hero.blocks.stars = { type: `@app/${handle}/star-rating`, settings: {} };
  if (hero.block_order) hero.block_order.push('stars');
  await call('POST', '/v1/themes/packages/upload', { bundle, submission_mode: 'private_install' }, as);
  await call('POST', `/v1/themes/${bundle.package.slug}/install`, { store_id: store.id, publish: true }, auth);
  const path = `/v1/storefront/${store.subdomain}/pages/home`;
  const html = await (await fetch(BASE + path)).text();
  if (!html.includes('app-block__heading')) throw new Error(`${path}: the app block did not render`);
  const file = `${OUT}aurora-app-block.png`;
  screenshot(BASE + path, file);
  console.log(`${file}  ←  ${BASE}${path}`);
}

if (OPERATOR) await appBlockPage();
else console.log('SCREENSHOT_OPERATOR not set: no app block screenshot (start the platform with OPERATOR_EMAILS=<it> and set it here)');
