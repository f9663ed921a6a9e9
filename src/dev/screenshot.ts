import { themeFixture } from './theme-fixtures.js';
import { apiClient, type Json } from './api-client.js';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { encodePng } from './png.js';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './chromium.js';
import { installApp, publishApp } from './screenshot-apps.js';
import { shootAtWidths } from './screenshot-widths.js';
import {
  addToCart,
  checkOut,
  chooseShipping,
  collectionToProduct,
  fillInformation,
  homeToCollection,
  open,
  payNow,
  placeOrder,
  register,
  SAMPLE_SHOPPER,
  shopUrl,
} from './shop-flow.js';

/**
 * `npm run screenshot` (docs/shop.md, "Screenshots"): what a shopper sees, in a real browser.
 * Against a running platform (`npm start`; BASE_URL, default http://localhost:3000) it makes a
 * merchant and a store with products (each with a generated photo, uploaded as media), the
 * collections the fixtures feature, US shipping rates and the sandbox payment provider; then,
 * for each fixture theme (fixtures/themes/, a private install) live in turn, headless Chromium
 * (Debian's `chromium`, src/dev/chromium.ts; CHROMIUM to name another binary), driven by
 * playwright-core through the same forms as the browser tests (src/dev/shop-flow.ts), goes
 * home → collection → product → Add to cart → cart → Check out → shipping step → Place order →
 * Pay now on the store's own host (`http://<subdomain>.localhost:<port>/`; STOREFRONT_BASE_DOMAIN
 * as the platform's) and saves docs/screenshots/<theme>-<page>.png for home, collection,
 * product, cart, checkout (the shipping step with its totals) and confirmation. With
 * SCREENSHOT_OPERATOR set to an address in the platform's OPERATOR_EMAILS, the merchant is that
 * operator: it also publishes an app with a theme app block, installs it, and saves the aurora
 * home page with the block placed in its hero (docs/screenshots/aurora-app-block.png;
 * docs/extensions.md, Storefront app blocks).
 */
const BASE = (process.env.BASE_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const BASE_DOMAIN = process.env.STOREFRONT_BASE_DOMAIN ?? 'localhost';
const PORT = new URL(BASE).port || (new URL(BASE).protocol === 'https:' ? '443' : '80');
const OUT = new URL('../../../docs/screenshots/', import.meta.url).pathname;

const call = apiClient(BASE);

/** A product photo stand-in: a soft two-tone backdrop with a round object on a shelf, as a PNG. */
function productPhoto(size: number, [r, g, b]: [number, number, number]): Buffer {
  const rows: Buffer[] = [];
  const [cx, cy, radius, shelf] = [size / 2, size * 0.52, size * 0.26, size * 0.74];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(size * 3);
    for (let x = 0; x < size; x++) {
      const wall = 0.9 + 0.1 * (1 - y / size);
      let [pr, pg, pb] = y > shelf ? [0.82, 0.8, 0.77] : [0.95 * wall, 0.93 * wall, 0.9 * wall];
      const d = Math.hypot(x - cx, y - cy);
      if (d < radius) {
        const light = 0.75 + 0.35 * (1 - Math.hypot(x - (cx - radius / 3), y - (cy - radius / 3)) / (radius * 1.6));
        [pr, pg, pb] = [(r / 255) * light, (g / 255) * light, (b / 255) * light];
      } else if (y > shelf && Math.abs(x - cx) < radius * 1.1 && y < shelf + size * 0.04) {
        [pr, pg, pb] = [pr * 0.8, pg * 0.8, pb * 0.8]; // the object's shadow
      }
      row[x * 3] = Math.max(0, Math.min(255, Math.round(pr * 255)));
      row[1 + x * 3] = Math.max(0, Math.min(255, Math.round(pg * 255)));
      row[2 + x * 3] = Math.max(0, Math.min(255, Math.round(pb * 255)));
    }
    rows.push(row);
  }
  return encodePng(size, size, 3, Buffer.concat(rows));
}

