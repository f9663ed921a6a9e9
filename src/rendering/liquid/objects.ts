import type { CartView, PublicCollectionWithProducts, PublicProductView } from '../../storefront/index.js';
import type { SettingField } from '../../themes/index.js';
import { renderAppBlock } from '../app-blocks.js';
import { sanitizeMerchantHtml } from '../../merchant-html.js';
import { SafeHtml } from './engine.js';
import type { LiquidTheme } from './theme.js';
import type { PageModel } from '../page.js';
import type { RenderedSection } from '../sections.js';
import { ownValue } from '../../own-keys.js';

/**
 * The Shopify-shaped objects a Liquid theme reads (docs/rendering.md, Liquid objects): plain
 * data built from the page context, never a document or a live object.
 */

/** Settings as Liquid sees them: richtext sanitised and marked safe; everything else plain (escaped on output). */
function liquidSettings(settings: Record<string, unknown>, schema: readonly SettingField[]): Record<string, unknown> {
  const richtext = new Set(schema.filter((f) => f.type === 'richtext').map((f) => f.id));
  return Object.fromEntries(
    Object.entries(settings).map(([k, v]) => [k, richtext.has(k) && typeof v === 'string' ? new SafeHtml(sanitizeMerchantHtml(v)) : v]),
  );
}

const variantObject = (v: PublicProductView['variants'][number]) => ({
  id: v.id,
  title: v.title,
  price: v.price,
  compare_at_price: v.compare_at_price,
  available: v.available,
  options: v.option_values,
});

function productObject(p: PublicProductView) {
  const variants = p.variants.map(variantObject);
  const first = variants.find((v) => v.available) ?? variants[0] ?? null;
  return {
    id: p.id,
    title: p.title,
    handle: p.handle,
    url: `/products/${encodeURIComponent(p.handle)}`,
    description: new SafeHtml(p.description_html),
    vendor: p.vendor,
    type: p.product_type,
    tags: p.tags,
    options: p.options,
    price: p.price_min,
    price_min: p.price_min,
    price_max: p.price_max,
    available: p.available,
    variants,
    selected_or_first_available_variant: first,
    first_available_variant: first,
    has_only_default_variant: variants.length <= 1,
    featured_image: null,
    media: [],
  };
}

function collectionObject(c: PublicCollectionWithProducts) {
  return {
    id: c.id,
    title: c.title,
    handle: c.handle,
    url: `/collections/${encodeURIComponent(c.handle)}`,
    description: new SafeHtml(c.description_html),
    products: c.products.map(productObject),
    products_count: c.products.length,
  };
}

function cartObject(cart: CartView | null) {
  if (!cart) return { item_count: 0, items: [], total_price: 0, items_subtotal_price: 0, total_discount: 0, currency: null };
  return {
    item_count: cart.item_count,
    items: cart.lines.map((l) => ({
      product_id: l.product_id,
      variant_id: l.variant_id,
      title: l.variant_title ? `${l.product_title} - ${l.variant_title}` : l.product_title,
      product: { title: l.product_title },
      variant: { title: l.variant_title },
      quantity: l.quantity,
      price: l.unit_price,
      final_price: l.unit_price,
      line_price: l.line_total,
      final_line_price: l.line_total,
      url: `/cart#${encodeURIComponent(l.variant_id)}`,
    })),
    items_subtotal_price: cart.subtotal,
    total_discount: cart.discount,
    total_price: cart.total,
    currency: cart.currency,
  };
}

/** The page's objects: shop, settings, template, request, product, collection, collections, cart, page, blog, linklists. */
export function pageObjects(bundle: Pick<LiquidTheme, 'config'>, page: PageModel, settings: Record<string, unknown>): Record<string, unknown> {
  const product = page.product ? productObject(page.product) : null;
  const collection = page.collection ? collectionObject(page.collection) : null;
  return {
    shop: { name: page.store.name, currency: page.store.currency, permanent_domain: page.store.subdomain },
    settings: liquidSettings(
      settings,
      bundle.config.settings_schema.settings.flatMap((g) => g.settings),
    ),
    template: { name: page.template },
    request: { locale: { iso_code: page.locale }, page_type: page.template },
    product,
    collection,
    collections: Object.fromEntries(Object.entries(page.collections).map(([h, c]) => [h, collectionObject(c)])),
    cart: cartObject(page.cart),
    page: page.page ? { title: page.page.title, handle: page.page.handle, content: '' } : null,
    blog: page.template === 'blog' ? { title: 'Blog', articles: [] } : null,
    linklists: {},
    page_title: product?.title ?? collection?.title ?? page.page?.title ?? page.store.name,
    current_page: 1,
    content_for_header: new SafeHtml(''),
  };
}

/** `section` for a section's template: id, type, settings, and blocks (app blocks with their HTML as `block.html`). */
export function sectionObject(bundle: Pick<LiquidTheme, 'sections' | 'blocks'>, section: RenderedSection) {
  const def = ownValue(bundle.sections, section.type);
  return {
    id: section.id,
    type: section.type,
    settings: liquidSettings(section.settings, def?.settings_schema ?? []),
    blocks: section.blocks.map((b) => ({
      id: b.id,
      type: b.type,
      settings: b.app ? b.settings : liquidSettings(b.settings, ownValue(bundle.blocks, b.type)?.settings_schema ?? []),
      shopify_attributes: new SafeHtml(`data-block-id="${b.id.replace(/[^A-Za-z0-9_-]/g, '')}"`),
      html: b.app ? new SafeHtml(renderAppBlock(b)) : null,
    })),
  };
}
