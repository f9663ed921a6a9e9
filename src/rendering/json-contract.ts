import type { CartView, PublicProductView } from '../storefront/index.js';
import type { SettingField, ThemeBundle } from '../themes/index.js';
import { renderAppBlock } from './app-blocks.js';
import { sanitizeMerchantHtml } from '../merchant-html.js';
import { escapeHtml, safeHref } from '../html.js';
import type { Translate } from './locale.js';
import { formatMoney } from './money.js';
import type { PageModel } from './page.js';
import type { RenderedBlock, RenderedSection } from './sections.js';
import { ownValue } from '../own-keys.js';

/*
 * The built-in renderer's markup is a contract (docs/rendering.md, "Markup contract"): themes
 * write their CSS against these class names and this structure, so a change here is a change of
 * the contract (the goldens in fixtures/rendering/ show it whole).
 */

/** What the built-in templates use besides the section: the page, the theme, translations and asset URLs. */
export type JsonContractEnv = { bundle: ThemeBundle; page: PageModel; t: Translate; assetUrl: (path: string) => string };

type SectionTemplate = (section: RenderedSection, env: JsonContractEnv) => string;

const money = (env: JsonContractEnv, minor: number) => escapeHtml(formatMoney(minor, env.page.store.currency));

/** A text of the page's chrome: the theme's translation of `key` when it has one, else the English text; escaped. */
const text = (env: JsonContractEnv, key: string, english: string) => escapeHtml(env.t(key) ?? english);

/** A value fit for a BEM modifier (`hero--large`), or null. */
const modifier = (value: unknown) => (typeof value === 'string' && /^[a-z0-9][a-z0-9-]{0,31}$/.test(value) ? value : null);

const count = (value: unknown, fallback: number) =>
  typeof value === 'number' && Number.isFinite(value) ? Math.max(0, Math.min(250, Math.floor(value))) : fallback;

/** The neutral picture shown where a product has no image: a tinted box with an outlined image icon (styled by the theme). */
const placeholder = (cls: string) =>
  `<div class="placeholder ${cls}" aria-hidden="true"><svg class="placeholder__icon" viewBox="0 0 48 48" width="48" height="48" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round" focusable="false"><rect x="6" y="9" width="36" height="30" rx="3"/><circle cx="17" cy="19" r="3.5"/><path d="M6 34l11-10 8 7 6-5 11 9"/></svg></div>`;

type Image = { url: string; alt: string; width: number | null; height: number | null };

/** An image of the catalog as `<img>` (its URL must be http(s) or a site path), or null. */
function imageTag(image: Image | undefined, cls: string, eager = false): string | null {
  const src = image ? safeHref(image.url) : null;
  if (!image || !src) return null;
  const size = (name: string, v: number | null) => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? ` ${name}="${v}"` : '');
  return `<img class="${cls}" src="${escapeHtml(src)}" alt="${escapeHtml(image.alt)}"${size('width', image.width)}${size('height', image.height)} loading="${eager ? 'eager' : 'lazy'}">`;
}

const productUrl = (p: PublicProductView) => `/products/${encodeURIComponent(p.handle)}`;

/** A product's price as cards and the product page show it: the current price, "From" when variants differ, the compare-at price when higher. */
function priceHtml(env: JsonContractEnv, cls: string, current: number, compare: number | null | undefined, from: boolean): string {
  const sale = typeof compare === 'number' && compare > current;
  return (
    `<div class="${cls} price${sale ? ' price--on-sale' : ''}"><span class="price__current">${from ? `${text(env, 'products.from', 'From')} ` : ''}${money(env, current)}</span>` +
    (sale
      ? ` <s class="price__compare"><span class="visually-hidden">${text(env, 'products.regular_price', 'Regular price')} </span>${money(env, compare)}</s>`
      : '') +
    '</div>'
  );
}

