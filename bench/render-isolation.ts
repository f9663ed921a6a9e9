import { createHash, randomBytes } from 'node:crypto';
import { benchDatabase, freePort, startServer, jsonClient, percentile, type Json, UNTHROTTLED } from './support.js';
import { themeFixture } from '../src/dev/theme-fixtures.js';

/**
 * `npm run bench:render-isolation` (docs/rendering.md, Performance): what hostile Liquid costs
 * other stores. The real web process serves three stores: a quiet one whose public read
 * (`GET /v1/storefront/:subdomain`) is measured, one whose live theme has the sections that once
 * stalled the process (20 `append` doublings then `split` and `where`; one output of 1,000
 * `sort`s that only stopping its thread ends), and one whose theme is the largest the Liquid
 * bounds let through (seven sections of 5,000 outputs each, at the file size limit). The quiet
 * store's reads are timed, one at a time, alone (the baseline) and while two clients load the
 * other stores' home pages without pause, live and as a preview of a draft in turn (as
 * test/storefront/rendering-isolation.test.ts does, which asserts what the pages are, not how long
 * they took), in alternating slices of BENCH_SLICE_SECONDS, for BENCH_SECONDS each. Printed: the
 * reads' p50, p99 and max in both, the ratio of the p99s, and the hostile pages' own times.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const SLICE = Number(process.env.BENCH_SLICE_SECONDS ?? 5);

const database = await benchDatabase();
const port = await freePort();
const env = {
  APP_ENV: 'development',
  MONGODB_URL: database.url,
  MONGODB_DB: `bench_isolation_${Date.now()}`,
  LOG_LEVEL: 'warn',
  PORT: String(port),
  ...UNTHROTTLED,
};
const web = await startServer('dist/src/web.js', { ...env, LOG_LEVEL: 'info' }, 'web.listening');
const api = `http://127.0.0.1:${port}`;
const call = jsonClient(api);

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The ember-liquid fixture with these sections on its home page, between the hero and the featured products. */
function emberWith(slug: string, sections: Record<string, string>): Json {
  const bundle = themeFixture('ember-liquid') as Json;
  bundle.package.slug = slug;
  for (const [key, source] of Object.entries(sections)) {
    bundle.sections[key] = { type: key, name: key, renderer_key: key, enabled_on: ['home'] };
    bundle.templates.home.sections[key] = { type: key };
    bundle.renderer.assets.push({
      path: `sections/${key}.liquid`,
      content_type: 'text/x-liquid',
      size: Buffer.byteLength(source),
      sha256: sha256(source),
      content: source,
    });
  }
  bundle.templates.home.order = ['hero', ...Object.keys(sections), 'featured'];
  // The package's file mirrors of its areas say the same as the areas, or go.
  bundle.renderer.assets = bundle.renderer.assets.filter((a: Json) => !/^(templates\/.*|sections\/manifest)\.json$/.test(a.path));
  return bundle;
}

