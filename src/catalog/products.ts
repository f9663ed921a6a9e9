import { ObjectId, type Filter } from 'mongodb';
import { findInStore, onDuplicateKey } from '../db.js';
import { findMedia } from '../media/index.js';
import { PlatformError, invalidInput, notFound, type InputIssue } from '../errors.js';
import { keysetPageOf, keysetQuery } from '../pagination.js';
import type { Platform } from '../platform.js';
import { lockStoreCurrency, type StoreView } from '../stores/index.js';
import { collectionProductFilter } from './collections.js';
import { deleteWithHandle, handleTaken, insertWithHandle } from '../handles.js';
import { sanitizeMerchantHtml } from '../merchant-html.js';
import { presenting, projectionOf, viewsByIds, type ViewFields } from '../projection.js';
import { presentProduct, PRODUCT_SOURCES, UNREAD_PRODUCT, type ProductView } from './present.js';
import type { CreateProductBody, ListProductsQuery, UpdateProductBody, VariantInput } from './schemas.js';
import { PRODUCTS, collections, products, type ProductDocument, type VariantDocument } from './models.js';
import { parseObjectId, escapeRegex } from '../ids.js';
import { carried, carrying } from '../events/index.js';

/** How many times a delete re-reads a product that changed under it before answering 409. */
const DELETE_ATTEMPTS = 5;

const lower = (s: string | null) => (s === null ? null : s.toLowerCase());

type Options = ProductDocument['options'];

/** Check variants against the options and each other; build their documents (keeping given ids). */
function buildVariants(options: Options, inputs: VariantInput[], existing: VariantDocument[]): VariantDocument[] {
  const problems: InputIssue[] = [];
  const combos = new Set<string>();
  const known = new Set(existing.map((v) => v._id.toHexString()));
  const ids = new Set<string>();
  const variants = inputs.map((input, i): VariantDocument => {
    const at = `variants.${i}`;
    if (input.option_values.length !== options.length) {
      problems.push({ path: `${at}.option_values`, message: `must give one value for each of the ${options.length} options` });
    }
    input.option_values.forEach((value, j) => {
      const option = options[j];
      if (option && !option.values.includes(value))
        problems.push({ path: `${at}.option_values.${j}`, message: `"${value}" is not a value of option "${option.name}"` });
    });
    const combo = JSON.stringify(input.option_values);
    if (combos.has(combo)) problems.push({ path: `${at}.option_values`, message: 'another variant has the same option values' });
    combos.add(combo);
    if (input.id !== undefined) {
      if (!known.has(input.id)) problems.push({ path: `${at}.id`, message: 'is not a variant of this product' });
      if (ids.has(input.id)) problems.push({ path: `${at}.id`, message: 'appears twice' });
      ids.add(input.id);
    }
    return {
      _id: input.id !== undefined ? new ObjectId(input.id) : new ObjectId(),
      title: input.option_values.length > 0 ? input.option_values.join(' / ') : 'Default',
      option_values: input.option_values,
      sku: input.sku ?? null,
      price: input.price,
      compare_at_price: input.compare_at_price ?? null,
      weight_grams: input.weight_grams ?? null,
      inventory_tracked: input.inventory_tracked,
      inventory_policy: input.inventory_policy,
    };
  });
  const names = options.map((o) => o.name.toLowerCase());
  if (new Set(names).size !== names.length) problems.push({ path: 'options', message: 'option names must be different' });
  if (problems.length > 0) throw invalidInput(problems);
  return variants;
}

/** The fields derived from the editable ones (search, filters, rule collections). */
function derived(p: Pick<ProductDocument, 'title' | 'tags' | 'vendor' | 'product_type' | 'variants'>) {
  const prices = p.variants.map((v) => v.price);
  return {
    title_lower: p.title.toLowerCase(),
    tags_lower: [...new Set(p.tags.map((t) => t.toLowerCase()))],
    vendor_lower: lower(p.vendor),
    product_type_lower: lower(p.product_type),
    skus_lower: [...new Set(p.variants.flatMap((v) => (v.sku ? [v.sku.toLowerCase()] : [])))],
    price_min: Math.min(...prices),
    price_max: Math.max(...prices),
  };
}

