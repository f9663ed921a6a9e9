import { expect } from 'chai';
import { cssSettingValue, renderJsonContractLayout, renderJsonContractSection, type JsonContractEnv } from '../../src/rendering/json-contract.js';
import { compileLiquid } from '../../src/rendering/liquid/engine.js';
import { renderLiquidPage, type LiquidPageMessage } from '../../src/rendering/liquid/page.js';
import { liquidThemeOf } from '../../src/rendering/liquid/theme.js';
import { translator } from '../../src/rendering/locale.js';
import { pageListing } from '../../src/rendering/listing.js';
import type { PageModel } from '../../src/rendering/page.js';
import { templateSections, themeSettings, type RenderedSection } from '../../src/rendering/sections.js';
import type { CartView, PublicProductView } from '../../src/storefront/index.js';
import { validateBundle } from '../../src/themes/bundle/validate.js';
import type { RenderableTheme, TemplateKey } from '../../src/themes/index.js';
import { loadFixture } from '../helpers/themes.js';

/**
 * The markup contract (docs/rendering.md, Markup contract): what the json-contract renderer prints
 * for each section, the layout and the settings, and what a Liquid theme gets to print the same
 * (menus, images, the CSRF token, a page's content, a search). Rendered in-process from a page
 * model built here, as the web process would read it; the fixture themes as uploaded.
 */

function fixture(name: 'aurora' | 'ember-liquid'): RenderableTheme {
  const checked = validateBundle(loadFixture(name), { config: { env: 'test' } });
  if (!checked.ok || !checked.bundle) throw new Error(checked.issues.join('\n'));
  const bundle = checked.bundle;
  return {
    storeThemeId: 'st',
    slug: name,
    versionId: 'v1',
    bundle,
    templates: bundle.templates,
    settingsData: bundle.config.settings_data,
    sourceKey: `${name}:v1`,
    preview: false,
    releaseNumber: 0,
  };
}

const XSS = '<script>alert(1)</script>';

function product(over: Partial<PublicProductView> = {}): PublicProductView {
  return {
    id: 'p1',
    title: 'Blue Mug',
    handle: 'blue-mug',
    description_html: '<p>Stoneware</p>',
    vendor: 'Ada',
    product_type: 'Mug',
    tags: [],
    options: [],
    variants: [{ id: 'v1', title: 'Default', option_values: [], price: 1250, compare_at_price: null, currency: 'USD', available: true }],
    available: true,
    media_ids: [],
    price_min: 1250,
    price_max: 1250,
    currency: 'USD',
    images: [],
    ...over,
  } as PublicProductView;
}

function cart(over: Partial<CartView> = {}): CartView {
  return {
    id: 'c1',
    version: 1,
    currency: 'USD',
    lines: [
      {
        variant_id: 'v1',
        product_id: 'p1',
        product_title: `Mug ${XSS}`,
        variant_title: 'Large',
        quantity: 2,
        unit_price: 1250,
        line_total: 2500,
        problem: null,
      },
    ],
    item_count: 2,
    coupon: { code: 'TEN', applicable: true, discount: 250, reason: null },
    subtotal: 2500,
    discount: 250,
    total: 2250,
    purchasable: true,
    expires_at: '2030-01-01T00:00:00.000Z',
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...over,
  } as unknown as CartView;
}

function pageModel(over: Partial<PageModel> = {}): PageModel {
  return {
    template: 'home',
    locale: 'en',
    store: { name: 'Ada & Co', subdomain: 'ada', currency: 'USD' },
    product: null,
    collection: null,
    collections: {},
    cart: null,
    page: null,
    blog: null,
    listing: null,
    selectedVariantId: null,
    menu: [],
    csrfToken: null,
    search: null,
    ...over,
  };
}

/** A json-contract page of `theme` (aurora) with `page`, its sections from `template` (or `sections`). */
function jsonPage(page: PageModel, sections?: RenderedSection[]): string {
  const theme = fixture('aurora');
  const t = translator(theme.bundle.locales, page.locale);
  const env: JsonContractEnv = { bundle: theme.bundle, page, t, assetUrl: (path) => `/assets/${path}` };
  const content = (sections ?? (page.template === '404' ? [] : templateSections(theme, page.template, t)!))
    .map((s) => renderJsonContractSection(s, env))
    .join('\n');
  return renderJsonContractLayout(env, themeSettings(theme, t), content);
}

