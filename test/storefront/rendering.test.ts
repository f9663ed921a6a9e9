import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { createPageRenderer, renderPage } from '../../src/rendering/index.js';
import { findStoreById } from '../../src/stores/index.js';
import { liveRenderableTheme, type RenderableTheme } from '../../src/themes/index.js';
import { useTestApp } from '../helpers/app.js';
import { givenProduct } from '../helpers/catalog.js';
import { givenAppBlockApp, installBlocks } from '../helpers/apps.js';
import { givenMerchant, givenMerchantWithStore, type As, type GivenMerchantWithStore } from '../helpers/factories.js';
import { bundleOf, setAsset, syncLiquidFiles } from '../helpers/theme-uploads.js';

const SF = '/v1/storefront';
const XSS = '<script>alert(1)</script>';

/** The ids of `attr="…"` values in the order the HTML has them, among `ids`. */
function orderIn(html: string, attr: string, ids: readonly string[]): string[] {
  return [...html.matchAll(new RegExp(`${attr}="([^"]+)"`, 'g'))].map((m) => m[1]!).filter((id) => ids.includes(id));
}

describe('Storefront rendering (GET /v1/storefront/:subdomain/pages/:template)', () => {
  const { app, api } = useTestApp('storefront-rendering', { OPERATOR_EMAILS: 'op-rendering@example.com' });

  /** A new shop whose live theme is `bundle` (a private install: no review). */
  async function shopWithTheme(bundle: Record<string, any>): Promise<GivenMerchantWithStore> {
    const shop = await givenMerchantWithStore(api);
    const up = await api.post('/v1/themes/packages/upload', { bundle, submission_mode: 'private_install' }, { token: shop.merchant.token });
    expect(up.status, JSON.stringify(up.body)).to.equal(201);
    const installed = await api.post(`/v1/themes/${bundle.package.slug}/install`, { store_id: shop.store.id }, { token: shop.merchant.token });
    expect(installed.status, JSON.stringify(installed.body)).to.equal(201);
    return shop;
  }

  /** A product at 12.50 unless `body` says otherwise. */
  const givenItem = (as: As, body: Record<string, unknown>) => givenProduct(api, as, { variants: [{ price: 1250, inventory_tracked: false }], ...body });

  async function givenCollection(as: As, handle: string, title: string, productIds: string[]) {
    const res = await api.post('/v1/products/collections', { type: 'manual', title, handle, product_ids: productIds }, as);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
  }

  async function page(shop: GivenMerchantWithStore, path: string, headers: Record<string, string> = {}) {
    const res = await fetch(`${app.url}${SF}/${shop.store.subdomain}/pages/${path}`, { headers });
    return { status: res.status, html: await res.text(), headers: res.headers };
  }

  describe('json-contract (aurora)', () => {
    let shop: GivenMerchantWithStore;
    before(async () => {
      const bundle = bundleOf('aurora');
      const home = bundle.templates.home;
      home.order = ['newsletter', 'hero', 'featured', 'story', 'split'];
      home.sections.story.disabled = true;
      home.sections.hero.block_order = ['button', 'heading', 'text'];
      home.sections.hero.blocks.text.disabled = true;
      delete home.sections.hero.settings.height; // the section's preset (large) over its default (medium)
      shop = await shopWithTheme(bundle);
      const mug = await givenItem(shop.as, { title: XSS, handle: 'xss-mug', description_html: '<p>Stoneware <b>mug</b></p><img src=x onerror=alert(2)>' });
      const cup = await givenItem(shop.as, { title: 'Tea Cup', handle: 'tea-cup', variants: [{ price: 899, inventory_tracked: false }] });
      await givenCollection(shop.as, 'bestsellers', 'Best & brightest', [mug.id, cup.id]);
    });

    it('renders the home page: sections in template order, disabled ones skipped, blocks in block_order', async () => {
      const res = await page(shop, 'home');
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).to.equal('public, max-age=30');
      expect(res.html).to.match(/^<!doctype html>/);
      expect(orderIn(res.html, 'id', ['section-newsletter', 'section-hero', 'section-featured', 'section-story', 'section-split'])).to.deep.equal([
        'section-newsletter',
        'section-hero',
        'section-featured',
        'section-split',
      ]);
      const hero = res.html.slice(res.html.indexOf('id="section-hero"'), res.html.indexOf('id="section-featured"'));
      expect(orderIn(hero, 'data-block-id', ['heading', 'text', 'button'])).to.deep.equal(['button', 'heading']);
      expect(hero).to.include('New season, new light');
    });

    it('resolves settings: field defaults, then the section preset, then the template; theme settings from settings_data', async () => {
      const { html } = await page(shop, 'home');
      const hero = html.slice(html.indexOf('id="section-hero"'), html.indexOf('>', html.indexOf('id="section-hero"')));
      expect(hero).to.include('data-setting-height="large"'); // preset over the default "medium"
      expect(hero).to.include('data-setting-overlay-opacity="30"'); // the template's value over the default 20
      expect(html).to.include('--color-accent: #b45309;'); // settings_data.current over the field default #c2410c
      expect(html).to.include('--color-background: #ffffff;'); // the field default
    });

    it('resolves t: references in the asked locale, falling back to en', async () => {
      const en = await page(shop, 'home');
      expect(en.html).to.include('>Shop now</a>');
      const fr = await page(shop, 'home?locale=fr');
      expect(fr.html).to.include('<html lang="fr"');
      expect(fr.html).to.include('>Acheter</a>');
      const unknown = await page(shop, 'home?locale=de');
      expect(unknown.html).to.include('<html lang="en"');
      expect(unknown.html).to.include('>Shop now</a>');
    });

    it('renders in the store’s locale (its language when the theme lacks the region), which ?locale= overrides', async () => {
      const bad = await api.patch(`/v1/stores/${shop.store.id}`, { locale: 'not a locale' }, shop.as);
      expect([bad.status, bad.body.error.code]).to.deep.equal([400, 'invalid_input']);
      const set = await api.patch(`/v1/stores/${shop.store.id}`, { locale: 'fr-ca' }, shop.as);
      expect([set.status, set.body.data.locale]).to.deep.equal([200, 'fr-CA']);
      try {
        const fr = await page(shop, 'home');
        expect(fr.html).to.include('<html lang="fr"');
        expect(fr.html).to.include('>Acheter</a>');
        expect((await page(shop, 'home?locale=en')).html).to.include('>Shop now</a>');
        expect((await api.get(`${SF}/${shop.store.subdomain}`)).body.data.locale).to.equal('fr-CA');
      } finally {
        await api.patch(`/v1/stores/${shop.store.id}`, { locale: 'en' }, shop.as);
      }
    });

    it('escapes product text and sanitises descriptions on product, collection and featured sections', async () => {
      const home = await page(shop, 'home');
      expect(home.html).to.include('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(home.html).to.not.include(XSS);
      const product = await page(shop, 'product/xss-mug');
      expect(product.status).to.equal(200);
      expect(product.html).to.include('<h1 class="product__title">&lt;script&gt;alert(1)&lt;/script&gt;</h1>');
      expect(product.html).to.not.include(XSS);
      expect(product.html).to.include('<b>mug</b>');
      expect(product.html).to.not.include('onerror');
      expect(product.html).to.include('$12.50');
      const collection = await page(shop, 'collection/bestsellers');
      expect(collection.status).to.equal(200);
      expect(collection.html).to.include('<h1 class="main-collection__title">Best &amp; brightest</h1>');
      expect(collection.html).to.include('Tea Cup');
      expect(collection.html).to.include('$8.99');
    });

    it('answers 404 for an unknown template, product, collection, store, and a store without a live theme', async () => {
      expect((await page(shop, 'checkout')).status).to.equal(404);
      const product = await page(shop, 'product/no-such-product');
      expect(product.status).to.equal(404);
      expect(JSON.parse(product.html).error.code).to.equal('not_found');
      expect((await page(shop, 'product')).status).to.equal(404);
      expect((await page(shop, 'collection/none')).status).to.equal(404);
      expect((await api.get(`${SF}/no-such-store/pages/home`)).status).to.equal(404);
      const bare = await givenMerchantWithStore(api);
      const none = await api.get(`${SF}/${bare.store.subdomain}/pages/home`);
      expect([none.status, none.body.error.code]).to.deep.equal([404, 'no_live_theme']);
      expect((await page(shop, 'home?preview_token=nope')).status).to.equal(404);
    });

    it('serves the theme assets that asset URLs point at', async () => {
      const { html } = await page(shop, 'home');
      const href = /<link rel="stylesheet" href="([^"]+base\.css)">/.exec(html)![1]!;
      const css = await fetch(`${app.url}${href}`);
      expect(css.status).to.equal(200);
      expect(css.headers.get('content-type')).to.match(/^text\/css/);
      expect(css.headers.get('x-content-type-options')).to.equal('nosniff');
      expect((await fetch(`${app.url}${href.replace('base.css', 'nope.css')}`)).status).to.equal(404);
    });
  });

  describe('liquid (ember-liquid)', () => {
    let shop: GivenMerchantWithStore;
    let cartToken: string;
    before(async () => {
      const bundle = bundleOf('ember-liquid');
      delete bundle.locales.es.products.add_to_cart; // falls back to en
      syncLiquidFiles(bundle);
      shop = await shopWithTheme(bundle);
      const mug = await givenItem(shop.as, { title: XSS, handle: 'xss-mug', description_html: '<p>Wood-fired <em>stoneware</em></p>' });
      const bowl = await givenItem(shop.as, { title: 'Rice Bowl', handle: 'rice-bowl', variants: [{ price: 2400, inventory_tracked: false }] });
      await givenCollection(shop.as, 'new', 'New from the kiln', [mug.id, bowl.id]);
      const cart = await api.post(`${SF}/${shop.store.subdomain}/cart`, { lines: [{ variant_id: bowl.variants[0].id, quantity: 2 }] });
      expect(cart.status, JSON.stringify(cart.body)).to.equal(201);
      cartToken = cart.body.data.token;
    });

    it('renders the home page through the theme layout, sections in order, blocks in order', async () => {
      const res = await page(shop, 'home');
      expect(res.status).to.equal(200);
      expect(res.html).to.include('<html lang="en">');
      expect(orderIn(res.html, 'id', ['shopify-section-hero', 'shopify-section-featured'])).to.deep.equal(['shopify-section-hero', 'shopify-section-featured']);
      expect(res.html).to.match(/Hand-thrown, wood-fired[\s\S]*Shop all/);
      expect(res.html).to.include('hero-banner--large');
      expect(res.html).to.include('--ember-accent: #b91c1c;'); // settings_data over the default
      expect(res.html).to.include('--ember-text: #2b1d16;'); // the field default
      expect(res.html).to.include('<p>Small-batch goods, fired with care.</p>'); // richtext, not escaped
      expect(res.html).to.match(/<link rel="stylesheet" href="\/v1\/storefront\/[^"]+\/assets\/[0-9a-f]{24}\/assets\/ember\.css"/);
      // The featured collection (section setting "new"), product titles escaped, prices through `money`.
      expect(res.html).to.include('Rice Bowl');
      expect(res.html).to.include('$24.00');
      expect(res.html).to.include('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(res.html).to.not.include(XSS);
    });

    it('renders a product by handle and a collection', async () => {
      const product = await page(shop, 'product/xss-mug');
      expect(product.status).to.equal(200);
      expect(product.html).to.include('<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>');
      expect(product.html).to.include('<em>stoneware</em>');
      expect(product.html).to.include('Add to cart');
      const collection = await page(shop, 'collection/new');
      expect(collection.html).to.include('<h1>New from the kiln</h1>');
      expect(collection.html).to.include('Rice Bowl');
    });

    it('renders the cart of X-Cart-Token, privately; without one, an empty cart', async () => {
      const cart = await page(shop, 'cart', { 'X-Cart-Token': cartToken });
      expect(cart.status).to.equal(200);
      expect(cart.headers.get('cache-control')).to.equal('private, no-store');
      expect(cart.html).to.include('Rice Bowl');
      expect(cart.html).to.include('$48.00');
      expect(cart.html).to.include('<span class="cart-count">2</span>');
      const empty = await page(shop, 'cart');
      expect(empty.html).to.include('Your cart is empty.');
      expect(empty.html).to.include('<span class="cart-count">0</span>');
    });

    it('translates with `t` in the asked locale, falling back to en for a missing key', async () => {
      const es = await page(shop, 'cart?locale=es');
      expect(es.html).to.include('<html lang="es">');
      expect(es.html).to.include('Tu carrito está vacío.');
      const product = await page(shop, 'product/rice-bowl?locale=es');
      expect(product.html).to.include('Add to cart');
      expect(product.html).to.include('Ir al contenido');
    });

    it('compiles a theme version once: later pages hit the cache and parse nothing', async () => {
      const renderer = createPageRenderer();
      const small = createPageRenderer({ threads: 1, cacheEntries: 1 });
      try {
        const store = (await findStoreById(app.platform, shop.store.id))!;
        const theme = (await liveRenderableTheme(app.platform, store.id, store.live_theme_id))!;
        await renderer.render(app.platform, store, theme, { template: 'home' });
        const first = renderer.stats();
        expect(first).to.include({ misses: 1, hits: 0, threads: 1 });
        expect(first.parses).to.be.greaterThan(0);
        for (let i = 0; i < 3; i++) await renderer.render(app.platform, store, theme, { template: 'home' });
        expect(renderer.stats()).to.deep.equal({ ...first, hits: 3 });
        // Another version (other sources) is compiled on its own; a thread's cache is bounded.
        await small.render(app.platform, store, theme, { template: 'home' });
        await small.render(app.platform, store, { ...theme, sourceKey: `${theme.sourceKey}:next` }, { template: 'home' });
        await small.render(app.platform, store, theme, { template: 'home' });
        expect(small.stats()).to.include({ misses: 3, hits: 0, threads: 1 });
      } finally {
        await renderer.close();
        await small.close();
      }
    });
  });

  /**
   * A product page of a new ember-liquid shop whose main-product section is `source` (a product
   * `fish` made from `product`), rendered in-process: its HTML, the shop and the live theme.
   */
  async function renderFishWith(source: string, product: Record<string, unknown>, locale?: string) {
    const shop = await shopWithTheme(bundleOf('ember-liquid'));
    await givenItem(shop.as, { handle: 'fish', ...product });
    const store = (await findStoreById(app.platform, shop.store.id))!;
    const live = (await liveRenderableTheme(app.platform, store.id, store.live_theme_id))!;
    const bundle = structuredClone(live.bundle);
    bundle.renderer.assets = bundle.renderer.assets.map((a) => (a.path === 'sections/main-product.liquid' ? { ...a, content: source } : a));
    // Other sources than the version's: another key, so no thread uses what it compiled of the version.
    const theme: RenderableTheme = { ...live, bundle, sourceKey: `${live.sourceKey}:${randomBytes(4).toString('hex')}` };
    const { html } = await renderPage(app.platform, store, theme, { template: 'product', handle: 'fish', ...(locale ? { locale } : {}) });
    return { html, shop, live };
  }

  describe('Liquid filters and objects', () => {
    it('formats money, translates with placeholders, escapes once, and links assets', async () => {
      const source = [
        '<b id="m">{{ product.price | money }}|{{ product.price | money_with_currency }}</b>',
        "<b id=\"t\">{{ 'general.page' | t: page: 3 }}|{{ 'no.such.key' | t }}</b>",
        '<b id="e">{{ product.title | escape }}|{{ product.title }}|{{ product.title | raw | handleize }}</b>',
        '<b id="j">{{ product.handle | json }}|{{ product.variants.first.price | json }}</b>',
        "<b id=\"a\">{{ 'ember.css' | asset_url }}|{{ 'https://cdn.example.com/x.png' | image_url }}|{{ 'javascript:alert(1)' | image_url }}</b>",
        '<b id="p">{% render \'price\', variant: product.variants.first %}</b>',
        '<b id="o">{{ product.__proto__ }}{{ product.constructor }}|{{ shop.name }}</b>',
      ].join('\n');
      const { html, shop, live } = await renderFishWith(
        source,
        { title: 'Fish & Chips "Deluxe"', variants: [{ price: 123456, inventory_tracked: false }] },
        'es',
      );
      const part = (id: string) => new RegExp(`<b id="${id}">([\\s\\S]*?)</b>`).exec(html)?.[1];
      expect(part('m')).to.equal('$1,234.56|$1,234.56 USD');
      expect(part('t')).to.equal('Página 3|no.such.key');
      expect(part('e')).to.equal('Fish &amp; Chips &quot;Deluxe&quot;|Fish &amp; Chips &quot;Deluxe&quot;|fish-chips-deluxe');
      expect(part('j')).to.equal('"fish"|123456');
      expect(part('a')).to.equal(`/v1/storefront/${shop.store.subdomain}/assets/${live.versionId}/assets/ember.css|https://cdn.example.com/x.png|`);
      expect(part('p')).to.include('<span class="price__current">$1,234.56</span>');
      expect(part('o')).to.equal('|Test Store');
    });
  });

  describe('the json filter', () => {
    it('prints JSON as it is in text and scripts, and HTML-escaped where it lands in a tag, so no value can leave its attribute', async () => {
      const title = `Fish & "Chips" </script><img src=x onerror=alert(1)> a=b 'q'`;
      const source = [
        '<b id="text">{{ product.title | json }}</b>',
        '<script type="application/json" id="script">{{ product.title | json }}</script>',
        '<div id="double" data-title="{{ product.title | json }}"></div>',
        '<div id="single" data-title=\'{{ product.title | json }}\'></div>',
        '<div id="unquoted" data-title={{ product.title | json }}></div>',
        '{% assign j = product.title | json %}<div id="assigned" data-title="{{ j }}"></div>',
        '<!-- {{ product.title | json }} -->',
      ].join('\n');
      const { html } = await renderFishWith(source, { title });
      const json = JSON.stringify(title).replace(/[<>&']/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
      const decode = (text: string) =>
        text
          .replace(/&quot;/g, '"')
          .replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
          .replace(/&#39;/g, "'")
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&amp;/g, '&');
      expect(/<b id="text">([^<]*)<\/b>/.exec(html)![1]).to.equal(json);
      expect(/<script type="application\/json" id="script">([^<]*)<\/script>/.exec(html)![1]).to.equal(json);
      for (const id of ['double', 'assigned']) {
        const value = new RegExp(`<div id="${id}" data-title="([^"]*)"></div>`).exec(html)?.[1];
        expect(value, id).to.be.a('string');
        expect(JSON.parse(decode(value!)), id).to.equal(title);
      }
      const single = /<div id="single" data-title='([^']*)'><\/div>/.exec(html)?.[1];
      expect(JSON.parse(decode(single!))).to.equal(title);
      const unquoted = /<div id="unquoted" data-title=([^\s>]*)><\/div>/.exec(html)?.[1];
      expect(JSON.parse(decode(unquoted!))).to.equal(title);
      expect(html).to.not.match(/<img|onerror=alert\(1\)>|<\/script><img/);
    });
  });

  describe('a hostile Liquid theme', () => {
    const HOSTILE: Record<string, string> = {
      loop: '{% for i in (1..3000) %}{% for j in (1..3000) %}{% for k in (1..3000) %}{% assign x = k %}{% endfor %}{% endfor %}{% endfor %}',
      range: '{% for i in (1..1000000000) %}{{ i }}{% endfor %}',
      flood: '{% for i in (1..5000000) %}<p>xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx</p>{% endfor %}',
      doubling: "{% assign x = 'xxxxxxxxxx' %}{% for i in (1..40) %}{% capture x %}{{ x }}{{ x }}{% endcapture %}{% endfor %}{{ x }}",
      recurse: "{% render 'self' %}",
      layout: "{% layout 'again' %}",
      passwd: "{% render '../../etc/passwd' %}",
      absolute: "{% include '/etc/passwd' %}",
      section: "{% render 'sections/hero-banner' %}",
      broken: '{% if %}',
    };
    let shop: GivenMerchantWithStore;
    before(async () => {
      const bundle = bundleOf('ember-liquid');
      for (const [key, source] of Object.entries(HOSTILE)) {
        bundle.sections[key] = { type: key, name: key, renderer_key: key, enabled_on: ['home'] };
        bundle.templates.home.sections[key] = { type: key };
        setAsset(bundle, `sections/${key}.liquid`, source);
      }
      setAsset(bundle, 'snippets/self.liquid', "<i>{% render 'self' %}</i>");
      setAsset(bundle, 'layout/again.liquid', "{% layout 'again' %}<b>again</b>");
      bundle.templates.home.order = ['hero', ...Object.keys(HOSTILE), 'featured'];
      syncLiquidFiles(bundle);
      shop = await shopWithTheme(bundle);
    });

    it('fails each hostile section alone, within limits, and renders the rest of the page', async () => {
      const res = await page(shop, 'home');
      expect(res.status).to.equal(200);
      expect(res.html.length).to.be.lessThan(3 * 1024 * 1024);
      expect(res.html).to.include('Hand-thrown, wood-fired'); // before the hostile sections
      expect(res.html).to.include('class="featured-products"'); // after them
      expect(res.html).to.include('<footer class="site-footer">'); // the layout
      expect(res.html).to.not.include('root:');
      for (const key of Object.keys(HOSTILE)) expect(res.html, key).to.match(new RegExp(`<!-- section "${key}" failed to render \\(error [0-9a-f]{12}\\) -->`));
      const ids = [...res.html.matchAll(/failed to render \(error ([0-9a-f]{12})\)/g)].map((m) => m[1]!);
      const logged = app.logLines.filter((line) => line.includes('render.section_failed'));
      for (const id of ids)
        expect(
          logged.some((line) => line.includes(id)),
          id,
        ).to.equal(true);
      expect(logged.join('\n')).to.match(/depth limit/);
      expect(logged.join('\n')).to.match(/output limit/);
      expect(logged.join('\n')).to.match(/ENOENT|Failed to lookup/);
    });
  });

  describe('app blocks', () => {
    it('renders app blocks of sections that accept them, escaped, with a sandboxed https iframe', async () => {
      const bundle = bundleOf('aurora');
      const shop = await shopWithTheme(bundle);
      await givenItem(shop.as, { title: 'Mug', handle: 'mug' });
      // The app whose blocks the template names, installed in the store (docs/extensions.md, Storefront app blocks).
      const operator = await givenMerchant(api, { email: 'op-rendering@example.com' });
      await installBlocks(api, await givenAppBlockApp(api, operator.token, 'reviews', ['stars', 'plain']), shop);
      const store = (await findStoreById(app.platform, shop.store.id))!;
      const live = (await liveRenderableTheme(app.platform, store.id, store.live_theme_id))!;
      // Validation keeps javascript: links and http iframes out of bundles and drafts (test/storefront/app-blocks.test.ts);
      // the renderer refuses them anyway: here they are set on the templates directly.
      const templates = structuredClone(live.templates);
      const main = templates.product!.sections.main!;
      main.blocks.reviews = {
        type: '@app/reviews/stars',
        disabled: false,
        settings: {
          heading: `Reviews ${XSS}`,
          body: 'Rated "5"',
          cta_label: 'Read all',
          cta_href: 'javascript:alert(1)',
          iframe_url: 'https://apps.example.com/widget?x=1&y=2',
        },
      };
      main.blocks.insecure = {
        type: '@app/reviews/plain',
        disabled: false,
        settings: { heading: 'Plain', iframe_url: 'http://apps.example.com/widget', cta_label: 'Go', cta_href: 'https://apps.example.com/go' },
      };
      main.block_order = [...main.block_order, 'reviews', 'insecure'];
      const related = templates.product!.sections.related!;
      related.blocks.stray = { type: '@app', disabled: false, settings: { heading: 'Not here' } };
      related.block_order = ['stray'];
      const theme: RenderableTheme = { ...live, templates };
      const { html, status } = await renderPage(app.platform, store, theme, { template: 'product', handle: 'mug' });
      expect(status).to.equal(200);
      expect(html).to.include('<h3 class="app-block__heading">Reviews &lt;script&gt;alert(1)&lt;/script&gt;</h3>');
      expect(html).to.include('<p class="app-block__body">Rated &quot;5&quot;</p>');
      expect(html).to.include(
        '<iframe class="app-block__frame" src="https://apps.example.com/widget?x=1&amp;y=2" sandbox="allow-scripts allow-forms" referrerpolicy="no-referrer"',
      );
      expect(html).to.not.include('javascript:');
      expect(html).to.not.include('http://apps.example.com/widget'); // https only
      expect(html).to.include('<a class="app-block__cta button" href="https://apps.example.com/go" rel="noopener noreferrer">Go</a>');
      expect(html).to.not.include('Not here'); // the related section does not accept app blocks
    });
  });
});
