import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { shopUrl } from '../../src/dev/shop-flow.js';
import { useTestApp } from '../helpers/app.js';
import { useBrowser } from '../helpers/browser.js';
import { givenLocation } from '../helpers/catalog.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { ShopBrowser } from '../helpers/shop.js';
import { bundleOf } from '../helpers/theme-uploads.js';

/**
 * Browsing the catalog (docs/shop.md, Collections and search; docs/rendering.md, Pagination and
 * The variant picker), on both fixture themes: a 30-product store's collection pages reach every
 * product once (24 + 6, rel prev/next), sort by price, title and date, filter by availability and
 * price and clear the filters; bad parameters are ignored or 404, never a 500; another store's
 * products never show. A variant chosen with `?variant=` (no JavaScript) and with the theme's
 * script (Chromium) shows its price and Sold out.
 */
describe('Catalog browsing: pages, sorting, filters and the variant picker (both themes)', () => {
  const { app, api } = useTestApp('catalog_browsing');
  afterEach(function () {
    if (process.env.DEBUG_HTML && this.currentTest?.state === 'failed')
      console.log(
        app.logLines
          .filter((l) => l.includes('failed'))
          .slice(-3)
          .join('\n'),
      );
  });
  const chromium = useBrowser();
  const at = (shop: Shop, path: string) => shopUrl(shop.store.subdomain, new URL(app.url).port, path);

  type Shop = GivenMerchantWithStore & { candle: { handle: string; small: string; large: string; medium: string } };

  /** 29 one-variant products (every fifth tracked with no stock) and a three-size candle; `fixture` live. */
  async function givenShop(fixture: 'aurora' | 'ember-liquid'): Promise<Shop> {
    const shop = await givenMerchantWithStore(api);
    const location = await givenLocation(api, shop.as);
    for (let i = 1; i <= 29; i++) {
      const soldOut = i % 5 === 0;
      const res = await api.post(
        '/v1/products',
        {
          title: `Item ${String(i).padStart(2, '0')}`,
          handle: `item-${i}`,
          status: 'active',
          variants: [{ price: 1000 + ((i * 7) % 29) * 100, inventory_tracked: soldOut }],
        },
        shop.as,
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      if (soldOut) await api.post('/v1/inventory/levels/set', { variant_id: res.body.data.variants[0].id, location_id: location, available: 0 }, shop.as);
    }
    const candle = await api.post(
      '/v1/products',
      {
        title: 'Beeswax Candle',
        handle: 'candle',
        status: 'active',
        options: [{ name: 'Size', values: ['Small', 'Medium', 'Large'] }],
        variants: [
          { option_values: ['Small'], price: 1800 },
          { option_values: ['Medium'], price: 2400 },
          { option_values: ['Large'], price: 2900, compare_at_price: 3500 },
        ],
      },
      shop.as,
    );
    expect(candle.status, JSON.stringify(candle.body)).to.equal(201);
    const [small, medium, large] = (candle.body.data.variants as { id: string }[]).map((v) => v.id) as [string, string, string];
    for (const [variant, available] of [
      [small, 5],
      [medium, 0],
      [large, 5],
    ] as const)
      await api.post('/v1/inventory/levels/set', { variant_id: variant, location_id: location, available }, shop.as);
    const bundle = bundleOf(fixture);
    bundle.package.slug = `${fixture}-${randomBytes(3).toString('hex')}`;
    const up = await api.post('/v1/themes/packages/upload', { bundle, submission_mode: 'private_install' }, { token: shop.merchant.token });
    expect(up.status, JSON.stringify(up.body)).to.equal(201);
    const installed = await api.post(`/v1/themes/${bundle.package.slug}/install`, { store_id: shop.store.id, publish: true }, { token: shop.merchant.token });
    expect(installed.status, JSON.stringify(installed.body)).to.equal(201);
    return { ...shop, candle: { handle: 'candle', small, medium, large } };
  }

  const shops: Partial<Record<'aurora' | 'ember-liquid', Shop>> = {};
  before(async function () {
    this.timeout(120_000);
    shops.aurora = await givenShop('aurora');
    shops['ember-liquid'] = await givenShop('ember-liquid');
  });

  const browser = (shop: Shop) => new ShopBrowser(app.url, `${shop.store.subdomain}.localhost`);
  /** The product handles a listing page links to, in page order, each once. */
  const handles = (html: string) => [...new Set([...html.matchAll(/href="\/products\/([^"?]+)"/g)].map((m) => m[1]!))];
  const headLink = (html: string, rel: string) => new RegExp(`<link rel="${rel}" href="([^"]+)">`).exec(html)?.[1]?.replace(/&amp;/g, '&') ?? null;
  const prices = (html: string) =>
    [...html.matchAll(/class="price__current">(?:From )?\$([\d.,]+)</g)].map((m) => Number(m[1]!.replace(/,/g, ''))).filter((n) => Number.isFinite(n));

  for (const theme of ['aurora', 'ember-liquid'] as const) {
    describe(theme, () => {
      it('pages through all 30 products, 24 then 6, with rel prev/next and no product twice; a page past the last is 404', async () => {
        const b = browser(shops[theme]!);
        const first = await b.get('/collections/all');
        if (process.env.DEBUG_HTML) console.log(first.html.slice(0, 6000), (await b.get('/products/candle')).html.slice(0, 8000));
        expect(first.status).to.equal(200);
        const one = handles(first.html);
        expect(one).to.have.length(24);
        expect(headLink(first.html, 'prev')).to.equal(null);
        expect(headLink(first.html, 'next')).to.equal('/collections/all?page=2');
        expect(first.html).to.match(/<a [^>]*href="\/collections\/all\?page=2"[^>]*rel="next"|rel="next"[^>]*href="\/collections\/all\?page=2"/);
        const second = await b.get('/collections/all?page=2');
        expect(second.status).to.equal(200);
        const two = handles(second.html);
        expect(two).to.have.length(6);
        expect(headLink(second.html, 'prev')).to.equal('/collections/all');
        expect(headLink(second.html, 'next')).to.equal(null);
        expect(new Set([...one, ...two]).size).to.equal(30);
        expect((await b.get('/collections/all?page=3')).status).to.equal(404);
        expect((await b.get('/collections/all?page=99999')).status).to.equal(404);
        // Search pages too, keeping q.
        const search = await b.get('/search?q=item');
        expect(handles(search.html)).to.have.length(24);
        expect(headLink(search.html, 'next')).to.equal('/search?q=item&page=2');
        expect(handles((await b.get('/search?q=item&page=2')).html)).to.have.length(5);
      });

      it('sorts by price, title and date (sort_by), keeping the sort on the next page', async () => {
        const b = browser(shops[theme]!);
        const cheap = await b.get('/collections/all?sort_by=price-ascending');
        const p = prices(cheap.html);
        expect(p.length).to.be.greaterThan(20);
        expect(p).to.deep.equal([...p].sort((x, y) => x - y));
        expect(headLink(cheap.html, 'next')).to.equal('/collections/all?sort_by=price-ascending&page=2');
        const dear = prices((await b.get('/collections/all?sort_by=price-descending')).html);
        expect(dear).to.deep.equal([...dear].sort((x, y) => y - x));
        const az = handles((await b.get('/collections/all?sort_by=title-ascending')).html);
        expect(az[0]).to.equal('candle');
        expect(az[1]).to.equal('item-1');
        expect(handles((await b.get('/collections/all?sort_by=title-descending')).html)[0]).to.equal('item-29');
        expect(handles((await b.get('/collections/all?sort_by=created-descending')).html)[0]).to.equal('candle');
        expect(handles((await b.get('/collections/all?sort_by=created-ascending')).html)[0]).to.equal('item-1');
      });

      it('filters by availability and price and clears each filter', async () => {
        const b = browser(shops[theme]!);
        const out = await b.get('/collections/all?filter.v.availability=0');
        expect(handles(out.html).sort()).to.deep.equal(['item-10', 'item-15', 'item-20', 'item-25', 'item-5']);
        const inStock = await b.get('/collections/all?filter.v.availability=1');
        const all = [...handles(inStock.html), ...handles((await b.get('/collections/all?filter.v.availability=1&page=2')).html)];
        expect(all).to.have.length(25);
        expect(all).to.include('candle').and.not.include('item-5');
        const ranged = await b.get('/collections/all?filter.v.price.gte=20&filter.v.price.lte=25');
        const inRange = prices(ranged.html);
        expect(inRange.length).to.be.greaterThan(0);
        for (const price of inRange) expect(price, 'a price in 20–25').to.be.within(18, 25); // the candle shows "From $18.00" (its Medium is $24)
        expect(handles(ranged.html)).to.include('candle');
        // Each active filter links to the page without it.
        const both = await b.get('/collections/all?filter.v.availability=1&filter.v.price.lte=15');
        if (process.env.DEBUG_HTML) console.log(both.html.replace(/[\s\S]*<main/, '').slice(0, 5000));
        expect(both.html).to.include('href="/collections/all?filter.v.price.lte=15"');
        expect(both.html).to.include('href="/collections/all?filter.v.availability=1"');
      });

      it('ignores parameters it cannot read (never a 500), and shows no other store’s products', async () => {
        const b = browser(shops[theme]!);
        for (const q of [
          'page=abc',
          'page=-1',
          'page=0',
          'sort_by=nonsense',
          'filter.v.price.gte=-1',
          'filter.v.price.lte=abc',
          'filter.v.availability=maybe',
          'page=1&page=2',
          'sort_by[]=x',
        ]) {
          const res = await b.get(`/collections/all?${q}`);
          expect(res.status, q).to.equal(200);
          expect(handles(res.html), q).to.have.length(24);
        }
        const other = theme === 'aurora' ? shops['ember-liquid']! : shops.aurora!;
        const mine = await b.get('/collections/all?sort_by=title-ascending');
        expect(mine.html).to.not.include(other.candle.small);
      });

      it('shows the variant ?variant= chooses without JavaScript: its price, the cart form’s id, Sold out when it cannot be bought', async () => {
        const shop = shops[theme]!;
        const b = browser(shop);
        const plain = await b.get('/products/candle');
        expect(plain.html).to.include('$18.00');
        expect(plain.html).to.match(new RegExp(`name="id" value="${shop.candle.small}"`));
        const large = await b.get(`/products/candle?variant=${shop.candle.large}`);
        expect(large.html).to.include('$29.00').and.include('$35.00');
        expect(large.html).to.match(new RegExp(`name="id" value="${shop.candle.large}"`));
        expect(large.html).to.match(new RegExp(`<option value="${shop.candle.large}" selected>`));
        const medium = await b.get(`/products/candle?variant=${shop.candle.medium}`);
        expect(medium.html).to.include('$24.00');
        expect(medium.html).to.match(/data-add-to-cart disabled>\s*Sold out\s*</);
        // Another product's variant (or nonsense) is ignored.
        expect((await b.get(`/products/candle?variant=${shops[theme === 'aurora' ? 'ember-liquid' : 'aurora']!.candle.large}`)).html).to.include(
          `name="id" value="${shop.candle.small}"`,
        );

        // The same in Chromium with JavaScript off: choose Large, press Choose.
        const page = await chromium.page({ javaScript: false });
        await page.goto(at(shop, '/products/candle'));
        await page.locator('select[name="variant"]').selectOption(shop.candle.large);
        await Promise.all([page.waitForURL(/variant=/), page.getByRole('button', { name: 'Choose', exact: true }).click()]);
        expect(new URL(page.url()).searchParams.get('variant')).to.equal(shop.candle.large);
        expect(await page.locator('[data-product-price] .price__current').first().textContent()).to.equal('$29.00');
      });

      it('updates the price, availability, cart id and URL in place when a variant is chosen with JavaScript', async () => {
        const shop = shops[theme]!;
        const page = await chromium.page();
        await page.goto(at(shop, '/products/candle'));
        expect(await page.getByRole('button', { name: 'Choose', exact: true }).isVisible()).to.equal(false);
        const price = page.locator('[data-product-price] .price__current').first();
        expect(await price.textContent()).to.equal('$18.00');
        await page.locator('select[name="variant"]').selectOption(shop.candle.large);
        await page.waitForFunction("document.querySelector('[data-product-price] .price__current')?.textContent === '$29.00'");
        expect(await page.locator('[data-product-price] .price__compare').first().textContent()).to.include('$35.00');
        expect(await page.locator('input[name="id"][data-variant-id]').inputValue()).to.equal(shop.candle.large);
        expect(new URL(page.url()).searchParams.get('variant')).to.equal(shop.candle.large);
        await page.locator('select[name="variant"]').selectOption(shop.candle.medium);
        const add = page.locator('[data-add-to-cart]');
        await page.waitForFunction("document.querySelector('[data-add-to-cart]')?.disabled === true");
        expect((await add.textContent())?.trim()).to.equal('Sold out');
        // Back to one that can be bought, then into the cart.
        await page.locator('select[name="variant"]').selectOption(shop.candle.large);
        await Promise.all([page.waitForURL(/\/cart$/), add.click()]);
        expect(await page.content()).to.include('Large');
      });

      it('sorts with the select alone when JavaScript runs, and pages with the pager’s Next link', async () => {
        const shop = shops[theme]!;
        const page = await chromium.page();
        await page.goto(at(shop, '/collections/all'));
        await Promise.all([page.waitForURL(/sort_by=price-descending/), page.locator('select[name="sort_by"]').selectOption('price-descending')]);
        const next = page.locator('a[rel="next"]').first();
        await Promise.all([page.waitForURL(/page=2/), next.click()]);
        expect(new URL(page.url()).searchParams.get('sort_by')).to.equal('price-descending');
        expect(await page.locator('a[href^="/products/"]').count()).to.be.greaterThan(0);
      });
    });
  }
});
