import { ObjectId, type Filter } from 'mongodb';
import { findInStore, onDuplicateKey } from '../db.js';
import { PlatformError, invalidInput, notFound } from '../errors.js';
import { afterCursor, type Page, findPage, pageDirection } from '../pagination.js';
import type { Platform } from '../platform.js';
import { deleteWithHandle, handleTaken, insertWithHandle } from '../handles.js';
import { sanitizeMerchantHtml } from '../merchant-html.js';
import { presenting, projectionOf, viewsByIds, type ViewFields } from '../projection.js';
import { COLLECTION_SOURCES, presentCollection, UNREAD_COLLECTION, type CollectionView } from './present.js';
import type { CreateCollectionBody, UpdateCollectionBody } from './schemas.js';
import { COLLECTIONS, collections, products, type CollectionDocument, type ProductDocument, type RuleCondition } from './models.js';
import { parseObjectId } from '../ids.js';
import { carried, carrying } from '../events/index.js';

/** How many times an update or a delete re-reads a collection that changed under it before answering 409. */
const WRITE_ATTEMPTS = 5;

/**
 * A rule condition as a product filter. Text fields compare case-insensitively. Price compares
 * with the product's variants: `greater_than` matches when some variant costs more,
 * `less_than` when some variant costs less.
 */
function conditionFilter(c: RuleCondition): Filter<ProductDocument> {
  switch (c.field) {
    case 'price':
      return c.relation === 'greater_than' ? { price_max: { $gt: c.value } } : { price_min: { $lt: c.value } };
    case 'tag': {
      const v = c.value.toLowerCase();
      return c.relation === 'equals' ? { tags_lower: v } : { tags_lower: { $ne: v } };
    }
    case 'vendor':
    case 'product_type': {
      const field = c.field === 'vendor' ? 'vendor_lower' : 'product_type_lower';
      const v = c.value.toLowerCase();
      return c.relation === 'equals' ? { [field]: v } : { [field]: { $ne: v } };
    }
  }
}

export function membershipFilter(c: CollectionDocument): Filter<ProductDocument> {
  if (c.type === 'manual' || !c.rules) return { _id: { $in: c.product_ids } };
  const parts = c.rules.conditions.map(conditionFilter);
  return c.rules.match === 'all' ? { $and: parts } : { $or: parts };
}

/** The product filter for "in this collection" (404 when the store has no such collection). */
export async function collectionProductFilter(platform: Platform, storeId: string, collectionId: string): Promise<Filter<ProductDocument>> {
  const doc = await findInStore(collections(platform.db), storeId, collectionId, 'Collection');
  return membershipFilter(doc);
}

/** Manual collections may only list the store's own products. */
async function checkProductIds(platform: Platform, storeId: string, ids: string[]): Promise<ObjectId[]> {
  const unique = [...new Set(ids)];
  const objectIds = unique.map((id) => new ObjectId(id));
  const found = await products(platform.db)
    .find({ store_id: new ObjectId(storeId), _id: { $in: objectIds } }, { projection: { _id: 1 } })
    .toArray();
  const known = new Set(found.map((d) => d._id.toHexString()));
  const missing = unique.filter((id) => !known.has(id));
  if (missing.length > 0) {
    throw invalidInput(missing.slice(0, 20).map((id) => ({ path: 'product_ids', message: `${id} is not a product of this store` })));
  }
  return objectIds;
}

export async function createCollection(platform: Platform, storeId: string, input: CreateCollectionBody): Promise<CollectionView> {
  const now = platform.clock.now();
  const productIds = input.type === 'manual' ? await checkProductIds(platform, storeId, input.product_ids) : [];
  const { doc, view, pending } = await insertWithHandle(input.handle, input.title, async (handle) => {
    const d: CollectionDocument = {
      _id: new ObjectId(),
      store_id: new ObjectId(storeId),
      title: input.title,
      handle,
      description_html: sanitizeMerchantHtml(input.description_html),
      type: input.type,
      product_ids: productIds,
      rules: input.type === 'rule' ? input.rules : null,
      version: 1,
      created_at: now,
      updated_at: now,
    };
    const v = presentCollection(d);
    const p = [platform.events.pending('collection.created', d.store_id, { collection: v }, `collection.created:${v.id}`)];
    await collections(platform.db).insertOne({ ...d, ...carried(p) });
    return { doc: d, view: v, pending: p };
  });
  await platform.events.settle(collections(platform.db), doc._id, pending);
  return view;
}

export async function getCollection(platform: Platform, storeId: string, collectionId: string): Promise<CollectionView> {
  const doc = await findInStore(collections(platform.db), storeId, collectionId, 'Collection');
  return presentCollection(doc);
}