/** Uploads the photo as the store's media (docs/media.md): its id, or null (with a warning) when the platform takes none. */
async function uploadPhoto(title: string, colour: [number, number, number], headers: Record<string, string>): Promise<string | null> {
  const form = new FormData();
  form.append('file', new Blob([productPhoto(800, colour)], { type: 'image/png' }), `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.png`);
  form.append('alt', title);
  const res = await fetch(`${BASE}/v1/media`, { method: 'POST', headers, body: form });
  if (res.status !== 201) {
    console.warn(`POST /v1/media for ${title}: ${res.status} ${(await res.text()).slice(0, 300)} (the product goes without a photo)`);
    return null;
  }
  return ((await res.json()) as Json).data.id as string;
}

const unique = randomBytes(3).toString('hex');
const OPERATOR = process.env.SCREENSHOT_OPERATOR;
const account = { email: OPERATOR ?? `screenshots-${unique}@example.com`, password: 'screenshot password', name: 'Screenshots' };
await call('POST', '/v1/auth/signup', account);
const token: string = (await call('POST', '/v1/auth/signin', { email: account.email, password: account.password })).data.session.token;
const auth = { authorization: `Bearer ${token}` };
const store = (await call('POST', '/v1/stores', { name: 'Lumen & Loom', subdomain: `lumen-${unique}` }, auth)).data;
const as = { ...auth, 'x-store-id': store.id };

const products: { title: string; price: number; body: string; colour: [number, number, number] }[] = [
  { title: 'Linen Throw Blanket', price: 8900, body: 'Stonewashed linen, woven in Portugal.', colour: [196, 170, 140] },
  { title: 'Ceramic Pour-Over Set', price: 5400, body: 'A dripper, a carafe and two cups in speckled clay.', colour: [120, 140, 150] },
  { title: 'Beeswax Candle Trio', price: 3200, body: 'Hand-dipped, unscented, forty hours each.', colour: [222, 180, 90] },
  { title: 'Walnut Serving Board', price: 6500, body: 'Oiled black walnut with a juice groove.', colour: [110, 75, 50] },
];
const created: Json[] = [];
for (const p of products) {
  const media = await uploadPhoto(p.title, p.colour, as);
  created.push(
    (
      await call(
        'POST',
        '/v1/products',
        {
          title: p.title,
          description_html: `<p>${p.body}</p>`,
          status: 'active',
          tags: ['home'],
          variants: [{ price: p.price, inventory_tracked: false }],
          ...(media ? { media_ids: [media] } : {}),
        },
        as,
      )
    ).data,
  );
}
// The collections the fixtures' featured sections and hero buttons link to.
for (const [title, handle] of [
  ['Bestsellers', 'bestsellers'],
  ['New arrivals', 'new-arrivals'],
  ['New', 'new'],
]) {
  await call('POST', '/v1/products/collections', { type: 'manual', title, handle, product_ids: created.map((p) => p.id) }, as);
}
await call(
  'PUT',
  '/v1/shipping',
  {
    rates: [
      { code: 'standard', name: 'Standard (3–5 days)', price: 700, country_code: 'US' },
      { code: 'express', name: 'Express (next day)', price: 2500, country_code: 'US' },
      { code: 'standard', name: 'International', price: 3000, country_code: '*' },
    ],
  },
  as,
);
await call('PUT', '/v1/payments/providers/sandbox', { enabled: true, credentials: { key_secret: `sandbox_${randomBytes(12).toString('hex')}` } }, as);

const shop = (path = '/') => shopUrl(store.subdomain, PORT, path, BASE_DOMAIN);

/** A theme's page at 1280 and 390 px (`<name>.png`, `<name>-390.png`). */
async function shot(page: Page, name: string): Promise<void> {
  await shootAtWidths(page, `${OUT}${name}`);
}

