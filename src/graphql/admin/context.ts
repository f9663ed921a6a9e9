import DataLoader from 'dataloader';
import { GraphQLError } from 'graphql';
import { collectionsByIds, findVariants, productsByIds, type CollectionView, type ProductView } from '../../catalog/index.js';
import { addressesOfCustomers, customersByIds, type CustomerView } from '../../customers/index.js';
import type { AppContext, AppPrincipal, MerchantPrincipal, ScopedStore } from '../../http/context.js';
import { mediaByIds } from '../../media/index.js';
import { ordersByIds, type OrderView } from '../../orders/index.js';
import { ownValue } from '../../own-keys.js';
import { transactionsOfOrders } from '../../payments/index.js';
import type { Platform } from '../../platform.js';
import type { ViewFields } from '../../projection.js';
import { pagedConnection, type Connection, type ConnectionArgs, type PageFetch } from '../connections.js';
import { idOf, toGlobalId } from '../ids.js';
import { orNull } from '../resolving.js';
import { MERCHANTS_ONLY, TYPE_SCOPES } from './scopes.js';

/** What each admin resolver gets: the request's caller and store, and its batched loaders. */
export type AdminContext = {
  platform: Platform;
  store: ScopedStore;
  principal: MerchantPrincipal | AppPrincipal;
  loaders: ReturnType<typeof adminLoaders>;
  /** The fields of products, collections, customers and orders the query reads (a bulk export's: only what it selects); absent, whole. */
  reads?: ViewReads;
  /** The HTTP request (its Idempotency-Key), set by the transport. */
  koa?: AppContext;
};

/** Of each kind of object read from the catalog, customers and orders, the fields of its view to read (src/projection.ts); a kind not named is read whole. */
export type ViewReads = {
  products?: ViewFields<ProductView>;
  collections?: ViewFields<CollectionView>;
  customers?: ViewFields<CustomerView>;
  orders?: ViewFields<OrderView>;
};

/**
 * Per request, one read per kind of object however many a page asks for (DataLoader): a page of
 * 50 orders with their customers is two reads, not 51. With `reads`, only those fields.
 */
export function adminLoaders(platform: Platform, storeId: string, reads: ViewReads = {}) {
  const byIds = <V>(find: (platform: Platform, storeId: string, ids: readonly string[]) => Promise<Map<string, V>>) =>
    new DataLoader<string, V | null>(async (ids) => {
      const found = await find(platform, storeId, ids);
      return ids.map((id) => found.get(id) ?? null);
    });
  return {
    products: byIds((p, s, ids) => productsByIds(p, s, ids, reads.products)),
    collections: byIds((p, s, ids) => collectionsByIds(p, s, ids, reads.collections)),
    customers: byIds((p, s, ids) => customersByIds(p, s, ids, reads.customers)),
    orders: byIds((p, s, ids) => ordersByIds(p, s, ids, reads.orders)),
    addresses: byIds(addressesOfCustomers),
    transactions: byIds(transactionsOfOrders),
    media: byIds(mediaByIds),
    /** A variant's product id (the product holds the variant). */
    variantProducts: new DataLoader<string, string | null>(async (ids) => {
      const refs = await findVariants(platform, storeId, [...ids]);
      return ids.map((id) => refs.get(id)?.product_id ?? null);
    }),
  };
}

/** Refuse a field the caller's token was not granted the scope of (Shopify's ACCESS_DENIED, naming the scope). */
export function need(ctx: AdminContext, scope: string | null, field: string): void {
  if (scope === null || ctx.principal.kind === 'merchant') return;
  if (scope === MERCHANTS_ONLY)
    throw new GraphQLError(`Access denied for ${field} field. Only the store's merchant reads it.`, {
      extensions: { code: 'ACCESS_DENIED', requiredAccess: 'merchant' },
    });
  if (ctx.principal.scopes.includes(scope)) return;
  throw new GraphQLError(`Access denied for ${field} field. Required access: \`${scope}\` access scope.`, {
    extensions: { code: 'ACCESS_DENIED', requiredAccess: scope },
  });
}

/** An object of `type` by global id through its REST read, or null; the caller needs the type's scope. */
export async function byId<T>(
  ctx: AdminContext,
  gid: string,
  type: string,
  field: string,
  read: (platform: Platform, storeId: string, id: string) => Promise<T>,
): Promise<T | null> {
  need(ctx, ownValue(TYPE_SCOPES, type) ?? null, field);
  const restId = idOf(gid, type);
  return restId ? orNull(read(ctx.platform, ctx.store.id, restId)) : null;
}

/** An object of `type` by global id through the request's loader of it (batched with the rest of the query), or null; the caller needs the type's scope. */
export function loadedById<T>(ctx: AdminContext, gid: string, type: string, field: string, loader: DataLoader<string, T | null>): Promise<T | null> | null {
  need(ctx, ownValue(TYPE_SCOPES, type) ?? null, field);
  const restId = idOf(gid, type);
  return restId ? loader.load(restId) : null;
}

/** A connection over a REST list service, of its items as it answers them (pagedConnection's `fetch`); the caller needs `type`'s scope to read `field`. */
export function listField<T extends { id: string }>(
  ctx: AdminContext,
  type: string,
  field: string,
  args: ConnectionArgs,
  fetch: PageFetch<T>,
): Promise<Connection<T>> {
  need(ctx, ownValue(TYPE_SCOPES, type) ?? null, field);
  return pagedConnection(args, fetch, (item) => item);
}

/** A REST resource's global id and its REST id. */
export const resourceIds = (type: string) => ({
  id: (v: { id: string }) => toGlobalId(type, v.id),
  legacyResourceId: (v: { id: string }) => v.id,
});

/** A REST resource's ids and its times. */
export const resourceFields = (type: string) => ({
  ...resourceIds(type),
  createdAt: (v: { created_at: string }) => v.created_at,
  updatedAt: (v: { updated_at: string }) => v.updated_at,
});