/** A section of `html` by its id. */
const sectionOf = (html: string, id: string) => {
  const start = html.indexOf(`<section id="section-${id}"`);
  expect(start, `section ${id}`).to.be.greaterThan(-1);
  return html.slice(start, html.indexOf('</section>', start) + '</section>'.length);
};

/** The collection the search page shows its results in (the page model's `collection`). */
const results = (products: PublicProductView[]) => ({ id: 'search', title: 'Search', handle: 'search', description_html: '', products });

describe('The markup contract of the json-contract renderer (docs/rendering.md, Markup contract)', () => {
  it('prints theme settings as CSS custom properties with their units; choices as data-setting-* on <body>', () => {
    const html = jsonPage(pageModel());
    const root = /<style>:root \{ ([^}]*) \}<\/style>/.exec(html)![1]!;
    expect(root).to.include('--page-width: 1200px;'); // range, unit px
    expect(root).to.include('--base-font-size: 17px;'); // settings_data over the default, with the unit
    expect(root).to.include('--products-per-row: 4;'); // number without a unit
    expect(root).to.include('--color-accent: #b45309;'); // a colour as it is
    expect(root).to.not.match(/--logo:|--footer-text:|--font-heading:/); // images, text and choices are not properties
    expect(html).to.match(/<body class="template-home"[^>]* data-setting-font-heading="serif"/);
    expect(cssSettingValue({ type: 'range', unit: '%' }, 30)).to.equal('30%');
    expect(cssSettingValue({ type: 'number', unit: 'products' }, 3)).to.equal('3'); // not a CSS unit: the bare number
    expect(cssSettingValue({ type: 'number' }, Number.NaN)).to.equal(null);
    expect(cssSettingValue({ type: 'color' }, 'red; } body { display: none')).to.equal(null);
    expect(cssSettingValue({ type: 'text' }, '12')).to.equal(null);
  });

  it('prints the hero with its text over its media: media, overlay, then content; its unit settings on the section', () => {
    const hero = sectionOf(jsonPage(pageModel()), 'hero');
    expect(hero).to.match(/^<section id="section-hero" class="section section--hero hero hero--large" data-section-type="hero"/);
    expect(hero).to.include('style="--overlay-opacity: 30%;"');
    expect(hero).to.match(
      /<div class="hero__media"><img class="hero__image" src="\/assets\/assets\/hero.svg" alt=""><\/div><div class="hero__overlay" aria-hidden="true"><\/div><div class="hero__content page-width"><div class="hero__blocks">/,
    );
    expect(hero).to.include('<h2 class="block__heading block__heading--large">New season, new light</h2>');
    expect(hero).to.include('<a class="button button--primary block__button" href="/collections/new-arrivals">Shop now</a>');
    const theme = fixture('aurora');
    const t = translator(theme.bundle.locales, 'en');
    const bare = templateSections(theme, 'home', t)!.find((s) => s.id === 'hero')!;
    delete bare.settings.image;
    expect(jsonPage(pageModel(), [bare])).to.include('class="section section--hero hero hero--large hero--no-media"');
  });

  it('prints the header: store name, main menu (escaped; links other than http(s) or a site path left out), search, account, cart count; and a footer', () => {
    const html = jsonPage(
      pageModel({
        store: { name: `Ada ${XSS}`, subdomain: 'ada', currency: 'USD' },
        menu: [
          { title: `Sale ${XSS}`, url: '/collections/sale' },
          { title: 'Evil', url: 'javascript:alert(1)' },
          { title: 'Journal', url: 'https://journal.example.com/' },
        ],
        cart: cart(),
      }),
    );
    const header = html.slice(html.indexOf('<header'), html.indexOf('</header>'));
    expect(header).to.include('<a class="site-header__logo" href="/">Ada &lt;script&gt;alert(1)&lt;/script&gt;</a>');
    expect(header).to.include(
      '<li class="site-nav__item"><a class="site-nav__link" href="/collections/sale">Sale &lt;script&gt;alert(1)&lt;/script&gt;</a></li>',
    );
    expect(header).to.include('<a class="site-nav__link" href="https://journal.example.com/">Journal</a>');
    expect(html).to.not.include('javascript:');
    expect(html).to.not.include('Evil');
    expect(html).to.not.include(XSS);
    expect(header).to.include('<form class="site-search" action="/search" method="get" role="search">');
    expect(header).to.match(
      /<label class="site-search__label visually-hidden" for="site-search-q">Search<\/label><input class="site-search__input" id="site-search-q" type="search" name="q"/,
    );
    expect(header).to.include('<a class="site-header__account" href="/account/login">Log in</a>');
    expect(header, 'the <details> menu of a narrow screen').to.match(/<details class="menu-drawer"><summary class="menu-drawer__toggle">[\s\S]*<\/details>/);
    const signedIn = jsonPage(pageModel({ customer: { signed_in: true } }));
    expect(signedIn).to.include('<a class="site-header__account" href="/account">Account</a>');
    expect(signedIn).not.to.include('Log in');
    expect(header).to.include('<a class="site-header__cart" href="/cart">Cart <span class="site-header__cart-count">2</span>');
    // The footer text is a placeholder the merchant writes (empty by default): the store's name stands alone.
    expect(html).to.match(/<footer class="site-footer">.*<p class="site-footer__store">/);
    expect(html).to.not.include('site-footer__text');
    // No menu: a link to every product.
    expect(jsonPage(pageModel())).to.include('<a class="site-nav__link" href="/collections/all">Shop all</a>');
  });

  it('wraps the product blocks in the add-to-cart form: csrf_token only with a token, id and quantity fields, "Add to cart" or a disabled "Sold out"', () => {
    const withImage = product({ images: [{ url: 'https://cdn.example.com/mug.jpg', alt: 'A "blue" mug', width: 800, height: 1000 }] });
    const anonymous = sectionOf(jsonPage(pageModel({ template: 'product', product: withImage })), 'main');
    expect(anonymous).to.include(
      '<form class="product-form" method="post" action="/cart/add" data-product-id="p1"><input type="hidden" name="id" value="v1" data-variant-id>',
    );
    expect(anonymous).to.not.include('csrf_token');
    expect(anonymous).to.include(
      '<input class="product__quantity-input quantity-input" id="quantity-main" type="number" name="quantity" min="1" value="1" inputmode="numeric">',
    );
    expect(anonymous).to.include('<label class="product__label" for="quantity-main">Quantity</label>');
    expect(anonymous).to.include('<button type="submit" class="button button--primary product__add" data-add-to-cart>Add to cart</button>');
    expect(anonymous).to.include(
      '<img class="main-product__image" src="https://cdn.example.com/mug.jpg" alt="A &quot;blue&quot; mug" width="800" height="1000" loading="eager">',
    );
    expect(anonymous.indexOf('main-product__media')).to.be.lessThan(anonymous.indexOf('main-product__info'));

    const token = sectionOf(jsonPage(pageModel({ template: 'product', product: product(), csrfToken: 'tok"<&' })), 'main');
    expect(token).to.include(
      'action="/cart/add" data-product-id="p1"><input type="hidden" name="csrf_token" value="tok&quot;&lt;&amp;"><input type="hidden" name="id" value="v1" data-variant-id>',
    );
    expect(token).to.include('<div class="placeholder main-product__placeholder" aria-hidden="true">'); // no image

    const variants = product({
      options: [{ name: 'Size', values: ['S', 'M', 'L'] }],
      variants: [
        { id: 'vs', title: 'S', option_values: ['S'], price: 1000, compare_at_price: null, currency: 'USD', available: false },
        { id: 'vm', title: 'M', option_values: ['M'], price: 1100, compare_at_price: 1400, currency: 'USD', available: true },
      ],
    });
    const picker = sectionOf(jsonPage(pageModel({ template: 'product', product: variants })), 'main');
    // The cart form carries the shown variant; the picker's select belongs to the GET form of the page (?variant=).
    expect(picker).to.include('<input type="hidden" name="id" value="vm" data-variant-id>');
    expect(picker).to.include(
      '<label class="product__label" for="variant-main">Size</label><div class="product__variant-row"><select class="product__select select" id="variant-main" name="variant" form="variant-form-main" data-variant-select>',
    );
    expect(picker).to.include('<option value="vs">S – Sold out</option><option value="vm" selected>M</option>');
    expect(picker).to.include(
      '<button class="button button--secondary product__choose" type="submit" form="variant-form-main" data-no-js-only>Choose</button>',
    );
    expect(picker).to.include(
      '<form id="variant-form-main" method="get" action="/products/blue-mug"></form><script type="application/json" data-variant-json>',
    );
    expect(picker).to.include('<span class="price__current">$11.00</span> <s class="price__compare">'); // the first available variant's price
    // ?variant= chose the sold-out one: its price, its id in the cart form, "Sold out".
    const chosen = sectionOf(jsonPage(pageModel({ template: 'product', product: variants, selectedVariantId: 'vs' })), 'main');
    expect(chosen).to.include('<input type="hidden" name="id" value="vs" data-variant-id>');
    expect(chosen).to.include('<option value="vs" selected>S – Sold out</option>');
    expect(chosen).to.include('<div data-product-price><div class="product__price price"><span class="price__current">$10.00</span></div></div>');
    expect(chosen).to.include('<button type="submit" class="button button--primary product__add" data-add-to-cart disabled>Sold out</button>');

    const soldOut = product({ available: false, variants: [{ ...product().variants[0]!, available: false }] });
    expect(jsonPage(pageModel({ template: 'product', product: soldOut }))).to.include(
      '<button type="submit" class="button button--primary product__add" data-add-to-cart disabled>Sold out</button>',
    );
  });

  it('prints the listing’s filter and sort forms (GET, with submit buttons), the active filters with links clearing them, and a pager with rel prev/next', () => {
    const listing = pageListing(
      '/search',
      { page: 2, sort: 'title-ascending', available: false, priceGte: null, priceLte: 2550 },
      { total: 60, perPage: 24, sort: 'title-ascending', defaultSort: 'manual' },
      'USD',
      'mug <b>',
    );
    const html = jsonPage(pageModel({ template: 'collection', search: { query: 'mug <b>' }, collection: results([product()]), listing }));
    const q = 'q=mug+%3Cb%3E';
    expect(html).to.include(`<link rel="prev" href="/search?${q}&amp;filter.v.availability=0&amp;filter.v.price.lte=25.50&amp;sort_by=title-ascending">`);
    expect(html).to.include(
      `<link rel="next" href="/search?${q}&amp;filter.v.availability=0&amp;filter.v.price.lte=25.50&amp;sort_by=title-ascending&amp;page=3">`,
    );
    const main = sectionOf(html, 'main');
    expect(main).to.include(
      '<form class="listing-filters" method="get" action="/search" data-listing-form><input type="hidden" name="q" value="mug &lt;b&gt;"><input type="hidden" name="sort_by" value="title-ascending">',
    );
    expect(main).to.include('<option value="0" selected>Out of stock</option>');
    expect(main).to.include('name="filter.v.price.lte" min="0" step="any" inputmode="decimal" placeholder="To" value="25.50">');
    expect(main).to.include('<option value="title-ascending" selected>Alphabetically, A-Z</option>');
    expect(main).to.include('<button class="button button--secondary listing-sort__apply" type="submit" data-no-js-only>Sort</button>');
    expect(main).to.include(
      `<a class="listing-active__item" href="/search?${q}&amp;filter.v.price.lte=25.50&amp;sort_by=title-ascending"><span class="visually-hidden">Remove filter: </span>Out of stock ×</a>`,
    );
    expect(main).to.include(`<a class="listing-active__clear" href="/search?${q}&amp;sort_by=title-ascending">Clear all</a>`);
    expect(main).to.include('<nav class="pager" aria-label="Pagination"><a class="pager__link pager__link--prev" href="');
    expect(main).to.include('<li><span class="pager__page pager__page--current" aria-current="page">2</span></li>');
    expect(main).to.match(/<a class="pager__page" href="[^"]*page=3" rel="next">3<\/a>/);
    expect(main).to.match(/<a class="pager__link pager__link--next" href="[^"]*page=3" rel="next">Next<\/a><\/nav>/);
    // One page: no pager, no head links.
    const one = pageListing(
      '/collections/all',
      { page: 1, sort: null, available: null, priceGte: null, priceLte: null },
      { total: 3, perPage: 24, sort: 'manual', defaultSort: 'manual' },
      'USD',
    );
    const single = jsonPage(
      pageModel({ template: 'collection', collection: { id: 'c', title: 'All', handle: 'all', description_html: '', products: [product()] }, listing: one }),
    );
    expect(single).to.not.include('class="pager"');
    expect(single).to.not.match(/<link rel="(prev|next)"/);
  });

  it('prints product cards with the first image (a placeholder without one), title and price in a grid; a featured section leaves out the page’s product', () => {
    const mug = product({ images: [{ url: 'javascript:alert(1)', alt: '', width: null, height: null }] });
    const cup = product({
      id: 'p2',
      title: `Cup ${XSS}`,
      handle: 'cup',
      images: [{ url: '/v1/storefront/ada/media/cup.jpg', alt: 'Cup', width: 600, height: 600 }],
    });
    const collections = { bestsellers: { id: 'c', title: 'Best', handle: 'bestsellers', description_html: '', products: [mug, cup] } };
    const related = sectionOf(jsonPage(pageModel({ template: 'product', product: mug, collections })), 'related');
    expect(related).to.include('<h2 class="featured-collection__title">You may also like</h2>');
    expect(related).to.include('<ul class="product-grid" role="list"><li class="product-grid__item"><a class="product-card" href="/products/cup">');
    expect(related).to.include(
      '<div class="product-card__media"><img class="product-card__image" src="/v1/storefront/ada/media/cup.jpg" alt="Cup" width="600" height="600" loading="lazy"></div>',
    );
    expect(related).to.include('<h3 class="product-card__title">Cup &lt;script&gt;alert(1)&lt;/script&gt;</h3>');
    expect(related).to.include('<div class="product-card__price price"><span class="price__current">$12.50</span></div>');
    expect(related).to.not.include('href="/products/blue-mug"'); // the page's own product
    const home = sectionOf(jsonPage(pageModel({ collections })), 'featured');
    expect(home).to.include(
      '<a class="product-card" href="/products/blue-mug"><div class="product-card__media"><div class="placeholder product-card__placeholder"',
    ); // javascript: refused
    expect(home).to.not.include('javascript:');
    // A collection that does not exist: the section is empty (`.section:empty` in the theme's CSS).
    expect(sectionOf(jsonPage(pageModel()), 'featured')).to.match(
      /<section id="section-featured" class="section section--featured-collection featured-collection"[^>]*><\/section>/,
    );
  });

  it('prints the cart: per line an update form and a remove form to /cart/change (csrf_token when the page has one), totals and "Check out"; an empty cart', () => {
    const html = sectionOf(jsonPage(pageModel({ template: 'cart', cart: cart(), csrfToken: 'tok' })), 'main');
    const csrf = '<input type="hidden" name="csrf_token" value="tok">';
    expect(html).to.include(
      `<form class="cart-line__update" method="post" action="/cart/change">${csrf}<input type="hidden" name="id" value="v1"><label class="cart-line__label" for="quantity-v1">Quantity<span class="visually-hidden"> Mug &lt;script&gt;alert(1)&lt;/script&gt;</span></label><input class="cart-line__quantity-input quantity-input" id="quantity-v1" type="number" name="quantity" min="0" value="2" inputmode="numeric"><button type="submit" class="button button--secondary button--small">Update</button></form>`,
    );
    expect(html).to.include(
      `<form class="cart-line__remove" method="post" action="/cart/change">${csrf}<input type="hidden" name="id" value="v1"><input type="hidden" name="quantity" value="0"><button type="submit" class="link-button">Remove`,
    );
    expect(html).to.include('<p class="cart-line__title">Mug &lt;script&gt;alert(1)&lt;/script&gt;</p><p class="cart-line__variant">Large</p>');
    expect(html).to.include('<td class="cart-line__price">$12.50</td>');
    expect(html).to.include('<td class="cart-line__total">$25.00</td>');
    expect(html).to.include('<div class="cart-summary__row"><dt>Subtotal</dt><dd>$25.00</dd></div>');
    expect(html).to.include('<div class="cart-summary__row cart-summary__row--discount"><dt>Discount (TEN)</dt><dd>−$2.50</dd></div>');
    expect(html).to.include('<div class="cart-summary__row cart-summary__row--total"><dt>Total</dt><dd>$22.50</dd></div>');
    expect(html).to.include('<a class="button button--primary cart-summary__checkout" href="/checkout">Check out</a>');
    expect(html).to.not.include(XSS);
    const noToken = sectionOf(jsonPage(pageModel({ template: 'cart', cart: cart() })), 'main');
    expect(noToken).to.not.include('csrf_token');
    const empty = sectionOf(jsonPage(pageModel({ template: 'cart' })), 'main');
    expect(empty).to.include(
      '<div class="main-cart__empty"><p>Your cart is empty.</p><a class="button button--primary" href="/collections/all">Continue shopping</a></div>',
    );
    expect(empty).to.not.include('<form');
  });

  it('prints a search page: the heading with the query (escaped), the results, or a message when there are none', () => {
    const query = 'mug <b>"x"</b>';
    const found = sectionOf(jsonPage(pageModel({ template: 'collection', search: { query }, collection: results([product()]) })), 'main');
    expect(found).to.include('<h1 class="main-collection__title">Search results for &quot;mug &lt;b&gt;&quot;x&quot;&lt;/b&gt;&quot;</h1>');
    expect(found).to.include('value="mug &lt;b&gt;&quot;x&quot;&lt;/b&gt;"'); // the search field keeps the query
    expect(found).to.include('href="/products/blue-mug"');
    const none = sectionOf(jsonPage(pageModel({ template: 'collection', search: { query: 'nothing' }, collection: results([]) })), 'main');
    expect(none).to.include('Search results for &quot;nothing&quot;');
    expect(none).to.include('<p>No products match your search.</p>');
    expect(jsonPage(pageModel({ template: 'collection', search: { query: 'x' } }))).to.include('<title>Search: x – Ada &amp; Co</title>');
  });

  it('prints a content page: its title escaped, its (already sanitised) body as it is', () => {
    const html = sectionOf(
      jsonPage(pageModel({ template: 'page', page: { handle: 'about', title: `About ${XSS}`, body_html: '<p>We <em>make</em> mugs.</p>' } })),
      'main',
    );
    expect(html).to.include(
      '<h1 class="main-page__title">About &lt;script&gt;alert(1)&lt;/script&gt;</h1><div class="main-page__body rte"><p>We <em>make</em> mugs.</p></div>',
    );
  });
});