try {
  const unique = randomBytes(3).toString('hex');
  const account = { email: `bench-isolation-${unique}@example.com`, password: 'benchmark password', name: 'Bench' };
  await call('POST', '/v1/auth/signup', account);
  const token: string = (await call('POST', '/v1/auth/signin', { email: account.email, password: account.password })).data.session.token;
  const auth = { authorization: `Bearer ${token}` };
  const store = async (name: string) => (await call('POST', '/v1/stores', { name, subdomain: `${name}-${unique}` }, auth)).data;
  const quiet = await store('quiet');
  for (let i = 0; i < 20; i++)
    await call(
      'POST',
      '/v1/products',
      { title: `Quiet mug ${i}`, status: 'active', variants: [{ price: 900, inventory_tracked: false }] },
      { ...auth, 'x-store-id': quiet.id },
    );

  const outputs = (n: number) => '{{ b }}'.repeat(n);
  const padded = (source: string) => `${source}{% comment %}${'x'.repeat(262_144 - source.length - 30)}{% endcomment %}`;
  /** A store with this theme live, and a preview of a draft of its home page (the hero's heading changed). */
  const themed = async (name: string, sections: Record<string, string>) => {
    const s = await store(name);
    const bundle = emberWith(`${name}-${unique}`, sections);
    const slug = bundle.package.slug;
    await call('POST', '/v1/themes/packages/upload', { bundle, submission_mode: 'private_install' }, auth);
    await call('POST', `/v1/themes/${slug}/install`, { store_id: s.id }, auth);
    const as = { ...auth, 'x-store-id': s.id };
    const home = (await call('GET', `/v1/themes/${slug}/editor`, undefined, as)).data.templates.home;
    const draft = structuredClone(home.live);
    draft.sections.hero.blocks.heading.settings.heading = 'Draft heading';
    await call('PUT', `/v1/themes/${slug}/editor/draft`, { template_key: 'home', content: draft, version: home.version }, as);
    const preview: string = (await call('POST', `/v1/themes/${slug}/preview-session`, { template_key: 'home' }, as)).data.token;
    return { subdomain: s.subdomain as string, queries: ['', `?preview_token=${preview}`] };
  };
  const hostile = await themed('hostile', {
    where:
      "{% assign s = 'a' %}{% for i in (1..20) %}{% assign s = s | append: s %}{% endfor %}{% assign arr = s | split: '' %}{{ arr | where: 'size', 1 | size }}",
    chain: `{% assign s = 'ihgfedcba' %}{% for i in (1..10) %}{% assign s = s | append: s %}{% endfor %}{% assign arr = s | split: '' %}{{ arr${' | sort'.repeat(1000)} | size }}`,
  });
  const big = await themed('big', Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`big${i}`, padded(outputs(4_990))])));

  const reads = { alone: [] as number[], loaded: [] as number[] };
  const pages: number[] = [];
  const readUrl = `${api}/v1/storefront/${quiet.subdomain}`;
  const readFor = async (ms: number, into: number[]) => {
    const until = performance.now() + ms;
    while (performance.now() < until) {
      const t0 = performance.now();
      const res = await fetch(readUrl);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${readUrl}: ${res.status}`);
      into.push(performance.now() - t0);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  const loadWhile = async (running: () => boolean, { subdomain, queries }: { subdomain: string; queries: string[] }) => {
    for (let i = 0; running(); i++) {
      const t0 = performance.now();
      const res = await fetch(`${api}/v1/storefront/${subdomain}/pages/home${queries[i % queries.length]}`);
      await res.text();
      if (res.status !== 200) throw new Error(`${subdomain} home: ${res.status}`);
      pages.push(performance.now() - t0);
    }
  };

  await readFor(1000, []); // warm
  for (let done = 0; done < SECONDS; done += SLICE) {
    await readFor(SLICE * 1000, reads.alone);
    let on = true;
    const load = [loadWhile(() => on, hostile), loadWhile(() => on, big)];
    await readFor(SLICE * 1000, reads.loaded);
    on = false;
    await Promise.all(load);
  }

  const row = (label: string, xs: number[]) =>
    `${label.padEnd(68)} p50 ${percentile(xs, 0.5).toFixed(1).padStart(6)} ms   p99 ${percentile(xs, 0.99).toFixed(1).padStart(6)} ms   max ${Math.max(...xs)
      .toFixed(0)
      .padStart(5)} ms   ${String(xs.length).padStart(5)} reads`;
  console.log(`\nA quiet store's GET /v1/storefront/:subdomain, one at a time, ${SECONDS} s each, in ${SLICE} s slices`);
  console.log(row('alone (baseline)', reads.alone));
  console.log(row('while two clients load hostile and largest Liquid pages and previews', reads.loaded));
  console.log(`ratio of p99 (loaded / alone): ${(percentile(reads.loaded, 0.99) / percentile(reads.alone, 0.99)).toFixed(2)}`);
  console.log(
    `the Liquid pages: ${pages.length}, p50 ${percentile(pages, 0.5).toFixed(0)} ms, p99 ${percentile(pages, 0.99).toFixed(0)} ms, max ${Math.max(...pages).toFixed(0)} ms`,
  );
} finally {
  web.kill('SIGTERM');
  await database.stop();
}