const productCard = (env: JsonContractEnv, p: PublicProductView) => {
  const first = p.variants.find((v) => v.available) ?? p.variants[0];
  const price = first?.price ?? p.price_min;
  return (
    `<li class="product-grid__item"><a class="product-card${p.available ? '' : ' product-card--sold-out'}" href="${productUrl(p)}">` +
    `<div class="product-card__media">${imageTag(p.images[0], 'product-card__image') ?? placeholder('product-card__placeholder')}` +
    `${p.available ? '' : `<span class="product-card__badge">${text(env, 'products.sold_out', 'Sold out')}</span>`}</div>` +
    `<h3 class="product-card__title">${escapeHtml(p.title)}</h3>` +
    priceHtml(
      env,
      'product-card__price',
      p.price_max > p.price_min ? p.price_min : price,
      p.price_max > p.price_min ? null : first?.compare_at_price,
      p.price_max > p.price_min,
    ) +
    '</a></li>'
  );
};

const productGrid = (env: JsonContractEnv, products: readonly PublicProductView[], limit: number) =>
  `<ul class="product-grid" role="list">${products
    .slice(0, limit)
    .map((p) => productCard(env, p))
    .join('')}</ul>`;

/** The hidden CSRF field every form carries when the page has a token (docs/shop.md, Forms). */
const csrfField = (env: JsonContractEnv) =>
  env.page.csrfToken === null ? '' : `<input type="hidden" name="csrf_token" value="${escapeHtml(env.page.csrfToken)}">`;

/** The blocks of a product section, each by its type; others render generically. `sid`: the section id, for the fields' ids. */
function productBlock(block: RenderedBlock, env: JsonContractEnv, product: PublicProductView, sid: string): string {
  const current = product.variants.find((v) => v.available) ?? product.variants[0];
  switch (block.type) {
    case 'product-title':
      return `<h1 class="product__title">${escapeHtml(product.title)}</h1>`;
    case 'product-price':
      return priceHtml(
        env,
        'product__price',
        current?.price ?? product.price_min,
        block.settings.show_compare_at === false ? null : current?.compare_at_price,
        false,
      );
    case 'variant-picker':
      return product.variants.length <= 1
        ? ''
        : `<div class="product__variants"><label class="product__label" for="variant-${sid}">${escapeHtml(product.options.map((o) => o.name).join(' / ') || (env.t('products.variant') ?? 'Variant'))}</label>` +
            `<select class="product__select select" id="variant-${sid}" name="id">${product.variants
              .map(
                (v) =>
                  `<option value="${escapeHtml(v.id)}"${v === current ? ' selected' : ''}${v.available ? '' : ' disabled'}>${escapeHtml(v.title)}${v.available ? '' : ` – ${text(env, 'products.sold_out', 'Sold out')}`}</option>`,
              )
              .join('')}</select></div>`;
    case 'quantity-selector':
      return `<div class="product__quantity"><label class="product__label" for="quantity-${sid}">${text(env, 'products.quantity', 'Quantity')}</label><input class="product__quantity-input quantity-input" id="quantity-${sid}" type="number" name="quantity" min="1" value="1" inputmode="numeric"></div>`;
    case 'buy-buttons':
      return `<div class="product__buttons"><button type="submit" class="button button--primary product__add"${product.available ? '' : ' disabled'}>${
        product.available ? text(env, 'products.add_to_cart', 'Add to cart') : text(env, 'products.sold_out', 'Sold out')
      }</button></div>`;
    case 'product-description':
      return `<div class="product__description rte">${product.description_html}</div>`;
    default:
      return genericBlock(block, env);
  }
}

/** The product's images: the first large, the others as thumbnails; a placeholder when it has none. */
function productMedia(product: PublicProductView): string {
  const [first, ...rest] = product.images;
  const main = imageTag(first, 'main-product__image', true);
  if (!main) return `<div class="main-product__media main-product__media--empty">${placeholder('main-product__placeholder')}</div>`;
  const thumbs = rest
    .slice(0, 8)
    .map((img) => imageTag(img, 'main-product__thumb'))
    .filter((t): t is string => t !== null);
  return `<div class="main-product__media">${main}${thumbs.length ? `<div class="main-product__thumbs">${thumbs.join('')}</div>` : ''}</div>`;
}

/** Products of a featured section: on a product page, not the product itself ("You may also like"). */
const othersThan = (env: JsonContractEnv, products: readonly PublicProductView[]) =>
  env.page.product ? products.filter((p) => p.id !== env.page.product!.id) : products;

