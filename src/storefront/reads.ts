import {
  browseProducts,
  findCollectionByHandle,
  findProductByHandle,
  listCollections,
  listProducts,
  productsByIds,
  type BrowseQuery,
  type ProductView,
} from '../catalog/index.js';
import { notFound } from '../errors.js';
import { activeLocationIds, availableAt, productIdsInStock } from '../inventory/index.js';
import { mediaRecordsByIds, type MediaRecord } from '../media/index.js';
import type { Page } from '../pagination.js';
import type { Platform } from '../platform.js';
import { findStoreById, findStoreBySubdomain, type StoreView } from '../stores/index.js';
import { presentPublicCollection, presentPublicProduct, presentPublicStore, type PublicImage, type PublicProductView } from './present.js';
import type { ListPublicProductsQuery, LookupQuery } from './schemas.js';

/**
 * The store a storefront request names, or 404. Every unknown subdomain answers the same
 * `not_found` (a suspended state, when stores get one, will answer it too).
 */
export async function storefrontStore(platform: Platform, subdomain: string): Promise<StoreView> {
  const store = await findStoreBySubdomain(platform, subdomain);
  if (!store) throw notFound('Store');
  return store;
}

/** The subdomain a host names under STOREFRONT_BASE_DOMAIN (`ada.shops.example.com` → `ada`), or null. */
export function subdomainOfHost(baseDomain: string, host: string): string | null {
  const name = host.trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  const suffix = `.${baseDomain}`;
  if (!name.endsWith(suffix)) return null;
  const label = name.slice(0, -suffix.length);
  return /^[a-z0-9-]{1,63}$/.test(label) ? label : null;
}

export async function lookupStore(platform: Platform, query: LookupQuery) {
  const subdomain = query.subdomain !== undefined ? query.subdomain.toLowerCase() : subdomainOfHost(platform.config.storefront.baseDomain, query.host ?? '');
  if (subdomain === null) throw notFound('Store');
  return presentPublicStore(await storefrontStore(platform, subdomain));
}

/**
 * Whether each variant can be bought now: untracked, or sold past zero (`continue`), or with
 * stock at one of the store's active locations. One read of the levels for the whole page.
 */
export async function variantAvailability(
  platform: Platform,
  storeId: string,
  variants: readonly ProductView['variants'][number][],
): Promise<Map<string, boolean>> {
  const out = new Map<string, boolean>();
  const tracked = variants.filter((v) => v.inventory_tracked && v.inventory_policy === 'deny');
  for (const v of variants) out.set(v.id, true);
  if (tracked.length === 0) return out;
  const locations = await activeLocationIds(platform, storeId);
  const levels = await availableAt(
    platform,
    storeId,
    tracked.map((v) => v.id),
    locations,
  );
  for (const v of tracked)
    out.set(
      v.id,
      [...(levels.get(v.id)?.values() ?? [])].some((n) => n > 0),
    );
  return out;
}

/**
 * The store a public read is for: the store (its id and subdomain), or its id alone, when the
 * subdomain is read (one more read; callers that hold the store pass it).
 */
export type PublicStoreRef = string | Pick<StoreView, 'id' | 'subdomain'>;

const storeIdOf = (ref: PublicStoreRef) => (typeof ref === 'string' ? ref : ref.id);

async function resolveStoreRef(platform: Platform, ref: PublicStoreRef): Promise<Pick<StoreView, 'id' | 'subdomain'>> {
  if (typeof ref !== 'string') return ref;
  const store = await findStoreById(platform, ref);
  if (!store) throw notFound('Store');
  return store;
}

/**
 * A product image's public URL (docs/storefront.md, Product images): a path on the platform's
 * host (as theme asset URLs are), the same for as long as the media file exists (media never
 * change), so it is cached for good: `/v1/storefront/<subdomain>/media/<media id>/<file name>`.
 */
export const publicImagePath = (subdomain: string, m: Pick<MediaRecord, 'id' | 'url_filename'>): string =>
  `/v1/storefront/${encodeURIComponent(subdomain)}/media/${m.id}/${m.url_filename}`;

/** A product's images in its `media_ids` order (media that are gone are left out); alt text: the media's, else the product's title. */
function productImages(subdomain: string, p: ProductView, found: ReadonlyMap<string, MediaRecord>): PublicImage[] {
  return p.media_ids.flatMap((id) => {
    const m = found.get(id);
    return m ? [{ url: publicImagePath(subdomain, m), alt: m.alt ?? p.title, width: m.width, height: m.height }] : [];
  });
}