/** The ids of the store's manual collections that list the product (a product's admin page): their ids only, not their lists. */
export async function collectionIdsHolding(platform: Pick<Platform, 'db'>, storeId: string, productId: string): Promise<string[]> {
  const id = parseObjectId(productId);
  if (!id) return [];
  const found = await collections(platform.db)
    .find({ store_id: new ObjectId(storeId), product_ids: id }, { projection: { _id: 1 } })
    .toArray();
  return found.map((c) => c._id.toHexString());
}

/** The store's collection with this handle, or null. */
export async function findCollectionByHandle(platform: Pick<Platform, 'db'>, storeId: string, handle: string): Promise<CollectionView | null> {
  const doc = await collections(platform.db).findOne({ store_id: new ObjectId(storeId), handle });
  return doc ? presentCollection(doc) : null;
}

/** A page of the store's collections; with `fields`, only those of each collection's view are read (src/projection.ts), the others blank. */
export async function listCollections(
  platform: Platform,
  storeId: string,
  page: Page,
  fields?: ViewFields<CollectionView>,
): Promise<{ items: CollectionView[]; nextCursor: string | null }> {
  const projection = projectionOf(COLLECTION_SOURCES, fields);
  const { items, nextCursor } = await findPage(
    collections(platform.db),
    { store_id: new ObjectId(storeId), ...afterCursor(page) },
    page.limit,
    pageDirection(page),
    projection,
  );
  return { items: items.map(presenting(presentCollection, UNREAD_COLLECTION, projection)), nextCursor };
}

export async function updateCollection(platform: Platform, storeId: string, collectionId: string, input: UpdateCollectionBody): Promise<CollectionView> {
  const id = parseObjectId(collectionId);
  const scope = { _id: id ?? new ObjectId(), store_id: new ObjectId(storeId) };
  // Last writer wins (docs/catalog.md), but each write is conditional on the version read, so the
  // collection as it becomes is known before the write and its event travels with it.
  let productIds: ObjectId[] | undefined;
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    const current = id ? await collections(platform.db).findOne(scope) : null;
    if (!current) throw notFound('Collection');
    if (current.type === 'manual' && input.rules !== undefined) {
      throw invalidInput([{ path: 'rules', message: 'a manual collection has no rules' }]);
    }
    if (current.type === 'rule' && input.product_ids !== undefined) {
      throw invalidInput([{ path: 'product_ids', message: 'a rule collection computes its products' }]);
    }
    const set: Partial<CollectionDocument> = { updated_at: platform.clock.now() };
    if (input.title !== undefined) set.title = input.title;
    if (input.handle !== undefined) set.handle = input.handle;
    if (input.description_html !== undefined) set.description_html = sanitizeMerchantHtml(input.description_html);
    if (input.product_ids !== undefined) set.product_ids = productIds ??= await checkProductIds(platform, storeId, input.product_ids);
    if (input.rules !== undefined) set.rules = input.rules;
    const version = current.version + 1;
    const view = presentCollection({ ...current, ...set, version });
    const pending = [platform.events.pending('collection.updated', current.store_id, { collection: view }, `collection.updated:${view.id}:v${version}`)];
    const result = await onDuplicateKey(
      collections(platform.db).updateOne({ ...scope, version: current.version }, carrying({ $set: set, $inc: { version: 1 } }, pending)),
      () => handleTaken(input.handle!),
    );
    if (result.matchedCount !== 1) continue;
    await platform.events.settle(collections(platform.db), current._id, pending);
    return view;
  }
  throw new PlatformError('conflict', 'edit_conflict', 'The collection kept changing while this update was applied; try again');
}

export const deleteCollection = (platform: Platform, storeId: string, collectionId: string): Promise<void> =>
  deleteWithHandle(
    platform,
    { collection: collections(platform.db), carrier: COLLECTIONS, event: 'collection.deleted', what: 'Collection' },
    storeId,
    collectionId,
    {
      attempts: WRITE_ATTEMPTS,
      conflict: () => new PlatformError('conflict', 'edit_conflict', 'The collection kept changing while it was being deleted; try again'),
    },
  );

/** The store's collections by id (GraphQL's loader). */
export const collectionsByIds = (
  platform: Pick<Platform, 'db'>,
  storeId: string,
  ids: readonly string[],
  fields?: ViewFields<CollectionView>,
): Promise<Map<string, CollectionView>> =>
  viewsByIds(collections(platform.db), storeId, ids, { sources: COLLECTION_SOURCES, present: presentCollection, unread: UNREAD_COLLECTION }, fields);

/** How many collections the store has (a bulk export's estimate). */
export function countCollections(platform: Pick<Platform, 'db'>, storeId: string): Promise<number> {
  return collections(platform.db).countDocuments({ store_id: new ObjectId(storeId) });
}
