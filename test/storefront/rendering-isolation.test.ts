import { expect } from 'chai';
import { scanLiquid } from '../../src/liquid-bounds.js';
import { pageRendererOf } from '../../src/rendering/index.js';
import { useTestApp } from '../helpers/app.js';
import { compiledImports } from '../helpers/imports.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
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

describe('Liquid never blocks the web process (rendering in worker threads)', () => {
  const { app, api } = useTestApp('rendering-isolation');

  async function upload(shop: GivenMerchantWithStore, bundle: Record<string, any>) {
    return api.post('/v1/themes/packages/upload', { bundle, submission_mode: 'private_install' }, { token: shop.merchant.token });
  }

  async function install(shop: GivenMerchantWithStore, bundle: Record<string, any>) {
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
  async function previewOfDraft(shop: GivenMerchantWithStore, slug: string): Promise<string> {
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

  async function page(shop: GivenMerchantWithStore, query = '') {
    const res = await fetch(`${app.url}${SF}/${shop.store.subdomain}/pages/home${query}`);
    return { status: res.status, html: await res.text() };
  }

  /** The failures of `section` the web process logged, by why: its thread stopped, or not run while paused after a stop. */
  const failuresOf = (section: string) => {
    const lines = app.logLines.filter((l) => l.includes('"event":"render.section_failed"') && l.includes(`"section":"${section}"`));
    return { stopped: lines.filter((l) => l.includes('did not answer within')).length, paused: lines.filter((l) => l.includes('not run until')).length };
  };

  it('starts render threads light: their code imports no domain, no database and no HTTP (a thread loads it before its first page)', () => {
    // The compiled files a render thread loads, followed through their relative imports.
    const { files, packages } = compiledImports('rendering/liquid/render-thread.js');
    const outside = files.filter(
      (f) =>
        !f.startsWith('rendering/') && !['browse-sorts.js', 'html.js', 'liquid-bounds.js', 'liquid-paginate.js', 'merchant-html.js', 'own-keys.js'].includes(f),
    );
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
    const shop = await givenMerchantWithStore(api);
    const huge = emberWith(Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`huge${i}`, outputs(Math.floor(500_000 / 7))])));
    const refused = await upload(shop, huge);
    expect([refused.status, refused.body.error?.code]).to.deep.equal([400, 'invalid_bundle']);
    expect(refused.body.error.details.join('\n')).to.match(/sections\/huge0\.liquid .*262144 characters/);
    const crowded = emberWith({ crowded: outputs(20_000) });
    expect((await upload(shop, crowded)).body.error.details.join('\n')).to.match(/sections\/crowded\.liquid .*5000 Liquid tags and outputs/);
    const deep = emberWith({ deep: `${'{% if true %}'.repeat(100)}x${'{% endif %}'.repeat(100)}` });
    expect((await upload(shop, deep)).body.error.details.join('\n')).to.match(/sections\/deep\.liquid .*nested deeper than 50/);
  });

  it('keeps another store answering while hostile pages and previews of their drafts render: each page whole, or its hostile sections failed', async () => {
    const reader = await givenMerchantWithStore(api);
    const product = await api.post('/v1/products', { title: 'Quiet Mug', status: 'active', variants: [{ price: 900, inventory_tracked: false }] }, reader.as);
    expect(product.status).to.equal(201);

    // The largest theme the bounds let through: seven sections of 5,000 outputs each, padded to the file size limit (with a comment: the page stays small).
    const big = await givenMerchantWithStore(api);
    const padded = (source: string) => `${source}{% comment %}${'x'.repeat(262_144 - source.length - 30)}{% endcomment %}`;
    const bigBundle = emberWith(Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`big${i}`, padded(outputs(4_990))])));
    await install(big, bigBundle);
    const hostile = await givenMerchantWithStore(api);
    const hostileBundle = emberWith(HOSTILE);
    await install(hostile, hostileBundle);

    const bigPreview = await previewOfDraft(big, bigBundle.package.slug);
    const hostilePreview = await previewOfDraft(hostile, hostileBundle.package.slug);

    // Two clients load the big and the hostile store's home pages, live and previewed in turn, while a third reads the quiet
    // store, until each has rendered enough pages (a count, not a time: how long that takes is bench:render-isolation's).
    const pages: { status: number; html: string; which: 'big' | 'hostile' }[] = [];
    const of = (which: 'big' | 'hostile') => pages.filter((p) => p.which === which);
    const enough = () => of('big').length >= 4 && of('hostile').length >= 10;
    const hammer = async (shop: GivenMerchantWithStore, which: 'big' | 'hostile', queries: string[]) => {
      for (let i = 0; !enough(); i++) pages.push({ ...(await page(shop, queries[i % queries.length])), which });
    };
    let loading = true;
    const load = Promise.all([
      hammer(big, 'big', ['', `?preview_token=${bigPreview}`]),
      hammer(hostile, 'hostile', ['', `?preview_token=${hostilePreview}`]),
    ]).finally(() => (loading = false));
    load.catch(() => {}); // awaited below, after the reads
    const reads: number[] = [];
    while (loading) {
      const res = await fetch(`${app.url}${SF}/${reader.store.subdomain}`);
      await res.arrayBuffer();
      reads.push(res.status);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await load;
    expect(reads.length, 'reads of the quiet store while the pages rendered').to.be.greaterThan(0);
    expect(reads.filter((s) => s !== 200)).to.deep.equal([]);

    const sectionsOf = {
      big: ['hero', ...Object.keys(bigBundle.templates.home.sections).filter((k) => k.startsWith('big')), 'featured'],
      hostile: ['hero', ...Object.keys(HOSTILE), 'featured'],
    };
    for (const which of ['big', 'hostile'] as const) {
      for (const p of of(which)) {
        expect(p.status, which).to.equal(200);
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
      const partial = of(which).filter((p) => !p.html.includes('<footer class="site-footer">') || !p.html.includes('class="featured-products"'));
      expect(partial.length, `${which} pages not whole of ${of(which).length}`).to.be.at.most(threads + stopped);
      expect(of(which).length - partial.length, `${which} pages whole`).to.be.greaterThan(0);
    }
    // The 1,000 sorts were stopped by stopping their thread, then paused: not a thread stopped per
    // page. The pause is per theme source, so the live theme and the draft each pay once, and as
    // often again when two pages of one reach the section before its first stop is recorded.
    const chain = failuresOf('chain');
    expect(chain.stopped, 'the chain stopped with its thread').to.be.within(1, 4);
    expect(chain.paused, 'hostile pages that skipped the paused chain').to.be.greaterThan(0);
    expect(pages.filter((p) => p.html.includes('Draft heading')).length, 'previews of the drafts').to.be.greaterThan(0);
  });

  it('compiles a theme version once per thread: a draft preview parses nothing more', async () => {
    const shop = await givenMerchantWithStore(api);
    const bundle = emberWith({ extra: '<p>{{ section.id }}</p>' });
    await install(shop, bundle);
    expect((await page(shop)).status).to.equal(200);
    const renderer = pageRendererOf(app.platform);
    const before = renderer.stats().parses;
    const token = await previewOfDraft(shop, bundle.package.slug);
    for (let i = 0; i < 4; i++) {
      const preview = await page(shop, `?preview_token=${token}`);
      expect(preview.html).to.include('Draft heading');
      expect((await page(shop)).html).to.not.include('Draft heading');
    }
    // The version was compiled by the first page: drafts change templates and settings, never the Liquid sources.
    expect(renderer.stats().parses).to.equal(before);
  });
});