/** A page of products as shoppers see them: one read of the page's stock, one of its media. */
async function presentPublicProducts(platform: Platform, storeRef: PublicStoreRef, products: readonly ProductView[]): Promise<PublicProductView[]> {
  const storeId = storeIdOf(storeRef);
  const mediaIds = products.flatMap((p) => p.media_ids);
  const [availability, media, subdomain] = await Promise.all([
    variantAvailability(
      platform,
      storeId,
      products.flatMap((p) => p.variants),
    ),
    mediaRecordsByIds(platform, storeId, mediaIds),
    mediaIds.length === 0 ? '' : resolveStoreRef(platform, storeRef).then((s) => s.subdomain),
  ]);
  return products.map((p) => presentPublicProduct(p, availability, productImages(subdomain, p, media)));
}

/**
 * Each product's first image (its first media that still exists), by product id, for the lines of
 * a cart page: one read of the products, one of their first media. Products without one are left out.
 */
export async function firstProductImages(
  platform: Platform,
  store: Pick<StoreView, 'id' | 'subdomain'>,
  productIds: readonly string[],
): Promise<Map<string, PublicImage>> {
  const products = await productsByIds(platform, store.id, [...new Set(productIds)]);
  const firsts = [...products.values()].flatMap((p) => (p.status === 'active' && p.media_ids[0] ? [p] : []));
  const media = await mediaRecordsByIds(
    platform,
    store.id,
    firsts.map((p) => p.media_ids[0]!),
  );
  const out = new Map<string, PublicImage>();
  for (const p of firsts) {
    const [image] = productImages(store.subdomain, { ...p, media_ids: p.media_ids.slice(0, 1) }, media);
    if (image) out.set(p.id, image);
  }
  return out;
}

/** Active products only (drafts and archived ones are not published), in the admin list's order and cursors. */
export async function listPublicProducts(platform: Platform, storeRef: PublicStoreRef, query: ListPublicProductsQuery, collectionId?: string) {
  const storeId = storeIdOf(storeRef);
  const page = await listProducts(platform, storeId, {
    status: 'active',
    query: query.q,
    sort: query.sort,
    limit: query.limit,
    cursor: query.cursor,
    collection_id: collectionId,
    updated_since: undefined,
  });
  return { items: await presentPublicProducts(platform, storeRef, page.items), nextCursor: page.nextCursor };
}

export async function getPublicProduct(platform: Platform, storeRef: PublicStoreRef, handle: string): Promise<PublicProductView> {
  const product = await findProductByHandle(platform, storeIdOf(storeRef), handle);
  if (!product || product.status !== 'active') throw notFound('Product');
  const [view] = await presentPublicProducts(platform, storeRef, [product]);
  return view!;
}

export async function listPublicCollections(platform: Platform, storeId: string, page: Page) {
  const { items, nextCursor } = await listCollections(platform, storeId, page);
  return { items: items.map(presentPublicCollection), nextCursor };
}

export async function listPublicCollectionProducts(platform: Platform, storeRef: PublicStoreRef, handle: string, query: ListPublicProductsQuery) {
  const collection = await findCollectionByHandle(platform, storeIdOf(storeRef), handle);
  if (!collection) throw notFound('Collection');
  return listPublicProducts(platform, storeRef, query, collection.id);
}

/** A collection by handle with its first `limit` active products, for a rendered page (src/rendering), or null. */
export async function findPublicCollection(platform: Platform, storeRef: PublicStoreRef, handle: string, limit: number) {
  const collection = await findCollectionByHandle(platform, storeIdOf(storeRef), handle);
  if (!collection) return null;
  const page = await listPublicProducts(platform, storeRef, { sort: 'created_at', limit }, collection.id);
  return { ...presentPublicCollection(collection), products: page.items };
}
export type PublicCollectionWithProducts = NonNullable<Awaited<ReturnType<typeof findPublicCollection>>>;

/**
 * A page of a shopper's listing (src/catalog/browse.ts) as shoppers see its products, and the
 * listing's size; the "in stock" filter reads which products have stock at an active location.
 */
export async function browsePublicProducts(platform: Platform, store: Pick<StoreView, 'id' | 'subdomain'>, query: Omit<BrowseQuery, 'inStock'>) {
  const inStock = async () => productIdsInStock(platform, store.id, await activeLocationIds(platform, store.id));
  const { items, total } = await browseProducts(platform, store.id, { ...query, inStock });
  return { items: await presentPublicProducts(platform, store, items), total };
}
