import type { PublicProductView } from '../storefront/index.js';
import type { SettingField, ThemeBundle } from '../themes/index.js';
import { renderAppBlock } from './app-blocks.js';
import { sanitizeMerchantHtml } from '../merchant-html.js';
import { escapeHtml, safeHref } from './html.js';
import type { Translate } from './locale.js';
import { formatMoney } from './money.js';
import type { PageModel } from './page.js';
import type { RenderedBlock, RenderedSection } from './sections.js';
import { ownValue } from '../own-keys.js';

/** What the built-in templates use besides the section: the page, the theme, translations and asset URLs. */
export type JsonContractEnv = { bundle: ThemeBundle; page: PageModel; t: Translate; assetUrl: (path: string) => string };

type SectionTemplate = (section: RenderedSection, env: JsonContractEnv) => string;

const money = (env: JsonContractEnv, minor: number) => escapeHtml(formatMoney(minor, env.page.store.currency));

const productCard = (env: JsonContractEnv, p: PublicProductView) =>
  `<li class="product-card"><a href="/products/${encodeURIComponent(p.handle)}"><h3 class="product-card__title">${escapeHtml(p.title)}</h3><span class="price">${money(env, p.price_min)}</span></a></li>`;

const productGrid = (env: JsonContractEnv, products: readonly PublicProductView[], limit: number) =>
  products.length === 0
    ? '<p class="product-grid__empty"></p>'
    : `<ul class="product-grid" role="list">${products
        .slice(0, limit)
        .map((p) => productCard(env, p))
        .join('')}</ul>`;

const count = (value: unknown, fallback: number) =>
  typeof value === 'number' && Number.isFinite(value) ? Math.max(0, Math.min(250, Math.floor(value))) : fallback;

/** The blocks of a product section, each by its type; other blocks render generically. */
function productBlock(block: RenderedBlock, env: JsonContractEnv, product: PublicProductView): string {
  switch (block.type) {
    case 'product-title':
      return `<h1 class="product__title">${escapeHtml(product.title)}</h1>`;
    case 'product-price': {
      const variant = product.variants[0];
      const compare = variant?.compare_at_price;
      return `<div class="price"><span class="price__current">${money(env, variant?.price ?? product.price_min)}</span>${compare && variant && compare > variant.price && block.settings.show_compare_at !== false ? `<s class="price__compare">${money(env, compare)}</s>` : ''}</div>`;
    }
    case 'variant-picker':
      return product.variants.length <= 1
        ? ''
        : `<select name="id">${product.variants.map((v) => `<option value="${escapeHtml(v.id)}"${v.available ? '' : ' disabled'}>${escapeHtml(v.title)}</option>`).join('')}</select>`;
    case 'quantity-selector':
      return '<input type="number" name="quantity" min="1" value="1">';
    case 'buy-buttons':
      return `<button type="submit" name="add" class="button"${product.available ? '' : ' disabled'}>${escapeHtml(product.available ? 'Add to cart' : 'Sold out')}</button>`;
    case 'product-description':
      return `<div class="rte">${product.description_html}</div>`;
    default:
      return genericBlock(block, env);
  }
}

const SECTION_TEMPLATES: Record<string, SectionTemplate> = {
  'main-product': (section, env) => {
    const product = env.page.product;
    if (!product) return '';
    return `<div class="main-product__info">${section.blocks.map((b) => blockHtml(b, env, (x) => productBlock(x, env, product))).join('')}</div>`;
  },
  'main-collection': (section, env) => {
    const c = env.page.collection;
    if (!c) return '';
    return `<h1>${escapeHtml(c.title)}</h1>${c.description_html ? `<div class="rte">${c.description_html}</div>` : ''}${productGrid(env, c.products, count(section.settings.products_per_page, 24))}`;
  },
  'main-cart': (_section, env) => {
    const cart = env.page.cart;
    if (!cart || cart.lines.length === 0) return '<h1>Cart</h1><p class="cart__empty">Your cart is empty.</p>';
    const rows = cart.lines
      .map(
        (l) =>
          `<tr><td>${escapeHtml(l.product_title)}${l.variant_title ? ` – ${escapeHtml(l.variant_title)}` : ''}</td><td>${l.quantity}</td><td>${money(env, l.line_total)}</td></tr>`,
      )
      .join('');
    return `<h1>Cart</h1><table class="cart__lines">${rows}</table><p class="cart__total">${money(env, cart.total)}</p>`;
  },
  'featured-collection': (section, env) => {
    const handle = section.settings.collection;
    const collection = typeof handle === 'string' ? ownValue(env.page.collections, handle) : undefined;
    return `${heading(section.settings.title)}${productGrid(env, collection?.products ?? [], count(section.settings.products_to_show, 4))}`;
  },
};
SECTION_TEMPLATES['featured-products'] = SECTION_TEMPLATES['featured-collection']!;