/** A cart line's image, when the cart's lines carry one (`image`: `{ url, alt, width, height }`), else a placeholder. */
function lineImage(line: CartView['lines'][number]): string {
  const image = (line as { image?: Partial<Image> | null }).image;
  const tag =
    image && typeof image.url === 'string'
      ? imageTag(
          { url: image.url, alt: typeof image.alt === 'string' ? image.alt : '', width: image.width ?? null, height: image.height ?? null },
          'cart-line__image',
        )
      : null;
  return tag ?? placeholder('cart-line__placeholder');
}

/** A variant's title worth showing: not the only variant's "Default" / "Default Title". */
const variantTitle = (title: string | null) => (title && !/^default( title)?$/i.test(title) ? title : null);

function cartLine(env: JsonContractEnv, line: CartView['lines'][number]): string {
  const id = escapeHtml(line.variant_id);
  const title = escapeHtml(line.product_title ?? (env.t('cart.unavailable_item') || 'Unavailable item'));
  const problem =
    line.problem === null
      ? ''
      : `<p class="cart-line__problem">${line.problem === 'out_of_stock' ? text(env, 'cart.out_of_stock', 'Out of stock: not in your total') : text(env, 'cart.unavailable', 'No longer available: not in your total')}</p>`;
  const update =
    `<form class="cart-line__update" method="post" action="/cart/change">${csrfField(env)}<input type="hidden" name="id" value="${id}">` +
    `<label class="cart-line__label" for="quantity-${id}">${text(env, 'cart.quantity', 'Quantity')}<span class="visually-hidden"> ${title}</span></label>` +
    `<input class="cart-line__quantity-input quantity-input" id="quantity-${id}" type="number" name="quantity" min="0" value="${line.quantity}" inputmode="numeric">` +
    `<button type="submit" class="button button--secondary button--small">${text(env, 'cart.update', 'Update')}</button></form>`;
  const remove =
    `<form class="cart-line__remove" method="post" action="/cart/change">${csrfField(env)}<input type="hidden" name="id" value="${id}"><input type="hidden" name="quantity" value="0">` +
    `<button type="submit" class="link-button">${text(env, 'cart.remove', 'Remove')}<span class="visually-hidden"> ${title}</span></button></form>`;
  return (
    `<tr class="cart-line" id="cart-line-${id}"><td class="cart-line__product"><div class="cart-line__item"><div class="cart-line__media">${lineImage(line)}</div>` +
    `<div class="cart-line__details"><p class="cart-line__title">${title}</p>${variantTitle(line.variant_title) ? `<p class="cart-line__variant">${escapeHtml(line.variant_title)}</p>` : ''}${problem}</div></div></td>` +
    `<td class="cart-line__price">${line.unit_price === null ? '' : money(env, line.unit_price)}</td>` +
    `<td class="cart-line__quantity">${update}${remove}</td>` +
    `<td class="cart-line__total">${money(env, line.line_total)}</td></tr>`
  );
}

function cartSummary(env: JsonContractEnv, cart: CartView): string {
  const row = (cls: string, label: string, value: string) => `<div class="cart-summary__row${cls}"><dt>${label}</dt><dd>${value}</dd></div>`;
  const coupon = cart.coupon;
  const couponProblem =
    coupon && !coupon.applicable
      ? `<p class="cart-summary__coupon-problem">${text(env, 'cart.coupon_not_applicable', 'This code does not apply to your cart')}: ${escapeHtml(coupon.code)}</p>`
      : '';
  return (
    `<div class="cart-summary"><dl class="cart-summary__totals">` +
    row('', text(env, 'cart.subtotal', 'Subtotal'), money(env, cart.subtotal)) +
    (cart.discount > 0
      ? row(
          ' cart-summary__row--discount',
          `${text(env, 'cart.discount', 'Discount')}${coupon?.applicable ? ` (${escapeHtml(coupon.code)})` : ''}`,
          `−${money(env, cart.discount)}`,
        )
      : '') +
    row(' cart-summary__row--total', text(env, 'cart.total', 'Total'), money(env, cart.total)) +
    `</dl><form class="cart-summary__coupon" method="post" action="/cart/coupon">${csrfField(env)}<label class="cart-summary__label" for="cart-coupon">${text(env, 'cart.coupon', 'Discount code')}</label>` +
    `<div class="cart-summary__coupon-row"><input class="cart-summary__coupon-input" id="cart-coupon" type="text" name="code" value="${escapeHtml(coupon?.code ?? '')}" autocomplete="off">` +
    `<button type="submit" class="button button--secondary button--small">${text(env, 'cart.apply', 'Apply')}</button></div></form>${couponProblem}` +
    `<p class="cart-summary__note">${text(env, 'cart.taxes_note', 'Shipping is calculated at checkout.')}</p>` +
    `<a class="button button--primary cart-summary__checkout" href="/checkout">${text(env, 'cart.checkout', 'Check out')}</a></div>`
  );
}

