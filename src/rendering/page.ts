import { PlatformError, type ErrorCode } from '../errors.js';
import type { Platform } from '../platform.js';
import {
  browsePublicProducts,
  findPublicCollection,
  firstProductImages,
  getPublicProduct,
  loadPricedCart,
  presentCart,
  presentPublicCollection,
  type CartView,
  type PublicCollectionWithProducts,
  type PublicImage,
  type PublicProductView,
} from '../storefront/index.js';
import type { StoreView } from '../stores/index.js';
import { findCollectionByHandle } from '../catalog/index.js';
import { BLOG_HANDLE, findPublishedPage, listPublishedArticles, storeMenu, type PublishedArticle } from '../content/index.js';
import type { RenderableTheme, TemplateKey } from '../themes/index.js';
import { DEFAULT_LOCALE, localeChain } from './locale.js';
import { listingSettings, type ListingQuery, type PageListing } from './listing.js';
import { readPageListing } from './page-listing.js';
import type { RenderedSection } from './sections.js';

/** What a page is asked for (the route's input, or a benchmark's). */
export type PageRequest = {
  /** A template of the theme, or `404`: the platform's not-found body in the theme's layout (docs/rendering.md, Not found). */
  template: PageTemplate;
  /** The product's or collection's handle (product and collection pages); a page's handle. */
  handle?: string;
  /** The shopper's cart (X-Cart-Token); an unknown or expired one renders as an empty cart. */
  cartToken?: string;
  /** A locale asked for (`?locale=`); else the store's, else `en`. */
  locale?: string;
  /** The forms' CSRF token for this browser (the shop's pages, src/shop/); unset on pages that are the same for everyone. */
  csrfToken?: string;
  /** A search (`/search?q=`): the collection template shows the products matching it. */
  search?: string;
  /** A customer is signed in on this browser (the shop's pages): the header says Account, not Log in. */
  signedIn?: boolean;
  /** A collection or search page's `page`, `sort_by` and `filter.v.*` parameters (src/rendering/listing.ts). */
  listing?: ListingQuery;
  /** A product page's `?variant=`: the variant it shows (one of the product's, else ignored). */
  variant?: string;
};

/** What a page renders: one of the theme's templates, or the platform's 404 in the theme's layout. */
export type PageTemplate = TemplateKey | '404';

/** The engine-neutral page context: what every engine renders from (docs/rendering.md, Page context). */
export type PageModel = {
  template: PageTemplate;
  locale: string;
  store: { name: string; subdomain: string; currency: string };
  product: PublicProductView | null;
  collection: PublicCollectionWithProducts | null;
  /** Collections named by a section's `collection` setting, by handle (featured products). */
  collections: Record<string, PublicCollectionWithProducts>;
  cart: PageCart | null;
  /** A page of the store's content (`/pages/<handle>`): its title and sanitised body. */
  page: { handle: string; title: string; body_html: string } | null;
  /** The store's main menu, which the header prints (docs/content.md); empty when it has none. */
  menu: MenuLink[];
  /**
   * The value of the `csrf_token` hidden field every storefront form carries, when the page is
   * for one browser (it has a cart or a customer session); null on pages that are the same for
   * everyone, whose forms (add to cart) carry none (docs/shop.md, Forms and CSRF).
   */
  csrfToken: string | null;
  /** The search a `/search?q=` page shows (rendered with the collection template), else null. */
  search: { query: string } | null;
  /** The store's blog on a blog page (`/blogs/news`): its published articles, newest first. */
  blog: { handle: string; title: string; articles: PublishedArticle[] } | null;
  /** The signed-in customer, when there is one (its pages are then this browser's); null for everyone else. */
  customer?: { signed_in: true } | null;
  /** A collection or search page's listing: its page, sort and filters with their URLs (src/rendering/listing.ts), else null. */
  listing: PageListing | null;
  /** The variant `?variant=` chose on a product page, when it is one of the product's; else null. */
  selectedVariantId: string | null;
};

/** The shopper's cart as a page shows it: each line with its product's first image (null without one). */
export type PageCart = Omit<CartView, 'lines'> & { lines: (CartView['lines'][number] & { image?: PublicImage | null })[] };

/** A link of a navigation menu: its text and where it goes (a path on the store, or an absolute URL). */
export type MenuLink = { title: string; url: string };

/** How many products a collection brings to a page (collection pages, featured collections). */
export const PAGE_PRODUCTS = 24;

/**
 * The locale a page renders in: the one asked for (`?locale=`), else the store's, whichever the
 * theme has first (or its language: `es-MX` → `es`), else `en`.
 */
export function pageLocale(theme: RenderableTheme, requested: string | undefined, storeLocale?: string): string {
  for (const wanted of [requested, storeLocale]) {
    if (wanted) for (const l of localeChain(wanted)) if (Object.hasOwn(theme.bundle.locales, l)) return l;
  }
  return DEFAULT_LOCALE;
}

const notFound = (what: string, code: ErrorCode = 'not_found') => new PlatformError('not_found', code, `${what} not found`);

/**
 * The page context from the storefront's public reads: the product (product pages, by handle)
 * or collection (collection pages) or 404; the collections that sections name; the cart when
 * the shopper sent a token.
 */
