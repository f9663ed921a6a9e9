import { expect } from 'chai';
import { scanLiquid } from '../../src/liquid-bounds.js';
import { PAGE_LIMITS, pageRendererOf } from '../../src/rendering/index.js';
import { useTestApp } from '../helpers/app.js';
import { compiledImports } from '../helpers/imports.js';
import { givenShop, type GivenShop } from '../helpers/factories.js';
import { bundleOf, setAsset, syncLiquidFiles } from '../helpers/theme-uploads.js';

const SF = '/v1/storefront';

/** Sections that once stalled the web process (issue 21, part 1). */
const HOSTILE = {
  // 20 doublings of a string, split into a million-element array, then one `where` over it: one filter call, seconds of CPU.
  where:
    "{% assign s = 'a' %}{% for i in (1..20) %}{% assign s = s | append: s %}{% endfor %}{% assign arr = s | split: '' %}{{ arr | where: 'size', 1 | size }}",
  // Within every bound of a file and a filter (9,216 items, under 10,000), one output of 1,000 sorts: no node boundary for a cooperative check.
  chain: `{% assign s = 'ihgfedcba' %}{% for i in (1..10) %}{% assign s = s | append: s %}{% endfor %}{% assign arr = s | split: '' %}{{ arr${' | sort'.repeat(1000)} | size }}`,
};

/** A file of `{{ b }}` outputs: liquidjs parses it in time quadratic in its size. */
const outputs = (count: number) => '{{ b }}'.repeat(count);