/** A search form (GET /search, `q`): in the header and on the search page. */
const searchForm = (env: JsonContractEnv, cls: string, id: string) =>
  `<form class="${cls}" action="/search" method="get" role="search"><label class="${cls}__label visually-hidden" for="${id}">${text(env, 'general.search', 'Search')}</label>` +
  `<input class="${cls}__input" id="${id}" type="search" name="q" value="${escapeHtml(env.page.search?.query ?? '')}" placeholder="${text(env, 'general.search_placeholder', 'Search products')}">` +
  `<button class="${cls}__button" type="submit">${text(env, 'general.search', 'Search')}</button></form>`;

/** The blocks of a section, each in its block wrapper, rendered by `render` (app blocks by the platform). */
const blocks = (section: RenderedSection, env: JsonContractEnv, render: (b: RenderedBlock) => string = (b) => genericBlock(b, env)) =>
  section.blocks.map((b) => blockHtml(b, env, render)).join('');

/** A section's `image` setting naming an asset, as `<img>`, or null. */
const sectionImage = (section: RenderedSection, env: JsonContractEnv, cls: string, eager = false) =>
  typeof section.settings.image === 'string' && section.settings.image.startsWith('assets/')
    ? `<img class="${cls}" src="${escapeHtml(env.assetUrl(section.settings.image))}" alt=""${eager ? '' : ' loading="lazy"'}>`
    : null;