/** A Liquid page of the ember-liquid fixture, rendered in this thread as a render thread would. */
function liquidPage(page: PageModel): string {
  const theme = fixture('ember-liquid');
  const t = translator(theme.bundle.locales, page.locale);
  const sections = templateSections(theme, page.template as TemplateKey, t)!;
  const compiled = compileLiquid(liquidThemeOf(theme.bundle), () => undefined);
  let html = '';
  const now = performance.timeOrigin + performance.now();
  renderLiquidPage(
    compiled,
    {
      key: theme.sourceKey,
      sections,
      from: 0,
      done: [],
      page,
      settings: themeSettings(theme, t),
      locale: page.locale,
      storeName: page.store.name,
      currency: page.store.currency,
      assetBase: '/assets/',
      deadline: null,
      budgetMs: 5000,
      warmupBudgetMs: 5000,
      resumedAt: null,
      skip: [],
      sectionTimeMs: 5000,
      layoutMinMs: 100,
      maxPageChars: 2 * 1024 * 1024,
    },
    { deadline: now + 10_000, warmup: 5000 },
    () => 0,
    (m: LiquidPageMessage) => {
      if (m.type === 'section' && m.failure) throw new Error(m.failure.message);
      if (m.type === 'layout') {
        if (m.failure) throw new Error(m.failure.message);
        html = m.html ?? '';
      }
    },
  );
  return html;
}

