import { expect } from 'chai';
import { useTestApp } from '../helpers/app.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { ShopBrowser } from '../helpers/shop.js';
import { bundleOf } from '../helpers/theme-uploads.js';
import { readFixtureAsset } from '../helpers/themed-shop.js';
import { themeFixture } from '../../src/dev/theme-fixtures.js';
import { shopLook } from '../../src/shop/look.js';
import type { RenderableTheme } from '../../src/themes/index.js';

/**
 * The live theme beyond its templates (docs/shop.md, "Not found" and "The theme's look"): an
 * unknown path, product, collection or page is a 404 in the theme's layout; `/favicon.ico` is the
 * theme's favicon; the shop's own pages carry the theme's colours, fonts and favicon.
 */
describe("Shop: the live theme's 404, favicon and look (docs/shop.md)", () => {
  const { app, api } = useTestApp('shop_theme_look');

  async function storeWith(bundle: Record<string, any> | null): Promise<GivenMerchantWithStore> {
    const shop = await givenMerchantWithStore(api);
    if (!bundle) return shop;
    const up = await api.post('/v1/themes/packages/upload', { bundle, submission_mode: 'private_install' }, { token: shop.merchant.token });
    expect(up.status, JSON.stringify(up.body)).to.equal(201);
    const installed = await api.post(`/v1/themes/${bundle.package.slug}/install`, { store_id: shop.store.id, publish: true }, { token: shop.merchant.token });
    expect(installed.status, JSON.stringify(installed.body)).to.equal(201);
    return shop;
  }
  const browser = (shop: GivenMerchantWithStore) => new ShopBrowser(app.url, `${shop.store.subdomain}.localhost`);

  for (const fixture of ['aurora', 'ember-liquid'] as const) {
    describe(fixture, () => {
      let shop: GivenMerchantWithStore;
      before(async () => {
        shop = await storeWith(bundleOf(fixture));
        const menu = await api.put('/v1/menus/main-menu', { title: 'Main menu', items: [{ title: 'Journal', url: '/blogs/news' }] }, shop.as);
        expect(menu.status).to.equal(200);
      });

      it('answers an unknown path, product, collection, page or blog with a 404 in the theme’s layout', async () => {
        const b = browser(shop);
        for (const path of ['/nowhere', '/products/no-such-thing', '/collections/nope', '/pages/constructor', '/blogs/other', '/products/%00', '/a/b/c']) {
          const res = await b.get(path);
          expect(res.status, path).to.equal(404);
          expect(res.headers['content-type'], path).to.equal('text/html; charset=utf-8');
          expect(res.html, path + res.html.slice(0, 1500)).to.include('Page not found');
          expect(res.html, `${path}: the theme's header and menu`).to.match(/class="site-header"[\s\S]*Journal/);
          expect(res.html, `${path}: the theme's stylesheet`).to.match(
            /<link rel="stylesheet" href="\/v1\/storefront\/[^"]+\/assets\/[0-9a-f]{24}\/assets\/[a-z]+\.css"/,
          );
          expect(res.html, `${path}: the theme's footer`).to.include('class="site-footer"');
          expect(res.html, path).to.include('class="section section--main-404 main-404"');
        }
        // Other errors stay the shop's own pages.
        const order = await b.get('/checkout/orders/000000000000000000000000');
        expect(order.status).to.equal(404);
        expect(order.html).not.to.include('class="site-header"');
        expect((await b.send('DELETE', '/')).status).to.equal(405);
      });

      it('answers /favicon.ico with the theme’s favicon, and links it from its pages and the shop’s own', async () => {
        const b = browser(shop);
        const icon = await b.get('/favicon.ico');
        expect(icon.status).to.equal(200);
        expect(icon.headers['content-type']).to.equal('image/svg+xml');
        expect(icon.headers['x-content-type-options']).to.equal('nosniff');
        expect(icon.html).to.equal(readFixtureAsset(fixture, 'assets/favicon.svg'));
        for (const path of ['/', '/account/login', '/nowhere']) {
          const page = await b.get(path);
          const href = /<link rel="icon" href="([^"]+)" type="image\/svg\+xml">/.exec(page.html)?.[1];
          expect(href, path).to.match(/\/assets\/favicon\.svg$/);
          expect((await b.get(href!)).html, path).to.equal(icon.html);
        }
      });

      it('gives the shop’s own pages the theme’s colours (and aurora its fonts)', async () => {
        const login = await browser(shop).get('/account/login');
        expect(login.status).to.equal(200);
        const look = /<style>:root\{([^}]*)\}<\/style>/.exec(login.html)?.[1] ?? '';
        if (fixture === 'aurora') {
          expect(look).to.include('--bg:#ffffff;').and.include('--ink:#1a1a1a;').and.include('--accent:#b45309;').and.include('--accent-ink:#fff;');
          expect(look).to.match(/--font-heading:Georgia/);
        } else {
          expect(look).to.include('--bg:#fffaf5;').and.include('--ink:#2b1d16;').and.include('--accent:#b91c1c;').and.include('--accent-ink:#ffffff;');
        }
      });
    });
  }

  it('takes only hex colours and known fonts into the look (a theme’s settings are checked at upload; this is the second line)', () => {
    const theme = {
      bundle: themeFixture('aurora'),
      settingsData: { current: { color_accent: 'red;}body{display:none', font_body: 'Comic Sans", x' }, presets: {} },
    };
    const look = shopLook('ada', theme as unknown as RenderableTheme);
    expect(look.vars).not.to.include('display:none');
    expect(look.vars).not.to.include('Comic Sans');
    expect(look.vars).to.include('--bg:#ffffff;');
    expect(look.favicon?.url).to.match(/^\/v1\/storefront\/ada\/assets\/.*\/assets\/favicon\.svg$/);
  });

  it('keeps the shop’s own favicon-less look and 404 where the theme has no favicon, or the store no live theme', async () => {
    const bundle = bundleOf('aurora');
    bundle.renderer.assets = bundle.renderer.assets.filter((a: { path: string }) => a.path !== 'assets/favicon.svg');
    const shop = await storeWith(bundle);
    const b = browser(shop);
    const login = await b.get('/account/login');
    expect(login.status).to.equal(200);
    expect(login.html).not.to.include('rel="icon"');
    const icon = await b.get('/favicon.ico');
    expect([icon.status, icon.html]).to.deep.equal([404, '']);
    // A store with no live theme: its 404 is the shop's own page, its favicon an empty 404.
    const bare = browser(await storeWith(null));
    const missing = await bare.get('/nowhere');
    expect([missing.status, missing.html.includes('class="site-header"'), missing.html.includes('Page not found')]).to.deep.equal([404, false, true]);
    expect((await bare.get('/favicon.ico')).status).to.equal(404);
  });
});