/** Each built-in section: its own element classes (`<renderer_key>__…`) inside `<section class="section section--<key> <key>">`. */
const SECTION_TEMPLATES: Record<string, SectionTemplate> = {
  hero: (section, env) => {
    const image = sectionImage(section, env, 'hero__image', true);
    return (
      `<div class="hero__media">${image ?? ''}</div><div class="hero__overlay" aria-hidden="true"></div>` +
      `<div class="hero__content page-width"><div class="hero__blocks">${blocks(section, env)}</div></div>`
    );
  },
  'image-with-text': (section, env) =>
    `<div class="image-with-text__inner page-width"><div class="image-with-text__media">${sectionImage(section, env, 'image-with-text__image') ?? placeholder('image-with-text__placeholder')}</div>` +
    `<div class="image-with-text__content">${blocks(section, env)}</div></div>`,
  'rich-text': (section, env) =>
    `<div class="rich-text__inner page-width">${heading(section.settings.title ?? section.settings.heading, 'rich-text__title')}${blocks(section, env)}</div>`,
  newsletter: (section, env) =>
    `<div class="newsletter__inner page-width">${heading(section.settings.title ?? section.settings.heading, 'newsletter__title')}${blocks(section, env)}</div>`,
  'main-product': (section, env) => {
    const product = env.page.product;
    if (!product) return '';
    const sid = escapeHtml(section.id);
    const picker = section.blocks.some((b) => b.type === 'variant-picker') && product.variants.length > 1;
    const first = product.variants.find((v) => v.available) ?? product.variants[0];
    const hiddenId = !picker && first ? `<input type="hidden" name="id" value="${escapeHtml(first.id)}">` : '';
    return (
      `<div class="main-product__inner page-width">${productMedia(product)}<div class="main-product__info">` +
      `<form class="product-form" method="post" action="/cart/add" data-product-id="${escapeHtml(product.id)}">${csrfField(env)}${hiddenId}` +
      `${blocks(section, env, (x) => productBlock(x, env, product, sid))}</form></div></div>`
    );
  },
  'main-collection': (section, env) => {
    const c = env.page.collection;
    const search = env.page.search;
    if (!c && !search) return '';
    const products = c?.products ?? [];
    const title = search ? `${env.t('search.results_for') ?? 'Search results for'} "${search.query}"` : c!.title;
    const header =
      `<header class="main-collection__header"><h1 class="main-collection__title">${escapeHtml(title)}</h1>` +
      (search
        ? searchForm(env, 'search-form', `search-${escapeHtml(section.id)}`)
        : c!.description_html
          ? `<div class="main-collection__description rte">${c!.description_html}</div>`
          : '') +
      '</header>';
    if (products.length === 0)
      return `<div class="main-collection__inner page-width">${header}<div class="main-collection__empty"><p>${
        search ? text(env, 'search.no_results', 'No products match your search.') : text(env, 'collections.empty', 'No products here yet.')
      }</p><a class="button button--secondary" href="/collections/all">${text(env, 'general.shop_all', 'Shop all products')}</a></div></div>`;
    return `<div class="main-collection__inner page-width">${header}${productGrid(env, products, count(section.settings.products_per_page, 24))}</div>`;
  },
  'main-cart': (_section, env) => {
    const cart = env.page.cart;
    const title = `<h1 class="main-cart__title">${text(env, 'cart.title', 'Your cart')}</h1>`;
    if (!cart || cart.lines.length === 0)
      return (
        `<div class="main-cart__inner page-width">${title}<div class="main-cart__empty"><p>${text(env, 'cart.empty', 'Your cart is empty.')}</p>` +
        `<a class="button button--primary" href="/collections/all">${text(env, 'cart.continue', 'Continue shopping')}</a></div></div>`
      );
    const head = ['Product', 'Price', 'Quantity', 'Total']
      .map((h) => `<th scope="col" class="cart-table__${h.toLowerCase()}">${text(env, `cart.${h.toLowerCase()}`, h)}</th>`)
      .join('');
    return (
      `<div class="main-cart__inner page-width">${title}<div class="main-cart__layout"><table class="cart-table"><thead><tr>${head}</tr></thead><tbody>` +
      `${cart.lines.map((l) => cartLine(env, l)).join('')}</tbody></table>${cartSummary(env, cart)}</div></div>`
    );
  },
  'main-page': (_section, env) => {
    const page = env.page.page;
    if (!page) return '';
    return `<article class="main-page__inner page-width"><h1 class="main-page__title">${escapeHtml(page.title)}</h1><div class="main-page__body rte">${page.body_html}</div></article>`;
  },
  'main-blog': (section, env) => {
    const articles = env.page.blog?.articles ?? [];
    const list =
      articles.length === 0
        ? `<p class="main-blog__empty">${text(env, 'blog.empty', 'No articles yet. Check back soon.')}</p>`
        : `<div class="main-blog__articles">${articles
            .map((a) => {
              const meta = [a.author, a.published_at ? a.published_at.slice(0, 10) : null]
                .filter((x): x is string => !!x)
                .map(escapeHtml)
                .join(' · ');
              return `<article class="article-card" id="article-${escapeHtml(a.handle)}"><h2 class="article-card__title">${escapeHtml(a.title)}</h2>${meta ? `<p class="article-card__meta">${meta}</p>` : ''}<div class="article-card__body rte">${a.body_html}</div></article>`;
            })
            .join('')}</div>`;
    return (
      `<div class="main-blog__inner page-width"><h1 class="main-blog__title">${escapeHtml(typeof section.settings.title === 'string' && section.settings.title ? section.settings.title : (env.t('blog.title') ?? 'News'))}</h1>` +
      `${list}</div>`
    );
  },
  'featured-collection': (section, env) => {
    const handle = section.settings.collection;
    const collection = typeof handle === 'string' ? ownValue(env.page.collections, handle) : undefined;
    const products = othersThan(env, collection?.products ?? []);
    if (!collection || products.length === 0) return '';
    const key = section.rendererKey === 'featured-products' ? 'featured-products' : 'featured-collection';
    const viewAll =
      section.settings.show_view_all === true
        ? `<a class="${key}__view-all" href="/collections/${encodeURIComponent(collection.handle)}">${text(env, 'general.view_all', 'View all')}</a>`
        : '';
    return (
      `<div class="${key}__inner page-width"><div class="${key}__header">${heading(section.settings.title, `${key}__title`)}${viewAll}</div>` +
      `${productGrid(env, products, count(section.settings.products_to_show, 4))}</div>`
    );
  },
};
SECTION_TEMPLATES['featured-products'] = SECTION_TEMPLATES['featured-collection']!;

