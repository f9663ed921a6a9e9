import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { Liquid, type Template } from 'liquidjs';
import { openPlatform } from '../src/boot.js';
import { loadConfig } from '../src/config.js';
import { createLog } from '../src/log.js';
import { createPageRenderer } from '../src/rendering/index.js';
import { pageObjects, sectionObject } from '../src/rendering/liquid/objects.js';
import { formatMoney } from '../src/rendering/money.js';
import { themeSettings } from '../src/rendering/sections.js';
import { findStoreById } from '../src/stores/index.js';
import { liveRenderableTheme } from '../src/themes/index.js';
import { benchDatabase, freePort, startServer, jsonClient, percentile, type Json, UNTHROTTLED } from './support.js';
import { themeFixture } from '../src/dev/theme-fixtures.js';

/**
 * `npm run bench:render` (docs/rendering.md, Performance): a 10-section home page (5 hero banners
 * with blocks, 5 featured-product grids of 8 products each, in the layout) of the ember-liquid
 * fixture theme, installed live in a store of 24 products, rendered
 *
 * - by the platform's renderer (`renderPrepared`: section resolution, the Liquid objects, the
 *   escaping, the section wrappers, the limits), from the page's data read once;
 * - by raw liquidjs, the baseline: the same templates parsed once, the same data (the scope
 *   objects the platform built), the same few filters in their plainest form, liquidjs's
 *   defaults (no output escaping, no limits);
 *
 * one page at a time, alternating, BENCH_RUNS times each (p50, p99, pages per second, and the
 * ratio of throughputs). Then, for the whole path, `GET /v1/storefront/:subdomain/pages/home` on
 * the real web process (store, theme and products read per request) under autocannon, and the
 * shop's host-routed `GET /` (docs/shop.md) beside `GET /health` on one connection.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 2000);
const HTTP_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

const database = await benchDatabase();
const port = await freePort();
const env = {
  APP_ENV: 'development',
  MONGODB_URL: database.url,
  MONGODB_DB: `bench_render_${Date.now()}`,
  LOG_LEVEL: 'warn',
  PORT: String(port),
  ...UNTHROTTLED,
};
const web = await startServer('dist/src/web.js', { ...env, LOG_LEVEL: 'info' }, 'web.listening');
const api = `http://127.0.0.1:${port}`;
const call = jsonClient(api);
const { platform, close } = await openPlatform(loadConfig(env), 'bench', { log: createLog('warn', {}) });

try {
  // A merchant, a store, 24 products, the collection the featured sections show.
  const unique = randomBytes(3).toString('hex');
  const account = { email: `bench-render-${unique}@example.com`, password: 'benchmark password', name: 'Bench' };
  await call('POST', '/v1/auth/signup', account);
  const token: string = (await call('POST', '/v1/auth/signin', { email: account.email, password: account.password })).data.session.token;
  const auth = { authorization: `Bearer ${token}` };
  const created = (await call('POST', '/v1/stores', { name: 'Bench Pottery', subdomain: `bench-${unique}` }, auth)).data;
  const as = { ...auth, 'x-store-id': created.id };
  const ids: string[] = [];
  for (let i = 0; i < 24; i++) {
    const p = await call(
      'POST',
      '/v1/products',
      {
        title: `Mug no. ${i + 1} <glazed>`,
        description_html: '<p>Wood-fired stoneware.</p>',
        status: 'active',
        variants: [{ price: 2400 + i * 100, inventory_tracked: false }],
      },
      as,
    );
    ids.push(p.data.id);
  }
  await call('POST', '/v1/products/collections', { type: 'manual', title: 'New', handle: 'new', product_ids: ids.slice(0, 12) }, as);

  // The fixture theme with a home page of 10 sections.
  const bundle = themeFixture('ember-liquid') as Json;
  bundle.package.slug = `bench-ember-${unique}`;
  const home = bundle.templates.home;
  const hero = home.sections.hero;
  const featured = home.sections.featured;
  home.sections = {};
  home.order = [];
  for (let i = 0; i < 5; i++) {
    home.sections[`hero${i}`] = structuredClone(hero);
    home.sections[`featured${i}`] = { ...structuredClone(featured), settings: { ...featured.settings, title: `Fresh from the kiln ${i}` } };
    home.order.push(`hero${i}`, `featured${i}`);
  }
  // The file mirror of the home template, when the package ships one, says the same.
  const mirror = bundle.renderer.assets.find((a: Json) => a.path === 'templates/home.json');
  if (mirror) bundle.renderer.assets = bundle.renderer.assets.filter((a: Json) => a !== mirror);
  await call('POST', '/v1/themes/packages/upload', { bundle, submission_mode: 'private_install' }, as);
  await call('POST', `/v1/themes/${bundle.package.slug}/install`, { store_id: created.id, publish: true }, auth);

  const store = (await findStoreById(platform, created.id))!;
  const theme = (await liveRenderableTheme(platform, store.id, store.live_theme_id))!;
  const renderer = createPageRenderer();
  const request = { template: 'home' as const };
  const prepared = await renderer.prepare(platform, store, theme, request);
  const platformHtml = (await renderer.renderPrepared(platform, store, theme, request, prepared)).html;
  const failed = platformHtml.match(/failed to render/g);
  if (failed) throw new Error(`the bench page has failing sections: ${platformHtml.slice(0, 2000)}`);

  // The baseline: raw liquidjs over the same files, with the same data.
  const files = new Map<string, string>(theme.bundle.renderer.assets.filter((a) => a.path.endsWith('.liquid')).map((a) => [a.path, a.content!]));
  const raw = new Liquid({
    fs: {
      exists: async (f: string) => files.has(f),
      existsSync: (f: string) => files.has(f),
      readFile: async (f: string) => files.get(f)!,
      readFileSync: (f: string) => files.get(f)!,
      resolve: (dir: string, file: string, ext: string) => `${dir}/${file}${ext}`,
    },
    root: ['snippets'],
    partials: ['snippets'],
    layouts: ['layout'],
    extname: '.liquid',
    relativeReference: false,
    cache: true,
  });
  const { t } = prepared;
  raw.registerFilter('money', (v: unknown) => formatMoney(v, store.currency));
  raw.registerFilter('money_with_currency', (v: unknown) => formatMoney(v, store.currency, true));
  raw.registerFilter('t', (key: unknown) => t(String(key)) ?? String(key));
  raw.registerFilter('asset_url', (name: unknown) => `/assets/${String(name)}`);
  raw.registerFilter('image_url', (image: unknown) => String((image as { src?: unknown })?.src ?? image ?? ''));
  raw.registerFilter('img_url', (image: unknown) => String((image as { src?: unknown })?.src ?? image ?? ''));
  raw.registerFilter('stylesheet_tag', (url: unknown) => `<link rel="stylesheet" href="${String(url)}">`);
  raw.registerFilter('script_tag', (url: unknown) => `<script src="${String(url)}" defer></script>`);
  const objects = pageObjects(theme.bundle, prepared.page, themeSettings(theme, t));
  const sectionTemplates = new Map<string, Template[]>();
  for (const s of prepared.sections)
    if (!sectionTemplates.has(s.rendererKey)) sectionTemplates.set(s.rendererKey, raw.parse(files.get(`sections/${s.rendererKey}.liquid`)!));
  const layout = raw.parse(files.get('layout/theme.liquid')!);
  const scopes = prepared.sections.map((s) => ({ ...objects, section: sectionObject(theme.bundle, s) }));
  const renderRaw = async () => {
    const parts: string[] = [];
    for (let i = 0; i < prepared.sections.length; i++) {
      const s = prepared.sections[i]!;
      parts.push(`<div id="shopify-section-${s.id}" class="shopify-section">${await raw.render(sectionTemplates.get(s.rendererKey)!, scopes[i]!)}</div>`);
    }
    return raw.render(layout, { ...objects, content_for_layout: parts.join('\n') });
  };
  const rawHtml = await renderRaw();
  if (process.env.BENCH_DUMP) {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${process.env.BENCH_DUMP}.platform.html`, platformHtml);
    writeFileSync(`${process.env.BENCH_DUMP}.raw.html`, rawHtml);
  }

  // Warm both, then alternate.
  for (let i = 0; i < 200; i++) {
    await renderer.renderPrepared(platform, store, theme, request, prepared);
    await renderRaw();
  }
  const platformMs: number[] = [];
  const rawMs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    let t0 = performance.now();
    await renderer.renderPrepared(platform, store, theme, request, prepared);
    platformMs.push(performance.now() - t0);
    t0 = performance.now();
    await renderRaw();
    rawMs.push(performance.now() - t0);
  }
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const row = (label: string, xs: number[]) =>
    `${label.padEnd(46)} p50 ${percentile(xs, 0.5).toFixed(2).padStart(6)} ms   p99 ${percentile(xs, 0.99).toFixed(2).padStart(6)} ms   ${(xs.length / (sum(xs) / 1000)).toFixed(0).padStart(6)} pages/s`;

  // The whole path over HTTP.
  const pageUrl = `${api}/v1/storefront/${store.subdomain}/pages/home`;
  const http = await autocannon({ url: pageUrl, connections: 4, duration: HTTP_SECONDS });
  if (http.non2xx > 0 || http.errors > 0) throw new Error(`${pageUrl}: ${http.non2xx} non-2xx, ${http.errors} errors`);

  console.log(
    `\nA 10-section home page (ember-liquid: 5 hero banners, 5 grids of 8 products, in the layout); ${platformHtml.length} characters (raw liquidjs: ${rawHtml.length})`,
  );
  console.log(row('platform renderer (renderPrepared)', platformMs));
  console.log(row('baseline: raw liquidjs, same templates and data', rawMs));
  console.log(`ratio (platform / raw liquidjs throughput): ${(sum(rawMs) / sum(platformMs)).toFixed(2)}`);
  console.log(
    `GET /v1/storefront/:subdomain/pages/home over HTTP, 4 connections, ${HTTP_SECONDS} s: ${(http.requests.total / HTTP_SECONDS).toFixed(0)} req/s, p50 ${http.latency.p50} ms, p99 ${http.latency.p99} ms`,
  );

  // The shop's host-routed path (docs/shop.md): `GET /` with `Host: <subdomain>.localhost`, as a
  // browser without a cart asks for it; one connection (a shopper's latency) and four (throughput).
  const shopHost = { host: `${store.subdomain}.localhost:${port}` };
  for (const connections of [1, 4]) {
    const shop = await autocannon({ url: `${api}/`, headers: shopHost, connections, duration: HTTP_SECONDS });
    if (shop.non2xx > 0 || shop.errors > 0) throw new Error(`shop home: ${shop.non2xx} non-2xx, ${shop.errors} errors`);
    console.log(
      `GET / on ${store.subdomain}.localhost (the shop), ${connections} connection${connections > 1 ? 's' : ''}, ${HTTP_SECONDS} s: ${(shop.requests.total / HTTP_SECONDS).toFixed(0)} req/s, p50 ${shop.latency.p50} ms, p99 ${shop.latency.p99} ms`,
    );
  }
  const baseline = await autocannon({ url: `${api}/health`, connections: 1, duration: HTTP_SECONDS });
  console.log(
    `baseline: GET /health, 1 connection, ${HTTP_SECONDS} s: ${(baseline.requests.total / HTTP_SECONDS).toFixed(0)} req/s, p50 ${baseline.latency.p50} ms`,
  );
} finally {
  await close();
  web.kill('SIGTERM');
  await database.stop();
}
