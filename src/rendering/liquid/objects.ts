import type { CartView, PublicCollectionWithProducts, PublicProductView } from '../../storefront/index.js';
import type { SettingField } from '../../themes/index.js';
import { renderAppBlock } from '../app-blocks.js';
import { sanitizeMerchantHtml } from '../../merchant-html.js';
import { safeHref } from '../../html.js';
import { SafeHtml } from './engine.js';
import type { LiquidTheme } from './theme.js';
import type { PageModel } from '../page.js';
import { listingHeadLinks, listingUrl, type PageListing } from '../listing.js';
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

/** A product image as Shopify's image object: `src` (what `image_url` reads), `alt`, `width`, `height`, `aspect_ratio`. */
const imageObject = (img: PublicProductView['images'][number]) => ({
  src: img.url,
  url: img.url,
  alt: img.alt,
  width: img.width,
  height: img.height,
  aspect_ratio: img.width && img.height ? img.width / img.height : null,
  media_type: 'image',
});

/** A product; `selectedId`: the variant `?variant=` chose (the product page's), which `selected_variant` is. */
function productObject(p: PublicProductView, selectedId: string | null = null) {
  const variants = p.variants.map(variantObject);
  const images = p.images.filter((img) => safeHref(img.url) !== null).map(imageObject);
  const firstAvailable = variants.find((v) => v.available) ?? variants[0] ?? null;
  const selected = variants.find((v) => v.id === selectedId) ?? null;
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
    selected_variant: selected,
    selected_or_first_available_variant: selected ?? firstAvailable,
    first_available_variant: firstAvailable,
    has_only_default_variant: variants.length <= 1,
    featured_image: images[0] ?? null,
    images,
    media: images,
  };
}

function collectionObject(c: PublicCollectionWithProducts, listing: PageListing | null = null) {
  return {
    ...(listing ? listingFields(listing) : {}),
    id: c.id,
    title: c.title,
    handle: c.handle,
    url: listing?.path ?? `/collections/${encodeURIComponent(c.handle)}`,
    description: new SafeHtml(c.description_html),
    products: c.products.map((p) => productObject(p)),
    products_count: listing ? listing.items : c.products.length,
  };
}

/**
 * A listed collection's (or search's) filters and sorting as Shopify names them: `filters`
 * (availability, a list; price, a price_range, in major units), `sort_options`, `sort_by`,
 * `default_sort_by`, `all_products_count`. Counts per value are not computed (null).
 */
function listingFields(l: PageListing) {
  const keep = (omit: string[]) => Object.fromEntries(Object.entries(l.params).filter(([k]) => !omit.includes(k)));
  const withSort: Record<string, string> = l.sort_by === l.default_sort_by ? {} : { sort_by: l.sort_by };
  const url = (params: Record<string, string>) => listingUrl(l.path, { ...params, ...withSort });
  const availability = (value: '1' | '0', label: string) => {
    const active = l.available === (value === '1');
    const others = keep(['filter.v.availability']);
    return {
      label,
      value,
      param_name: 'filter.v.availability',
      active,
      count: null,
      url_to_add: url({ ...others, 'filter.v.availability': value }),
      url_to_remove: url(others),
    };
  };
  const values = [availability('1', 'In stock'), availability('0', 'Out of stock')];
  return {
    filters: [
      {
        label: 'Availability',
        param_name: 'filter.v.availability',
        type: 'list',
        values,
        active_values: values.filter((v) => v.active),
        url_to_remove: url(keep(['filter.v.availability'])),
      },
      {
        label: 'Price',
        param_name: 'filter.v.price',
        type: 'price_range',
        min_value: { param_name: 'filter.v.price.gte', value: l.price_gte || null },
        max_value: { param_name: 'filter.v.price.lte', value: l.price_lte || null },
        active_values: [],
        url_to_remove: url(keep(['filter.v.price.gte', 'filter.v.price.lte'])),
      },
    ],
    sort_options: l.sort_options,
    sort_by: l.sort_by,
    default_sort_by: l.default_sort_by,
    all_products_count: l.items,
    terms: l.params.q ?? null,
  };
}

/** A menu as Shopify's linklist: its links whose URL is an http(s) URL or a site path (others are left out). */
function linklist(handle: string, title: string, links: PageModel['menu']) {
  return {
    handle,
    title,
    links: links.flatMap((l) => {
      const url = safeHref(l.url);
      return url ? [{ title: l.title, url, links: [] }] : [];
    }),
  };
}

/** A search page's `search`: its terms and results (the products of the page's collection). */
function searchObject(page: PageModel, results: ReturnType<typeof productObject>[], total = results.length) {
  return page.search ? { performed: true, terms: page.search.query, results, results_count: total } : null;
}

/** A cart line's image object, when the cart's lines carry one (`image`: `{ url, alt, width, height }`), else null. */
function lineImage(line: CartView['lines'][number]) {
  const image = (line as { image?: Partial<PublicProductView['images'][number]> | null }).image;
  if (!image || typeof image.url !== 'string' || safeHref(image.url) === null) return null;
  return imageObject({ url: image.url, alt: typeof image.alt === 'string' ? image.alt : '', width: image.width ?? null, height: image.height ?? null });
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
      image: lineImage(l),
    })),
    items_subtotal_price: cart.subtotal,
    total_discount: cart.discount,
    total_price: cart.total,
    currency: cart.currency,
  };
}

/** The page's objects: shop, settings, template, request, product, collection, collections, cart, page, blog, linklists, menus, csrf_token, search, customer. */
export function pageObjects(bundle: Pick<LiquidTheme, 'config'>, page: PageModel, settings: Record<string, unknown>): Record<string, unknown> {
  const product = page.product ? productObject(page.product, page.selectedVariantId) : null;
  const collection = page.collection
    ? collectionObject(page.collection, page.listing)
    : page.search
      ? { id: null, title: page.search.query, handle: 'search', url: '/search', description: new SafeHtml(''), products: [], products_count: 0 }
      : null;
  const mainMenu = linklist('main-menu', 'Main menu', page.menu);
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
    page: page.page
      ? { title: page.page.title, handle: page.page.handle, url: `/pages/${encodeURIComponent(page.page.handle)}`, content: new SafeHtml(page.page.body_html) }
      : null,
    blog: page.blog
      ? {
          title: page.blog.title,
          handle: page.blog.handle,
          url: `/blogs/${page.blog.handle}`,
          articles: page.blog.articles.map((a) => ({
            title: a.title,
            handle: a.handle,
            author: a.author,
            published_at: a.published_at,
            content: new SafeHtml(a.body_html),
            url: `/blogs/${page.blog!.handle}#article-${a.handle}`,
          })),
          articles_count: page.blog.articles.length,
        }
      : null,
    linklists: { 'main-menu': mainMenu },
    menus: { 'main-menu': mainMenu },
    csrf_token: page.csrfToken ?? '',
    search: searchObject(page, collection?.products ?? [], page.listing?.items),
    // Shopify's: the signed-in customer, else nil (the header's Account or Log in).
    customer: page.customer ? { logged_in: true } : null,
    page_title: page.template === '404' ? '404 Not Found' : (product?.title ?? collection?.title ?? page.page?.title ?? page.store.name),
    current_page: page.listing?.current_page ?? 1,
    // The platform's part of the head: the listing's `<link rel="prev|next">`.
    content_for_header: new SafeHtml(listingHeadLinks(page.listing)),
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
