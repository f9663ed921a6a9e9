import { findCollectionByHandle, findProductByHandle, listCollections, listProducts, type ProductView } from '../catalog/index.js';
import { notFound } from '../errors.js';
import { activeLocationIds, availableAt } from '../inventory/index.js';
import type { Page } from '../pagination.js';
import type { Platform } from '../platform.js';
import { findStoreBySubdomain, type StoreView } from '../stores/index.js';
import { presentPublicCollection, presentPublicProduct, presentPublicStore, type PublicProductView } from './present.js';
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

async function presentPublicProducts(platform: Platform, storeId: string, products: readonly ProductView[]): Promise<PublicProductView[]> {
  const availability = await variantAvailability(
    platform,
    storeId,
    products.flatMap((p) => p.variants),
  );
  return products.map((p) => presentPublicProduct(p, availability));
}

/** Active products only (drafts and archived ones are not published), in the admin list's order and cursors. */
export async function listPublicProducts(platform: Platform, storeId: string, query: ListPublicProductsQuery, collectionId?: string) {
  const page = await listProducts(platform, storeId, {
    status: 'active',
    query: query.q,
    sort: query.sort,
    limit: query.limit,
    cursor: query.cursor,
    collection_id: collectionId,
    updated_since: undefined,
  });
  return { items: await presentPublicProducts(platform, storeId, page.items), nextCursor: page.nextCursor };
}

export async function getPublicProduct(platform: Platform, storeId: string, handle: string): Promise<PublicProductView> {
  const product = await findProductByHandle(platform, storeId, handle);
  if (!product || product.status !== 'active') throw notFound('Product');
  const [view] = await presentPublicProducts(platform, storeId, [product]);
  return view!;
}

export async function listPublicCollections(platform: Platform, storeId: string, page: Page) {
  const { items, nextCursor } = await listCollections(platform, storeId, page);
  return { items: items.map(presentPublicCollection), nextCursor };
}

export async function listPublicCollectionProducts(platform: Platform, storeId: string, handle: string, query: ListPublicProductsQuery) {
  const collection = await findCollectionByHandle(platform, storeId, handle);
  if (!collection) throw notFound('Collection');
  return listPublicProducts(platform, storeId, query, collection.id);
}

/** A collection by handle with its first `limit` active products, for a rendered page (src/rendering), or null. */
export async function findPublicCollection(platform: Platform, storeId: string, handle: string, limit: number) {
  const collection = await findCollectionByHandle(platform, storeId, handle);
  if (!collection) return null;
  const page = await listPublicProducts(platform, storeId, { sort: 'created_at', limit }, collection.id);
  return { ...presentPublicCollection(collection), products: page.items };
}
export type PublicCollectionWithProducts = NonNullable<Awaited<ReturnType<typeof findPublicCollection>>>;