/** The theme's header menu opened on a phone (its `<details>`), the top of the page: `<name>-menu-390.png`. */
async function menuShot(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator('header details summary').first().click();
  const file = `${OUT}${name}-menu-390.png`;
  await page.screenshot({ path: file });
  console.log(`${file}  ←  ${page.url()}`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** The live theme's pages, home to confirmation, through the shop's forms. */
async function themePages(browser: Browser, name: string): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    await homeToCollection(page, shop('/'), ['bestsellers', 'new-arrivals', 'new', 'all']).catch(async (err: Error) => {
      console.warn(`${name}: ${err.message}; opening /collections/bestsellers instead`);
      await open(page, shop('/collections/bestsellers'));
    });
    await shot(page, `${name}-collection`);
    await open(page, shop('/'));
    await shot(page, `${name}-home`);
    await menuShot(page, name);
    await page.goto(shop('/no-such-page'));
    await shot(page, `${name}-not-found`);
    await open(page, shop('/collections/bestsellers'));
    await collectionToProduct(page, created[0].handle);
    await shot(page, `${name}-product`);
    await addToCart(page);
    await open(page, shop(`/products/${created[2].handle}`));
    await addToCart(page);
    await shot(page, `${name}-cart`);
    // The shop's own pages (checkout, payment, account, errors) are the same under every theme: once.
    const builtIns = name === 'aurora';
    if (builtIns) {
      await register(page, shop('/account/register'), {
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: `ada-${unique}@example.com`,
        password: 'screenshot password',
      });
      await open(page, shop('/cart'));
    }
    await checkOut(page);
    if (builtIns) await shootAtWidths(page, `${OUT}shop-checkout-information`);
    await fillInformation(page, SAMPLE_SHOPPER('ada@example.com'));
    await chooseShipping(page, { shipping_option: 'standard', payment_provider: 'sandbox' });
    await shot(page, `${name}-checkout`);
    await placeOrder(page);
    if (builtIns) await shootAtWidths(page, `${OUT}shop-payment`);
    await payNow(page);
    await shot(page, `${name}-confirmation`);
    if (builtIns) {
      await open(page, shop('/account'));
      await shootAtWidths(page, `${OUT}shop-account`);
      await page.goto(shop('/products/no-such-product'));
      await shootAtWidths(page, `${OUT}shop-not-found`);
      const visitor = await context.browser()!.newContext({ viewport: { width: 1280, height: 900 } });
      const signedOut = await visitor.newPage();
      await open(signedOut, shop('/account/login'));
      await shootAtWidths(signedOut, `${OUT}shop-login`);
      await visitor.close();
    }
  } finally {
    await context.close();
  }
}

mkdirSync(OUT, { recursive: true });
const browser = await launchChromium();
try {
  for (const fixture of ['aurora', 'ember-liquid']) {
    const bundle = themeFixture(fixture) as Json;
    bundle.package.slug = `${bundle.package.slug}-${unique}`;
    bundle.package.pricing_type = 'free';
    bundle.package.price = 0;
    await call('POST', '/v1/themes/packages/upload', { bundle, submission_mode: 'private_install' }, as);
    await call('POST', `/v1/themes/${bundle.package.slug}/install`, { store_id: store.id, publish: true }, auth);
    await themePages(browser, fixture.replace(/-liquid$/, ''));
  }
  if (OPERATOR) await appBlockPage();
  else console.log('SCREENSHOT_OPERATOR not set: no app block screenshot (start the platform with OPERATOR_EMAILS=<it> and set it here)');
} finally {
  await browser.close();
}

/** An app with a theme app block, published by the operator and installed in the store; aurora with the block in its hero. */
async function appBlockPage(): Promise<void> {
  const handle = `star-reviews-${unique}`;
  const developer = { name: 'Star Reviews', site: 'https://stars.example.com', email: 'apps@example.com' };
  const submitted = await publishApp(call, auth, developer, {
    name: 'Star Reviews',
    handle,
    scopes: ['read_products'],
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
  });
  await installApp(call, auth, { appId: submitted.app.id, handle, storeId: store.id, scopes: ['read_products'] });
  const bundle = themeFixture('aurora') as Json;
  bundle.package.slug = `aurora-blocks-${unique}`;
  bundle.package.pricing_type = 'free';
  bundle.package.price = 0;
  bundle.sections.hero.accepts_app_blocks = true;
  const hero = bundle.templates.home.sections.hero;
  hero.blocks.stars = { type: `@app/${handle}/star-rating`, settings: {} };
  if (hero.block_order) hero.block_order.push('stars');
  await call('POST', '/v1/themes/packages/upload', { bundle, submission_mode: 'private_install' }, as);
  await call('POST', `/v1/themes/${bundle.package.slug}/install`, { store_id: store.id, publish: true }, auth);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    await open(page, shop('/'));
    if ((await page.locator('.app-block__heading').count()) === 0) throw new Error(`${page.url()}: the app block did not render`);
    await shot(page, 'aurora-app-block');
  } finally {
    await context.close();
  }
}