/** The built-in sections that render their blocks (app blocks among them, in block order); the others get their app blocks after their content. */
const RENDERS_BLOCKS = new Set(['hero', 'image-with-text', 'rich-text', 'newsletter', 'main-product']);

const heading = (value: unknown, cls: string, level = 2) =>
  typeof value === 'string' && value ? `<h${level} class="${cls}">${escapeHtml(value)}</h${level}>` : '';

function fieldTypes(schema: readonly SettingField[]): Map<string, SettingField['type']> {
  return new Map(schema.map((f) => [f.id, f.type]));
}

/**
 * Any block without a built-in template: a `heading` setting as a heading, richtext settings as
 * sanitised HTML, other text as escaped paragraphs, a `label` with a `link` as a button, an image
 * asset as an image; an `email-form` block as the newsletter's form.
 */
function genericBlock(block: RenderedBlock, env: JsonContractEnv): string {
  const types = fieldTypes(ownValue(env.bundle.blocks, block.type)?.settings_schema ?? []);
  const s = block.settings;
  if (block.type === 'email-form') return emailForm(env, block);
  const parts: string[] = [];
  if (typeof s.heading === 'string' && s.heading) {
    const size = modifier(s.size);
    parts.push(heading(s.heading, `block__heading${size ? ` block__heading--${size}` : ''}`));
  }
  for (const [id, type] of types) {
    const value = ownValue(s, id);
    if (typeof value !== 'string' || id === 'heading' || id === 'label' || id === 'link') continue;
    if (type === 'richtext') parts.push(`<div class="block__text rte">${sanitizeMerchantHtml(value)}</div>`);
    else if (type === 'text' || type === 'textarea') parts.push(`<p class="block__text">${escapeHtml(value)}</p>`);
    else if (type === 'image' && value.startsWith('assets/'))
      parts.push(`<img class="block__image" src="${escapeHtml(env.assetUrl(value))}" alt="" loading="lazy">`);
  }
  const href = safeHref(s.link);
  if (typeof s.label === 'string' && s.label) {
    const cls = `button button--${modifier(s.style) ?? 'primary'} block__button`;
    parts.push(href ? `<a class="${cls}" href="${escapeHtml(href)}">${escapeHtml(s.label)}</a>` : `<span class="${cls}">${escapeHtml(s.label)}</span>`);
  }
  return parts.join('');
}

/** The newsletter's email form: there is no mailing list yet, so it leads to the store's sign-up page with the address. */
function emailForm(env: JsonContractEnv, block: RenderedBlock): string {
  const id = `email-${escapeHtml(block.id)}`;
  const label =
    typeof block.settings.button_label === 'string' && block.settings.button_label
      ? escapeHtml(block.settings.button_label)
      : text(env, 'newsletter.subscribe', 'Subscribe');
  return (
    `<form class="email-form" method="get" action="/account/register"><label class="email-form__label visually-hidden" for="${id}">${text(env, 'newsletter.email', 'Email address')}</label>` +
    `<input class="email-form__input" id="${id}" type="email" name="email" autocomplete="email" placeholder="${text(env, 'newsletter.placeholder', 'you@example.com')}" required>` +
    `<button class="button button--primary email-form__button" type="submit">${label}</button></form>`
  );
}

function blockHtml(block: RenderedBlock, env: JsonContractEnv, render: (b: RenderedBlock) => string): string {
  if (block.app) return renderAppBlock(block);
  return `<div class="block block--${escapeHtml(block.type)}" data-block-id="${escapeHtml(block.id)}"${dataAttributes(block.settings)}>${render(block)}</div>`;
}