describe('Liquid never blocks the web process (rendering in worker threads)', function () {
  this.timeout(180_000);
  const { app, api } = useTestApp('rendering-isolation');

  async function upload(shop: GivenShop, bundle: Record<string, any>) {
    return api.post('/v1/themes/packages/upload', { bundle, submission_mode: 'private_install' }, { token: shop.merchant.token });
  }

  async function install(shop: GivenShop, bundle: Record<string, any>) {
    const up = await upload(shop, bundle);
    expect(up.status, JSON.stringify(up.body)).to.equal(201);
    const installed = await api.post(`/v1/themes/${bundle.package.slug}/install`, { store_id: shop.store.id }, { token: shop.merchant.token });
    expect(installed.status, JSON.stringify(installed.body)).to.equal(201);
  }

  /** The ember-liquid theme with these sections added to the home page, between its hero and its featured products. */
  function emberWith(sections: Record<string, string>) {
    const bundle = bundleOf('ember-liquid');
    for (const [key, source] of Object.entries(sections)) {
      bundle.sections[key] = { type: key, name: key, renderer_key: key, enabled_on: ['home'] };
      bundle.templates.home.sections[key] = { type: key };
      setAsset(bundle, `sections/${key}.liquid`, source);
    }
    bundle.templates.home.order = ['hero', ...Object.keys(sections), 'featured'];
    syncLiquidFiles(bundle);
    return bundle;
  }

  /** A draft of the home template (the hero's heading changed) and a preview session showing it: its token. */
  async function previewOfDraft(shop: GivenShop, slug: string): Promise<string> {
    const state = await api.get(`/v1/themes/${slug}/editor`, shop.as);
    expect(state.status, JSON.stringify(state.body)).to.equal(200);
    const home = structuredClone(state.body.data.templates.home.live);
    home.sections.hero.blocks.heading.settings.heading = 'Draft heading';
    const saved = await api.put(
      `/v1/themes/${slug}/editor/draft`,
      { template_key: 'home', content: home, version: state.body.data.templates.home.version },
      shop.as,
    );
    expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
    const session = await api.post(`/v1/themes/${slug}/preview-session`, { template_key: 'home' }, shop.as);
    expect(session.status, JSON.stringify(session.body)).to.equal(201);
    return session.body.data.token;
  }

  async function timedPage(shop: GivenShop, query = '') {
    const started = performance.now();
    const res = await fetch(`${app.url}${SF}/${shop.store.subdomain}/pages/home${query}`);
    const html = await res.text();
    return { status: res.status, html, ms: performance.now() - started };
  }

  it('starts render threads light: their code imports no domain, no database and no HTTP (a thread loads it before its first page)', () => {
    // The compiled files a render thread loads, followed through their relative imports.
    const { files, packages } = compiledImports('rendering/liquid/render-thread.js');
    const outside = files.filter((f) => !f.startsWith('rendering/') && !['html.js', 'liquid-bounds.js', 'merchant-html.js', 'own-keys.js'].includes(f));
    expect(outside, 'files of src/ outside the rendering and its pure helpers').to.deep.equal([]);
    expect(packages).to.deep.equal(['crypto', 'liquidjs', 'sanitize-html', 'worker_threads']);
  });

  it("counts a file's tags and outputs (each line of a liquid tag too) and its nesting; raw and comment contents are not Liquid", () => {
    const source = '<p>{{ a }}{% if x %}{% for i in y %}{{ i }}{% endfor %}{% endif %}</p>';
    expect(scanLiquid(source)).to.deep.equal({ chars: source.length, nodes: 6, depth: 2 });
    expect(scanLiquid('{%- liquid\n  if a\n    echo b\n  endif\n-%}')).to.include({ nodes: 4, depth: 1 });
    expect(scanLiquid('{% raw %}{{ x }}{% if %}{% endraw %}{{ y }}')).to.include({ nodes: 2, depth: 0 });
    expect(scanLiquid('{% comment %}{% if %}{{ x }}{% endcomment %}')).to.include({ nodes: 1, depth: 0 });
    expect(scanLiquid('{%- if a -%}{%- unless b -%}{%- case c -%}{%- endcase -%}{%- endunless -%}{%- endif -%}')).to.include({ nodes: 6, depth: 3 });
    expect(scanLiquid('{{ unclosed')).to.include({ nodes: 1 });
  });

  it('refuses, at upload and before parsing, a theme whose Liquid files are past the bounds', async () => {
    const shop = await givenShop(api);
    const huge = emberWith(Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`huge${i}`, outputs(Math.floor(500_000 / 7))])));
    const refused = await upload(shop, huge);
    expect([refused.status, refused.body.error?.code]).to.deep.equal([400, 'invalid_bundle']);
    expect(refused.body.error.details.join('\n')).to.match(/sections\/huge0\.liquid .*262144 characters/);
    const crowded = emberWith({ crowded: outputs(20_000) });
    expect((await upload(shop, crowded)).body.error.details.join('\n')).to.match(/sections\/crowded\.liquid .*5000 Liquid tags and outputs/);
    const deep = emberWith({ deep: `${'{% if true %}'.repeat(100)}x${'{% endif %}'.repeat(100)}` });
    expect((await upload(shop, deep)).body.error.details.join('\n')).to.match(/sections\/deep\.liquid .*nested deeper than 50/);
  });

  it('keeps another store answering (p99 under 100 ms) while hostile pages and previews of their drafts render, each within its deadline', async () => {
    const reader = await givenShop(api);
    const product = await api.post('/v1/products', { title: 'Quiet Mug', status: 'active', variants: [{ price: 900, inventory_tracked: false }] }, reader.as);
    expect(product.status).to.equal(201);

    // The largest theme the bounds let through: seven sections of 5,000 outputs each, padded to the file size limit (with a comment: the page stays small).
    const big = await givenShop(api);
    const padded = (source: string) => `${source}{% comment %}${'x'.repeat(262_144 - source.length - 30)}{% endcomment %}`;
    const bigBundle = emberWith(Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`big${i}`, padded(outputs(4_990))])));
    await install(big, bigBundle);
    const hostile = await givenShop(api);
    const hostileBundle = emberWith(HOSTILE);
    await install(hostile, hostileBundle);

    const bigPreview = await previewOfDraft(big, bigBundle.package.slug);
    const hostilePreview = await previewOfDraft(hostile, hostileBundle.package.slug);

    // The deadline of a page: compiling its theme (the layout), its time budget with what warming a thread up may add, the layout's minimum, and stopping a thread.
    const deadlineMs = PAGE_LIMITS.parseTimeMs + PAGE_LIMITS.pageBudgetMs + PAGE_LIMITS.warmupBudgetMs + 100 + 500;
    const pages: { status: number; html: string; ms: number; which: string }[] = [];
    let stop = false;
    const hammer = async (shop: GivenShop, which: string, queries: string[]) => {
      for (let i = 0; !stop; i++) pages.push({ ...(await timedPage(shop, queries[i % queries.length])), which });
    };
    const load = [hammer(big, 'big', ['', `?preview_token=${bigPreview}`]), hammer(hostile, 'hostile', ['', `?preview_token=${hostilePreview}`])];

    const reads: number[] = [];
    const until = Date.now() + 8_000;
    while (Date.now() < until) {
      const started = performance.now();
      const res = await fetch(`${app.url}${SF}/${reader.store.subdomain}`);
      await res.arrayBuffer();
      expect(res.status).to.equal(200);
      reads.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    stop = true;
    await Promise.all(load);

    reads.sort((a, b) => a - b);
    const p99 = reads[Math.floor(reads.length * 0.99)]!;
    expect(reads.length).to.be.greaterThan(100);
    expect(p99, `p99 of ${reads.length} reads (max ${reads.at(-1)!.toFixed(0)} ms)`).to.be.lessThan(100);

    const sectionsOf = {
      big: ['hero', ...Object.keys(bigBundle.templates.home.sections).filter((k) => k.startsWith('big')), 'featured'],
      hostile: ['hero', ...Object.keys(HOSTILE), 'featured'],
    };
    for (const which of ['big', 'hostile'] as const) {
      const of = pages.filter((p) => p.which === which);
      expect(of.length, which).to.be.greaterThan(2);
      for (const p of of) {
        expect(p.status, which).to.equal(200);
        expect(p.ms, `${which} page time`).to.be.lessThan(deadlineMs);
        // The page is whole: each section once, rendered or as its failure comment.
        for (const id of sectionsOf[which]) {
          const rendered = p.html.split(`id="shopify-section-${id}"`).length - 1;
          const failed = p.html.split(`<!-- section "${id}" failed to render (error `).length - 1;
          expect(rendered + failed, `${which} ${id}`).to.equal(1);
        }
        if (which === 'hostile')
          for (const key of Object.keys(HOSTILE))
            expect(p.html, key).to.match(new RegExp(`<!-- section "${key}" failed to render \\(error [0-9a-f]{12}\\) -->`));
      }
      // A thread new to the theme version may spend a page's time parsing: its first page of the
      // theme. That is at most one page per thread the pool ran (the stopped ones' replacements
      // included); every other page renders whole, in the layout.
      const { threads, stopped } = pageRendererOf(app.platform).stats();
      const partial = of.filter((p) => !p.html.includes('<footer class="site-footer">') || !p.html.includes('class="featured-products"'));
      expect(partial.length, `${which} pages not whole of ${of.length}`).to.be.at.most(threads + stopped);
      expect(of.length - partial.length, `${which} pages whole`).to.be.greaterThan(0);
    }
    // The 1,000 sorts were stopped by stopping their thread, then paused: not a thread stopped per
    // page. The pause is per theme source, so the live theme and the draft each pay once, and as
    // often again when two pages of one reach the section before its first stop is recorded.
    const hostilePages = pages.filter((p) => p.which === 'hostile').length;
    expect(pageRendererOf(app.platform).stats().stopped).to.be.within(1, 4);
    expect(hostilePages, 'hostile pages rendered').to.be.greaterThan(8);
    const previews = pages.filter((p) => p.html.includes('Draft heading'));
    expect(previews.length).to.be.greaterThan(0);
  });

  it('compiles a theme version once per thread: a draft preview parses nothing more', async () => {
    const shop = await givenShop(api);
    const bundle = emberWith({ extra: '<p>{{ section.id }}</p>' });
    await install(shop, bundle);
    expect((await timedPage(shop)).status).to.equal(200);
    const renderer = pageRendererOf(app.platform);
    const before = renderer.stats().parses;
    const token = await previewOfDraft(shop, bundle.package.slug);
    for (let i = 0; i < 4; i++) {
      const preview = await timedPage(shop, `?preview_token=${token}`);
      expect(preview.html).to.include('Draft heading');
      expect((await timedPage(shop)).html).to.not.include('Draft heading');
    }
    // The version was compiled by the first page: drafts change templates and settings, never the Liquid sources.
    expect(renderer.stats().parses).to.equal(before);
  });
});