export async function buildPageModel(
  platform: Platform,
  store: StoreView,
  sections: readonly RenderedSection[],
  locale: string,
  request: PageRequest,
  theme?: RenderableTheme,
): Promise<PageModel> {
  const handle = request.handle;
  const menu = await storeMenu(platform, store.id, 'main-menu');
  const product = request.template === 'product' ? await getPublicProduct(platform, store, requireHandle(handle, 'Product')) : null;
  const listed = request.template === 'collection' ? await pageCollection(platform, store, request, listingSettings(sections, theme)) : null;
  if (request.template === 'collection' && !listed) throw notFound('Collection');
  const collection = listed?.collection ?? null;
  const named = [...new Set(sections.map((s) => s.settings.collection).filter((h): h is string => typeof h === 'string' && h.length > 0 && h.length <= 255))];
  const found = await Promise.all(named.map((h) => findPublicCollection(platform, store, h, PAGE_PRODUCTS)));
  const collections: Record<string, PublicCollectionWithProducts> = Object.fromEntries(found.flatMap((c) => (c ? [[c.handle, c]] : [])));
  const cart = request.cartToken ? await shopperCart(platform, store, request.cartToken) : null;
  return {
    template: request.template,
    locale,
    store: { name: store.name, subdomain: store.subdomain, currency: store.currency },
    product,
    collection,
    collections: request.template === 'cart' ? suggestions(collections, cart) : collections,
    cart,
    page: request.template === 'page' ? await contentPage(platform, store.id, handle) : null,
    menu: menu ?? [],
    csrfToken: request.csrfToken ?? null,
    search: request.search !== undefined ? { query: request.search } : null,
    blog: request.template === 'blog' ? { handle: BLOG_HANDLE, title: 'News', articles: await listPublishedArticles(platform, store.id, BLOG_ARTICLES) } : null,
    customer: request.signedIn ? { signed_in: true } : null,
    listing: listed?.listing ?? null,
    selectedVariantId: product && request.variant && product.variants.some((v) => v.id === request.variant) ? request.variant : null,
  };
}

/**
 * On the cart page, the collections its sections name are suggestions (Add a little extra): only
 * what can be bought, and nothing the cart already holds (docs/rendering.md, Page context).
 */
function suggestions(collections: Record<string, PublicCollectionWithProducts>, cart: PageCart | null): Record<string, PublicCollectionWithProducts> {
  const inCart = new Set(cart?.lines.flatMap((l) => (l.product_id ? [l.product_id] : [])) ?? []);
  return Object.fromEntries(
    Object.entries(collections).map(([handle, c]) => [handle, { ...c, products: c.products.filter((p) => p.available && !inCart.has(p.id)) }]),
  );
}

/** How many articles a blog page shows. */
const BLOG_ARTICLES = 20;

/** A page template's page: the store's published page of that handle, else 404. */
async function contentPage(platform: Platform, storeId: string, handle: string | undefined) {
  const found = handle ? await findPublishedPage(platform, storeId, handle) : null;
  if (!found) throw notFound('Page');
  return found;
}

/**
 * A collection page's collection and its listing (one page of its products, sorted and filtered
 * as asked): the one its handle names; for `all` (unless the store has a collection of that
 * handle), every published product; for a search, the products matching it.
 */
async function pageCollection(
  platform: Platform,
  store: StoreView,
  request: PageRequest,
  settings: ReturnType<typeof listingSettings>,
): Promise<{ collection: PublicCollectionWithProducts; listing: PageListing } | null> {
  const list = (scope: { collectionId?: string; q?: string }, path: string) =>
    readPageListing(
      (q) => (scope.q === '' ? Promise.resolve({ items: [], total: 0 }) : browsePublicProducts(platform, store, { ...scope, ...q })),
      path,
      request.listing ?? {},
      settings,
      store.currency,
      request.search,
    );
  if (request.search !== undefined) {
    const q = request.search.trim();
    const { products, listing } = await list({ q }, '/search');
    return { collection: { id: 'search', handle: 'search', title: 'Search', description_html: '', products }, listing };
  }
  const handle = requireHandle(request.handle, 'Collection');
  const found = await findCollectionByHandle(platform, store.id, handle);
  if (!found && handle !== 'all') return null;
  const path = `/collections/${encodeURIComponent(handle)}`;
  const { products, listing } = await list(found ? { collectionId: found.id } : {}, path);
  const collection = found
    ? { ...presentPublicCollection(found), products }
    : { id: 'all', handle: 'all', title: 'All products', description_html: '', products };
  return { collection, listing };
}

function requireHandle(handle: string | undefined, what: string): string {
  if (!handle) throw notFound(what);
  return handle;
}

async function shopperCart(platform: Platform, store: StoreView, token: string): Promise<PageCart | null> {
  try {
    const cart = presentCart(await loadPricedCart(platform, store, token));
    const images = await firstProductImages(
      platform,
      store,
      cart.lines.flatMap((l) => (l.product_id ? [l.product_id] : [])),
    );
    return { ...cart, lines: cart.lines.map((l) => ({ ...l, image: (l.product_id && images.get(l.product_id)) || null })) };
  } catch (err) {
    if (err instanceof PlatformError && err.kind === 'not_found') return null;
    throw err;
  }
}