function dataAttributes(settings: Record<string, unknown>): string {
  return Object.entries(settings)
    .filter(([, v]) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
    .map(([k, v]) => ` data-setting-${escapeHtml(k.replace(/_/g, '-'))}="${escapeHtml(v)}"`)
    .join('');
}

/** CSS units a `range`/`number` setting's `unit` may name to be printed with its value (`1200px`); any other unit prints the bare number. */
const CSS_UNITS = new Set(['px', 'rem', 'em', '%', 'vw', 'vh', 'vmin', 'vmax', 'ch', 'ex', 'ms', 's', 'deg', 'fr']);
const HEX_COLOUR = /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;

/**
 * A setting as a CSS custom property's value (docs/rendering.md, "Settings as CSS custom
 * properties"): a `color` as it is (a hex colour, else nothing); a `range` or `number` as its
 * number, followed by the field's `unit` when that is a CSS unit; nothing for other types.
 */
export function cssSettingValue(field: Pick<SettingField, 'type' | 'unit'>, value: unknown): string | null {
  if (field.type === 'color') return typeof value === 'string' && HEX_COLOUR.test(value) ? value : null;
  if (field.type === 'range' || field.type === 'number') {
    if (typeof value !== 'number' || !Number.isFinite(value)) return null;
    return `${value}${field.unit && CSS_UNITS.has(field.unit) ? field.unit : ''}`;
  }
  return null;
}

const cssName = (id: string) => (/^[A-Za-z][A-Za-z0-9_-]*$/.test(id) ? `--${id.replace(/_/g, '-')}` : null);

/** `--id: value;` for each field of `schema` that has a CSS value in `settings`. */
function cssVariables(schema: readonly SettingField[], settings: Record<string, unknown>): string[] {
  return schema.flatMap((f) => {
    const name = cssName(f.id);
    const value = cssSettingValue(f, ownValue(settings, f.id));
    return name && value !== null ? [`${name}: ${value};`] : [];
  });
}

/** One section's HTML: its built-in template by `renderer_key`, or the generic one, in a `<section>` carrying its settings. */
export function renderJsonContractSection(section: RenderedSection, env: JsonContractEnv): string {
  const builtIn = ownValue(SECTION_TEMPLATES, section.rendererKey);
  const key = escapeHtml(section.rendererKey);
  const classes = [`section section--${key}`];
  let content: string;
  if (builtIn) {
    classes.push(key);
    if (section.rendererKey === 'hero') {
      const height = modifier(section.settings.height);
      if (height) classes.push(`hero--${height}`);
      if (!sectionImage(section, env, '')) classes.push('hero--no-media');
    }
    if (section.rendererKey === 'image-with-text') classes.push(`image-with-text--image-${modifier(section.settings.image_position) ?? 'left'}`);
    content = builtIn(section, env);
    if (!RENDERS_BLOCKS.has(section.rendererKey)) {
      const apps = section.blocks.filter((b) => b.app);
      if (apps.length > 0) content += `<div class="section__app-blocks page-width">${apps.map(renderAppBlock).join('')}</div>`;
    }
  } else {
    // Any other section: its image, its `title` or `heading`, then its blocks.
    const image = sectionImage(section, env, 'section__image');
    content = `<div class="section__inner page-width">${image ? `<div class="section__media">${image}</div>` : ''}${heading(section.settings.title ?? section.settings.heading, 'section__title')}${blocks(section, env)}</div>`;
  }
  const vars = cssVariables(ownValue(env.bundle.sections, section.type)?.settings_schema ?? [], section.settings);
  return (
    `<section id="section-${escapeHtml(section.id)}" class="${classes.join(' ')}" data-section-type="${escapeHtml(section.type)}"${dataAttributes(section.settings)}` +
    `${vars.length ? ` style="${escapeHtml(vars.join(' '))}"` : ''}>${content}</section>`
  );
}

/** The header's links: the main menu (each link's URL an http(s) URL or a site path, else left out), or "Shop all" when the store has no menu. */
function menuLinks(env: JsonContractEnv, cls: string): string {
  const links = env.page.menu.length > 0 ? env.page.menu : [{ title: env.t('general.shop_all') ?? 'Shop all', url: '/collections/all' }];
  return links
    .flatMap((l) => {
      const href = safeHref(l.url);
      return href ? [`<li class="${cls}__item"><a class="${cls}__link" href="${escapeHtml(href)}">${escapeHtml(l.title)}</a></li>`] : [];
    })
    .join('');
}

/** The page's title: the product, collection, search or page, then the store. */
function pageTitle(env: JsonContractEnv): string {
  const page = env.page;
  const title = page.search
    ? `${env.t('general.search') ?? 'Search'}: ${page.search.query}`
    : (page.product?.title ?? page.collection?.title ?? page.page?.title ?? (page.template === 'cart' ? (env.t('cart.title') ?? 'Your cart') : null));
  return `${title ? `${escapeHtml(title)} – ` : ''}${escapeHtml(page.store.name)}`;
}

/**
 * The page around the sections (docs/rendering.md, Markup contract): language, title, the theme's
 * CSS, its colour and size settings as CSS custom properties (with their units), its choices as
 * `data-setting-*` on `<body>`, its JS; a skip link, the header (store name, main menu, search,
 * account, cart with its count), the sections in `<main>`, the footer.
 */
export function renderJsonContractLayout(env: JsonContractEnv, settings: Record<string, unknown>, content: string): string {
  const css = env.bundle.renderer.assets
    .filter((a) => a.content_type === 'text/css')
    .map((a) => `<link rel="stylesheet" href="${escapeHtml(env.assetUrl(a.path))}">`);
  const js = env.bundle.renderer.assets
    .filter((a) => a.content_type === 'text/javascript')
    .map((a) => `<script src="${escapeHtml(env.assetUrl(a.path))}" defer></script>`);
  const fields = env.bundle.config.settings_schema.settings.flatMap((g) => g.settings);
  const vars = cssVariables(fields, settings).join(' ');
  const choices = fields
    .filter((f) => f.type === 'select' || f.type === 'radio' || f.type === 'toggle')
    .flatMap((f) => {
      const v = ownValue(settings, f.id);
      const name = cssName(f.id);
      return name && (typeof v === 'string' || typeof v === 'boolean') ? [` data-setting-${escapeHtml(name.slice(2))}="${escapeHtml(v)}"`] : [];
    })
    .join('');
  const footerField = fields.find((f) => f.id === 'footer_text' && f.type === 'richtext');
  const footerText = footerField ? ownValue(settings, 'footer_text') : undefined;
  const store = escapeHtml(env.page.store.name);
  const itemCount = env.page.cart?.item_count ?? 0;
  const header =
    `<header class="site-header"><div class="site-header__inner page-width">` +
    `<a class="site-header__logo" href="/">${store}</a>` +
    `<nav class="site-header__nav" aria-label="${text(env, 'general.main_menu', 'Main menu')}"><ul class="site-nav" role="list">${menuLinks(env, 'site-nav')}</ul></nav>` +
    `<div class="site-header__actions">${searchForm(env, 'site-search', 'site-search-q')}` +
    `<a class="site-header__account" href="/account">${text(env, 'general.account', 'Account')}</a>` +
    `<a class="site-header__cart" href="/cart">${text(env, 'general.cart', 'Cart')} <span class="site-header__cart-count">${itemCount}</span><span class="visually-hidden"> ${itemCount === 1 ? text(env, 'general.item', 'item') : text(env, 'general.items', 'items')}</span></a>` +
    `</div></div></header>`;
  const footer =
    `<footer class="site-footer"><div class="site-footer__inner page-width">` +
    `<div class="site-footer__brand"><p class="site-footer__store">${store}</p>${typeof footerText === 'string' && footerText ? `<div class="site-footer__text rte">${sanitizeMerchantHtml(footerText)}</div>` : ''}</div>` +
    `<nav class="site-footer__nav" aria-label="${text(env, 'general.footer_menu', 'Footer menu')}"><ul class="footer-nav" role="list">${menuLinks(env, 'footer-nav')}` +
    `<li class="footer-nav__item"><a class="footer-nav__link" href="/search">${text(env, 'general.search', 'Search')}</a></li></ul></nav>` +
    `<p class="site-footer__copyright">© ${store}</p></div></footer>`;
  return (
    `<!doctype html><html lang="${escapeHtml(env.page.locale)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${pageTitle(env)}</title>${css.join('')}<style>:root { ${vars} }</style>${js.join('')}</head>` +
    `<body class="template-${escapeHtml(env.page.template)}"${choices}><a class="skip-link" href="#main">${text(env, 'general.skip_to_content', 'Skip to content')}</a>` +
    `${header}<main id="main" class="site-main" tabindex="-1">${content}</main>${footer}</body></html>`
  );
}