/** Products may only reference the store's own media. */
async function checkMediaIds(platform: Platform, storeId: string, ids: string[]): Promise<ObjectId[]> {
  const found = new Set(await findMedia(platform, storeId, ids));
  const missing = [...new Set(ids)].filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw invalidInput(missing.slice(0, 20).map((id) => ({ path: 'media_ids', message: `${id} is not a media item of this store` })));
  }
  return ids.map((id) => new ObjectId(id));
}

export async function createProduct(platform: Platform, store: StoreView, input: CreateProductBody): Promise<ProductView> {
  const now = platform.clock.now();
  const variants = buildVariants(input.options, input.variants, []);
  const mediaIds = await checkMediaIds(platform, store.id, input.media_ids);
  await lockStoreCurrency(platform, store); // prices in the store's currency: it can no longer change (docs/stores.md)
  const base = {
    store_id: new ObjectId(store.id),
    title: input.title,
    description_html: sanitizeMerchantHtml(input.description_html),
    vendor: input.vendor,
    product_type: input.product_type,
    tags: [...new Set(input.tags)],
    status: input.status,
    options: input.options,
    variants,
    media_ids: mediaIds,
    currency: store.currency,
    version: 1,
    created_at: now,
    updated_at: now,
  };
  const { doc, view, pending } = await insertWithHandle(input.handle, input.title, async (handle) => {
    const d: ProductDocument = { _id: new ObjectId(), handle, ...base, ...derived(base) };
    const v = presentProduct(d);
    const p = [platform.events.pending('product.created', d.store_id, { product: v }, `product.created:${v.id}`)];
    await products(platform.db).insertOne({ ...d, ...carried(p) });
    return { doc: d, view: v, pending: p };
  });
  await platform.events.settle(products(platform.db), doc._id, pending);
  return view;
}

export async function getProduct(platform: Platform, storeId: string, productId: string): Promise<ProductView> {
  const doc = await findInStore(products(platform.db), storeId, productId, 'Product');
  return presentProduct(doc);
}

/** The store's product with this handle (any status), or null. */
export async function findProductByHandle(platform: Pick<Platform, 'db'>, storeId: string, handle: string): Promise<ProductView | null> {
  const doc = await products(platform.db).findOne({ store_id: new ObjectId(storeId), handle });
  return doc ? presentProduct(doc) : null;
}

export async function updateProduct(platform: Platform, storeId: string, productId: string, input: UpdateProductBody): Promise<ProductView> {
  const id = parseObjectId(productId);
  const scope = { _id: id ?? new ObjectId(), store_id: new ObjectId(storeId) };
  const current = id ? await products(platform.db).findOne(scope) : null;
  if (!current) throw notFound('Product');

  const options = input.options ?? current.options;
  const variants =
    input.variants !== undefined
      ? buildVariants(options, input.variants, current.variants)
      : input.options !== undefined
        ? buildVariants(options, current.variants.map(variantInputOf), current.variants)
        : current.variants;
  const next = {
    title: input.title ?? current.title,
    description_html: input.description_html !== undefined ? sanitizeMerchantHtml(input.description_html) : current.description_html,
    vendor: input.vendor !== undefined ? input.vendor : current.vendor,
    product_type: input.product_type !== undefined ? input.product_type : current.product_type,
    tags: input.tags !== undefined ? [...new Set(input.tags)] : current.tags,
    status: input.status ?? current.status,
    options,
    variants,
    media_ids: input.media_ids !== undefined ? await checkMediaIds(platform, storeId, input.media_ids) : current.media_ids,
    ...(input.handle !== undefined ? { handle: input.handle } : {}),
  };
  const set = { ...next, ...derived(next), updated_at: platform.clock.now() };
  // The write is conditional on the version read, so the product as it becomes is known now: its event travels with the write.
  const version = current.version + 1;
  const view = presentProduct({ ...current, ...set, version });
  const changed = Object.entries(input).flatMap(([k, v]) => (v === undefined ? [] : [k]));
  const pending = [platform.events.pending('product.updated', current.store_id, { product: view, changed }, `product.updated:${view.id}:v${version}`)];
  // Optimistic concurrency: apply only to the version we read, so a concurrent edit is never
  // silently overwritten (the loser gets a 409 and retries on fresh data).
  const result = await onDuplicateKey(
    products(platform.db).updateOne({ ...scope, version: current.version }, carrying({ $set: set, $inc: { version: 1 } }, pending)),
    () => handleTaken(input.handle!),
  );
  if (result.matchedCount !== 1)
    throw new PlatformError('conflict', 'edit_conflict', 'The product changed while this update was applied; read it again and retry');
  await platform.events.settle(products(platform.db), current._id, pending);
  return view;
}

