import { ObjectId, type Filter } from 'mongodb';
import { escapeRegex } from '../ids.js';
import type { Platform } from '../platform.js';
import { collections, products, type ProductDocument } from './models.js';
import { membershipFilter } from './collections.js';
import { presentProduct, type ProductView } from './present.js';

/**
 * A shopper's listing of products (docs/shop.md, Collections and search): a collection's, the
 * whole store's or a search's active products, filtered, sorted and cut into numbered pages.
 * Every sort and bound reads an index (`store_id, status, …`); a page is one skip/limit read
 * and one count, never the catalog in memory. A manual collection's own order (at most 5000
 * products) is read as ids only, then the page's products by id.
 */

export { BROWSE_SORTS, type BrowseSort } from '../browse-sorts.js';
import type { BrowseSort } from '../browse-sorts.js';

export type BrowseQuery = {
  /** The collection (by id) whose products are listed; none: every active product. */
  collectionId?: string;
  /** A search's terms (title, handle prefix, SKU, tag), as the admin's product list matches them. */
  q?: string;
  sort: BrowseSort;
  /** In stock (true), out of stock (false), either (null). */
  available: boolean | null;
  /** A price range in minor units (inclusive), matched against the product's own price range. */
  priceGte: number | null;
  priceLte: number | null;
  skip: number;
  limit: number;
  /**
   * The products that have stock at an active location (for `available`), read by the caller
   * from inventory; untracked and oversold (`continue`) variants count as available without it.
   */
  inStock?: () => Promise<ObjectId[]>;
};

const SORTS: Record<Exclude<BrowseSort, 'manual'>, Record<string, 1 | -1>> = {
  'title-ascending': { title_lower: 1, _id: 1 },
  'title-descending': { title_lower: -1, _id: -1 },
  'price-ascending': { price_min: 1, _id: 1 },
  'price-descending': { price_min: -1, _id: -1 },
  'created-ascending': { _id: 1 },
  'created-descending': { _id: -1 },
};

async function browseFilter(platform: Platform, storeId: string, q: BrowseQuery, manualIds: ObjectId[] | null): Promise<Filter<ProductDocument>> {
  const and: Filter<ProductDocument>[] = [{ store_id: new ObjectId(storeId) }, { status: 'active' }];
  if (manualIds) and.push({ _id: { $in: manualIds } });
  else if (q.collectionId) {
    const doc = await collections(platform.db).findOne({ _id: new ObjectId(q.collectionId), store_id: new ObjectId(storeId) });
    and.push(doc ? membershipFilter(doc) : { _id: { $in: [] } });
  }
  if (q.q) {
    const term = q.q.toLowerCase();
    and.push({
      $or: [{ title_lower: { $regex: escapeRegex(term) } }, { handle: { $regex: `^${escapeRegex(term)}` } }, { skus_lower: term }, { tags_lower: term }],
    });
  }
  // A price range matches a product whose own range (its cheapest to its dearest variant) overlaps it.
  if (q.priceGte !== null) and.push({ price_max: { $gte: q.priceGte } });
  if (q.priceLte !== null) and.push({ price_min: { $lte: q.priceLte } });
  if (q.available !== null) {
    // Available: a variant untracked or sold past zero, or stock at an active location; out of stock: none of these.
    const inStock = (await q.inStock?.()) ?? [];
    and.push(
      q.available
        ? { $or: [{ 'variants.inventory_tracked': false }, { 'variants.inventory_policy': 'continue' }, { _id: { $in: inStock } }] }
        : { 'variants.inventory_tracked': { $ne: false }, 'variants.inventory_policy': { $ne: 'continue' }, _id: { $nin: inStock } },
    );
  }
  return { $and: and };
}

/** The ids of a manual collection in its own order (null for any other listing or sort). */
async function manualOrder(platform: Platform, storeId: string, q: BrowseQuery): Promise<ObjectId[] | null> {
  if (q.sort !== 'manual' || !q.collectionId) return null;
  const doc = await collections(platform.db).findOne(
    { _id: new ObjectId(q.collectionId), store_id: new ObjectId(storeId) },
    { projection: { type: 1, product_ids: 1, rules: 1 } },
  );
  return doc && (doc.type === 'manual' || !doc.rules) ? doc.product_ids : null;
}

/** One page of a listing and how many products the whole listing has. */
export async function browseProducts(platform: Platform, storeId: string, q: BrowseQuery): Promise<{ items: ProductView[]; total: number }> {
  const manual = await manualOrder(platform, storeId, q);
  const filter = await browseFilter(platform, storeId, q, manual);
  const all = products(platform.db);
  if (manual) {
    // The collection's order: the matching ids (at most the collection's 5000), then the page's products.
    const matching = new Set((await all.find(filter, { projection: { _id: 1 } }).toArray()).map((d) => d._id.toHexString()));
    const ordered = manual.filter((id) => matching.has(id.toHexString()));
    const pageIds = ordered.slice(q.skip, q.skip + q.limit);
    const docs = pageIds.length === 0 ? [] : await all.find({ store_id: new ObjectId(storeId), _id: { $in: pageIds } }).toArray();
    const byId = new Map(docs.map((d) => [d._id.toHexString(), d]));
    return { items: pageIds.flatMap((id) => byId.get(id.toHexString()) ?? []).map(presentProduct), total: ordered.length };
  }
  const sort = SORTS[q.sort === 'manual' ? 'created-ascending' : q.sort];
  const [docs, total] = await Promise.all([all.find(filter).sort(sort).skip(q.skip).limit(q.limit).toArray(), all.countDocuments(filter)]);
  return { items: docs.map(presentProduct), total };
}