describe('Liquid objects for the shop’s pages (ember-liquid)', () => {
  it('offers linklists["main-menu"] (and menus): escaped titles, only http(s) or site links; the cart count; search and account links', () => {
    const html = liquidPage(
      pageModel({
        menu: [
          { title: `Sale ${XSS}`, url: '/collections/sale' },
          { title: 'Evil', url: 'javascript:alert(1)' },
        ],
        cart: cart(),
      }),
    );
    expect(html).to.include('<a class="site-nav__link" href="/collections/sale">Sale &lt;script&gt;alert(1)&lt;/script&gt;</a>');
    expect(html).to.not.include('javascript:');
    expect(html).to.not.include(XSS);
    expect(html).to.include('<form class="site-search site-header__search" action="/search" method="get" role="search">');
    expect(html).to.include('<a class="site-header__link" href="/account/login">Log in</a>');
    expect(html).to.include('<span class="cart-count">2</span>');
  });

  it('prints the add-to-cart form with csrf_token only when the page has one, id and quantity; product images from product.media and featured_image', () => {
    const mug = product({ images: [{ url: 'https://cdn.example.com/mug.jpg', alt: 'Mug', width: 800, height: 800 }] });
    const anonymous = liquidPage(pageModel({ template: 'product', product: mug }));
    expect(anonymous).to.include('<form class="product-form" method="post" action="/cart/add">');
    expect(anonymous).to.not.include('csrf_token');
    expect(anonymous).to.include('<input type="hidden" name="id" value="v1" data-variant-id>');
    expect(anonymous).to.match(/<input class="quantity-input" id="quantity-main" type="number" name="quantity" value="1" min="1"/);
    expect(anonymous).to.match(/<button type="submit" class="button button--wide" data-add-to-cart>\s*Add to cart\s*<\/button>/);
    expect(anonymous).to.include('<img class="main-product__image" src="https://cdn.example.com/mug.jpg" alt="Mug" loading="eager">');
    const withToken = liquidPage(pageModel({ template: 'product', product: mug, csrfToken: 'tok"<' }));
    expect(withToken).to.include('<input type="hidden" name="csrf_token" value="tok&quot;&lt;">');
    const home = liquidPage(
      pageModel({
        collections: { new: { id: 'c', title: 'New', handle: 'new', description_html: '', products: [mug, product({ id: 'p2', handle: 'cup' })] } },
      }),
    );
    expect(home).to.include('<img src="https://cdn.example.com/mug.jpg" alt="Mug" loading="lazy">'); // featured_image
    expect(home).to.include('<div class="placeholder" aria-hidden="true">'); // the product without one
  });

  it('shows the variant ?variant= chose (product.selected_variant): its price, its id in the cart form, Sold out when it cannot be bought', () => {
    const candle = product({
      options: [{ name: 'Size', values: ['Small', 'Large'] }],
      variants: [
        { id: 'vs', title: 'Small', option_values: ['Small'], price: 1800, compare_at_price: null, currency: 'USD', available: true },
        { id: 'vl', title: 'Large', option_values: ['Large'], price: 2900, compare_at_price: 3500, currency: 'USD', available: false },
      ],
    });
    const first = liquidPage(pageModel({ template: 'product', product: candle }));
    expect(first).to.include('<input type="hidden" name="id" value="vs" data-variant-id>');
    expect(first).to.include('<span class="price__current">$18.00</span>');
    expect(first).to.match(/<select id="variant-main" name="variant" form="variant-form-main" data-variant-select>/);
    expect(first).to.include('<form id="variant-form-main" method="get" action="/products/blue-mug"></form>');
    const json = /<script type="application\/json" data-variant-json>([\s\S]*?)<\/script>/.exec(first)?.[1];
    const data = JSON.parse(json!) as { variants: { id: string; available: boolean; price_html: string }[] };
    expect(data.variants.map((v) => [v.id, v.available])).to.deep.equal([
      ['vs', true],
      ['vl', false],
    ]);
    expect(data.variants[1]!.price_html).to.include('$29.00').and.include('$35.00');
    const large = liquidPage(pageModel({ template: 'product', product: candle, selectedVariantId: 'vl' }));
    expect(large).to.include('<input type="hidden" name="id" value="vl" data-variant-id>');
    expect(large).to.include('<span class="price__current">$29.00</span>');
    expect(large).to.include('<s class="price__compare">$35.00</s>');
    expect(large).to.match(/<option value="vl" selected>Large – Sold out<\/option>/);
    expect(large).to.match(/data-add-to-cart disabled>\s*Sold out\s*<\/button>/);
  });

  it('paginates with {% paginate %} and default_pagination, and prints the sort and filter forms from collection.sort_options and collection.filters', () => {
    const listing = pageListing(
      '/collections/all',
      { page: 2, sort: 'price-ascending', available: true, priceGte: 1000, priceLte: null },
      { total: 30, perPage: 24, sort: 'price-ascending', defaultSort: 'manual' },
      'USD',
    );
    const html = liquidPage(
      pageModel({
        template: 'collection',
        collection: { id: 'all', title: 'All products', handle: 'all', description_html: '', products: [product()] },
        listing,
      }),
    );
    const prev = '/collections/all?filter.v.availability=1&amp;filter.v.price.gte=10&amp;sort_by=price-ascending';
    expect(html).to.include(`<link rel="prev" href="${prev}">`);
    expect(html).to.not.include('rel="next"');
    expect(html).to.include(
      `<span class="prev"><a href="${prev}" rel="prev">« Previous</a></span> <span class="page"><a href="${prev}" rel="prev">1</a></span> <span class="page current">2</span>`,
    );
    expect(html).to.include('<option value="price-ascending" selected>Price, low to high</option>');
    expect(html).to.include('<option value="1" selected>In stock</option>');
    expect(html).to.match(/name="filter.v.price.gte" value="10"/);
    expect(html).to.include('<input type="hidden" name="sort_by" value="price-ascending">');
    expect(html).to.include('<title>All products – Page 2 – Ada &amp; Co</title>');
  });

  it('prints the cart’s change and remove forms with csrf_token, and page.content as HTML', () => {
    const html = liquidPage(pageModel({ template: 'cart', cart: cart(), csrfToken: 'tok' }));
    expect(html).to.match(
      /<form class="cart-item__update" method="post" action="\/cart\/change">\s*<input type="hidden" name="csrf_token" value="tok">\s*<input type="hidden" name="id" value="v1">/,
    );
    expect(html).to.match(/<input class="quantity-input" id="quantity-v1" type="number" name="quantity" value="2" min="0"/);
    expect(html).to.match(/<input type="hidden" name="quantity" value="0">\s*<button class="link-button" type="submit">Remove/);
    expect(html).to.include('<a class="button button--wide" href="/checkout">Check out</a>');
    const about = liquidPage(pageModel({ template: 'page', page: { handle: 'about', title: 'About', body_html: '<p>We <em>make</em> mugs.</p>' } }));
    expect(about).to.include('<div class="rte"><p>We <em>make</em> mugs.</p></div>');
  });

  it('offers search (terms, results, performed) on a search page, and its results as the collection', () => {
    const html = liquidPage(pageModel({ template: 'collection', search: { query: '<b>mug</b>' }, collection: results([product()]) }));
    expect(html).to.include('<h1>Search results for "&lt;b&gt;mug&lt;/b&gt;"</h1>');
    expect(html).to.include('href="/products/blue-mug"');
    const none = liquidPage(pageModel({ template: 'collection', search: { query: 'zzz' } }));
    expect(none).to.include('No products match your search.');
  });
});