function variantInputOf(v: VariantDocument): VariantInput {
  return {
    id: v._id.toHexString(),
    option_values: v.option_values,
    sku: v.sku,
    price: v.price,
    compare_at_price: v.compare_at_price,
    weight_grams: v.weight_grams,
    inventory_tracked: v.inventory_tracked,
    inventory_policy: v.inventory_policy,
  };
}

export const deleteProduct = (platform: Platform, storeId: string, productId: string): Promise<void> =>
  deleteWithHandle(platform, { collection: products(platform.db), carrier: PRODUCTS, event: 'product.deleted', what: 'Product' }, storeId, productId, {
    attempts: DELETE_ATTEMPTS,
    conflict: () => new PlatformError('conflict', 'edit_conflict', 'The product kept changing while it was being deleted; try again'),
    // Manual collections forget it (rule collections compute membership and need nothing).
    alsoRemove: async (doc) => {
      await collections(platform.db).updateMany(
        { store_id: doc.store_id, product_ids: doc._id },
        { $pull: { product_ids: doc._id }, $inc: { version: 1 }, $set: { updated_at: platform.clock.now() } },
      );
    },
  });

/** The indexed field each sort walks, descending (`-`) or not. */
const SORT_FIELDS: Record<ListProductsQuery['sort'], '_id' | 'updated_at' | 'title_lower'> = {
  created_at: '_id',
  '-created_at': '_id',
  updated_at: 'updated_at',
  '-updated_at': 'updated_at',
  title: 'title_lower',
  '-title': 'title_lower',
};

/** A page of the store's products; with `fields`, only those of each product's view are read (src/projection.ts), the others blank. */
export async function listProducts(
  platform: Platform,
  storeId: string,
  q: ListProductsQuery,
  fields?: ViewFields<ProductView>,
): Promise<{ items: ProductView[]; nextCursor: string | null }> {
  const storeObjectId = new ObjectId(storeId);
  const and: Filter<ProductDocument>[] = [{ store_id: storeObjectId }];
  if (q.status) and.push({ status: q.status });
  if (q.updated_since) and.push({ updated_at: { $gte: q.updated_since } });
  if (q.query) {
    const term = q.query.toLowerCase();
    and.push({
      $or: [{ title_lower: { $regex: escapeRegex(term) } }, { handle: { $regex: `^${escapeRegex(term)}` } }, { skus_lower: term }, { tags_lower: term }],
    });
  }
  if (q.collection_id) and.push(await collectionProductFilter(platform, storeId, q.collection_id));

  const descending = q.sort.startsWith('-');
  const field = SORT_FIELDS[q.sort];
  const direction = descending ? -1 : 1;
  let sort: Record<string, 1 | -1>;
  if (field === '_id') {
    if (q.cursor) and.push({ _id: { [descending ? '$lt' : '$gt']: q.cursor.id } });
    sort = { _id: direction };
  } else {
    const keyset = keysetQuery(field, direction, q.cursor);
    if (q.cursor) and.push(keyset.filter as Filter<ProductDocument>);
    sort = keyset.sort;
  }
  const projection = projectionOf(PRODUCT_SOURCES, fields, field === '_id' ? [] : [field]);
  const docs = await products(platform.db)
    .find(and.length === 1 ? and[0]! : { $and: and }, projection ? { projection } : {})
    .sort(sort)
    .limit(q.limit + 1)
    .toArray();
  const page = keysetPageOf(docs, q.limit, (d) => (field === '_id' ? d._id.toHexString() : field === 'updated_at' ? d.updated_at : d.title_lower));
  return { items: page.items.map(presenting(presentProduct, UNREAD_PRODUCT, projection)), nextCursor: page.nextCursor };
}