const heading = (value: unknown, level = 2) => (typeof value === 'string' && value ? `<h${level}>${escapeHtml(value)}</h${level}>` : '');

function fieldTypes(schema: readonly SettingField[]): Map<string, SettingField['type']> {
  return new Map(schema.map((f) => [f.id, f.type]));
}

/**
 * Any block without a built-in template: a `heading` setting as a heading, richtext settings as
 * sanitised HTML, other text as escaped paragraphs, a `label` with a `link` as a link, an image
 * asset as an image; every scalar setting also as a `data-setting-<id>` attribute.
 */
function genericBlock(block: RenderedBlock, env: JsonContractEnv): string {
  const types = fieldTypes(ownValue(env.bundle.blocks, block.type)?.settings_schema ?? []);
  const s = block.settings;
  const parts: string[] = [];
  if (typeof s.heading === 'string') parts.push(heading(s.heading, 2));
  for (const [id, type] of types) {
    const value = ownValue(s, id);
    if (typeof value !== 'string' || id === 'heading' || id === 'label' || id === 'link') continue;
    if (type === 'richtext') parts.push(`<div class="rte">${sanitizeMerchantHtml(value)}</div>`);
    else if (type === 'text' || type === 'textarea') parts.push(`<p>${escapeHtml(value)}</p>`);
    else if (type === 'image' && value.startsWith('assets/')) parts.push(`<img src="${escapeHtml(env.assetUrl(value))}" alt="" loading="lazy">`);
  }
  const href = safeHref(s.link);
  if (typeof s.label === 'string')
    parts.push(href ? `<a class="button" href="${escapeHtml(href)}">${escapeHtml(s.label)}</a>` : `<span class="button">${escapeHtml(s.label)}</span>`);
  return parts.join('');
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

/** Any section without a built-in template: its `title` or `heading` setting, then its blocks. */
const genericSection: SectionTemplate = (section, env) =>
  `${heading(section.settings.title ?? section.settings.heading)}${section.blocks.map((b) => blockHtml(b, env, (x) => genericBlock(x, env))).join('')}`;

/** One section's HTML: its built-in template by `renderer_key`, or the generic one, in a `<section>` carrying its settings. */
export function renderJsonContractSection(section: RenderedSection, env: JsonContractEnv): string {
  const builtIn = ownValue(SECTION_TEMPLATES, section.rendererKey);
  const template = builtIn ?? genericSection;
  const image =
    typeof section.settings.image === 'string' && section.settings.image.startsWith('assets/')
      ? `<img class="section__media" src="${escapeHtml(env.assetUrl(section.settings.image))}" alt="">`
      : '';
  const appBlocks =
    builtIn && section.rendererKey !== 'main-product'
      ? section.blocks
          .filter((b) => b.app)
          .map(renderAppBlock)
          .join('')
      : '';
  return `<section id="section-${escapeHtml(section.id)}" class="section section--${escapeHtml(section.rendererKey)}" data-section-type="${escapeHtml(section.type)}"${dataAttributes(section.settings)}>${image}${template(section, env)}${appBlocks}</section>`;
}

/** The page around the sections: language, title, the theme's CSS assets, its colour settings as CSS variables, and its JS. */
export function renderJsonContractLayout(env: JsonContractEnv, settings: Record<string, unknown>, content: string): string {
  const css = env.bundle.renderer.assets
    .filter((a) => a.content_type === 'text/css')
    .map((a) => `<link rel="stylesheet" href="${escapeHtml(env.assetUrl(a.path))}">`);
  const js = env.bundle.renderer.assets
    .filter((a) => a.content_type === 'text/javascript')
    .map((a) => `<script src="${escapeHtml(env.assetUrl(a.path))}" defer></script>`);
  const vars = Object.entries(settings)
    .filter(([, v]) => (typeof v === 'string' && /^#[0-9a-fA-F]{3,8}$/.test(v)) || (typeof v === 'number' && Number.isFinite(v)))
    .map(([k, v]) => `--${k.replace(/_/g, '-')}: ${String(v)};`)
    .join(' ');
  const title = env.page.product?.title ?? env.page.collection?.title ?? env.page.page?.title ?? null;
  return (
    `<!doctype html><html lang="${escapeHtml(env.page.locale)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${title ? `${escapeHtml(title)} – ` : ''}${escapeHtml(env.page.store.name)}</title>${css.join('')}<style>:root { ${vars} }</style>${js.join('')}</head>` +
    `<body class="template-${escapeHtml(env.page.template)}"><header class="site-header"><a href="/">${escapeHtml(env.page.store.name)}</a>` +
    `<a href="/cart" class="site-header__cart">${escapeHtml(env.t('general.cart') ?? 'Cart')} (${env.page.cart?.item_count ?? 0})</a></header><main id="main">${content}</main></body></html>`
  );
}
