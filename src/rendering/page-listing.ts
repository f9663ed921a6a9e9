import { PlatformError } from '../errors.js';
import type { BrowseQuery } from '../catalog/index.js';
import type { PublicProductView } from '../storefront/index.js';
import { pageListing, readListing, type ListingQuery, type ListingSettings, type PageListing } from './listing.js';

/**
 * One page of a collection or search listing, read as the query asks (src/rendering/listing.ts):
 * the products and what the page shows of the listing. A page past the last (page 1 always
 * exists, empty or not) is a 404: a crawler following an old `?page=` link drops it.
 */
export async function readPageListing(
  browse: (q: Omit<BrowseQuery, 'collectionId' | 'q' | 'inStock'>) => Promise<{ items: PublicProductView[]; total: number }>,
  path: string,
  query: ListingQuery,
  settings: ListingSettings,
  currency: string,
  q?: string,
): Promise<{ products: PublicProductView[]; listing: PageListing }> {
  const request = readListing(query, currency);
  const sort = request.sort ?? settings.defaultSort;
  const { items, total } = await browse({
    sort,
    available: request.available,
    priceGte: request.priceGte,
    priceLte: request.priceLte,
    skip: (request.page - 1) * settings.perPage,
    limit: settings.perPage,
  });
  if (request.page > 1 && items.length === 0) throw new PlatformError('not_found', 'not_found', `There is no page ${request.page} of these products`);
  return { products: items, listing: pageListing(path, request, { total, perPage: settings.perPage, sort, defaultSort: settings.defaultSort }, currency, q) };
}