/** Whether the store has a product with this id (any status); a malformed id is simply not one. */
export async function productExists(platform: Pick<Platform, 'db'>, storeId: string, productId: string): Promise<boolean> {
  const id = parseObjectId(productId);
  if (!id) return false;
  const doc = await products(platform.db).findOne({ _id: id, store_id: new ObjectId(storeId) }, { projection: { _id: 1 } });
  return doc !== null;
}

/** What inventory and orders need to know about a variant. */
export type VariantRef = {
  product_id: string;
  product_title: string;
  product_status: ProductDocument['status'];
  variant_id: string;
  variant_title: string;
  sku: string | null;
  price: number;
  currency: string;
  weight_grams: number | null;
  inventory_tracked: boolean;
  inventory_policy: 'deny' | 'continue';
  product_type: string | null;
  vendor: string | null;
  tags: string[];
};

/** Variants of the store's products by id; ids that are not the store's are simply absent. */
export async function findVariants(platform: Pick<Platform, 'db'>, storeId: string, variantIds: string[]): Promise<Map<string, VariantRef>> {
  const ids = [...new Set(variantIds)].flatMap((v) => parseObjectId(v) ?? []);
  const found = new Map<string, VariantRef>();
  if (ids.length === 0) return found;
  const docs = await products(platform.db)
    .find(
      { store_id: new ObjectId(storeId), 'variants._id': { $in: ids } },
      { projection: { title: 1, status: 1, variants: 1, currency: 1, product_type: 1, vendor: 1, tags: 1 } },
    )
    .toArray();
  const wanted = new Set(ids.map((i) => i.toHexString()));
  for (const doc of docs) {
    for (const v of doc.variants) {
      const key = v._id.toHexString();
      if (!wanted.has(key)) continue;
      found.set(key, {
        product_id: doc._id.toHexString(),
        product_title: doc.title,
        product_status: doc.status,
        variant_id: key,
        variant_title: v.title,
        sku: v.sku,
        price: v.price,
        currency: doc.currency,
        weight_grams: v.weight_grams,
        inventory_tracked: v.inventory_tracked,
        inventory_policy: v.inventory_policy,
        product_type: doc.product_type,
        vendor: doc.vendor,
        tags: doc.tags,
      });
    }
  }
  return found;
}

/** The store's products by id (GraphQL's loader); ids that are not the store's are absent. With `fields`, only those are read (src/projection.ts). */
export const productsByIds = (
  platform: Pick<Platform, 'db'>,
  storeId: string,
  ids: readonly string[],
  fields?: ViewFields<ProductView>,
): Promise<Map<string, ProductView>> =>
  viewsByIds(products(platform.db), storeId, ids, { sources: PRODUCT_SOURCES, present: presentProduct, unread: UNREAD_PRODUCT }, fields);

/** Whether a product of the store shows this media (`active`: a published one): one indexed read (`store_id_media_ids`). */
async function showsMedia(platform: Pick<Platform, 'db'>, storeId: string, mediaId: string, onlyActive: boolean): Promise<boolean> {
  const id = parseObjectId(mediaId);
  if (!id) return false;
  const found = await products(platform.db).findOne(
    { store_id: new ObjectId(storeId), media_ids: id, ...(onlyActive ? { status: 'active' as const } : {}) },
    { projection: { _id: 1 } },
  );
  return found !== null;
}

/** Whether a published (active) product of the store shows this media: what makes a media file public (the storefront's product image URLs). */
export const mediaIsPublished = (platform: Pick<Platform, 'db'>, storeId: string, mediaId: string) => showsMedia(platform, storeId, mediaId, true);

/** Whether any product of the store, whatever its status, shows this media: the admin deletes an image no product shows any more. */
export const mediaInUse = (platform: Pick<Platform, 'db'>, storeId: string, mediaId: string) => showsMedia(platform, storeId, mediaId, false);

/** How many products the store has (a bulk export's estimate). */
export function countProducts(platform: Pick<Platform, 'db'>, storeId: string): Promise<number> {
  return products(platform.db).countDocuments({ store_id: new ObjectId(storeId) });
}
