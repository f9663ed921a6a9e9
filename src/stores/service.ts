import { ObjectId } from 'mongodb';
import { isDuplicateKeyError } from '../db.js';
import { PlatformError, notFound } from '../errors.js';
import { afterCursor, pageOf, type Page } from '../pagination.js';
import type { Platform } from '../platform.js';
import { presentStore, type StoreView } from './present.js';
import type { CreateStoreBody, UpdateStoreBody } from './schemas.js';
import { stores, type StoreDocument } from './store.js';
import { parseObjectId } from '../ids.js';

const MAX_LISTED_IN_SESSION = 250;


export async function createStore(platform: Platform, ownerId: string, input: CreateStoreBody): Promise<StoreView> {
  const now = platform.clock.now();
  const doc: StoreDocument = {
    _id: new ObjectId(),
    owner_id: new ObjectId(ownerId),
    name: input.name,
    subdomain: input.subdomain,
    currency: input.currency,
    version: 1,
    created_at: now,
    updated_at: now,
  };
  try {
    await stores(platform.db).insertOne(doc);
  } catch (err) {
    if (isDuplicateKeyError(err)) throw new PlatformError('conflict', 'subdomain_taken', 'That subdomain is already in use');
    throw err;
  }
  const view = presentStore(doc);
  await platform.events.emit('store.created', doc._id, { store: view }, `store.created:${view.id}`);
  return view;
}

export async function listStores(platform: Platform, ownerId: string, page: Page): Promise<{ items: StoreView[]; nextCursor: string | null }> {
  const docs = await stores(platform.db)
    .find({ owner_id: new ObjectId(ownerId), ...afterCursor(page) })
    .sort({ _id: 1 })
    .limit(page.limit + 1)
    .toArray();
  const { items, nextCursor } = pageOf(docs, page.limit);
  return { items: items.map(presentStore), nextCursor };
}

/** The caller's store, or null when it does not exist or belongs to someone else. */
export async function findOwnedStore(platform: Pick<Platform, 'db'>, ownerId: string, storeId: string): Promise<StoreView | null> {
  const id = parseObjectId(storeId);
  const doc = id ? await stores(platform.db).findOne({ _id: id, owner_id: new ObjectId(ownerId) }) : null;
  return doc ? presentStore(doc) : null;
}

/** The store at a storefront subdomain, or null. Public: for storefront routes, no owner check. */
export async function findStoreBySubdomain(platform: Pick<Platform, 'db'>, subdomain: string): Promise<StoreView | null> {
  const doc = await stores(platform.db).findOne({ subdomain });
  return doc ? presentStore(doc) : null;
}

export async function getStore(platform: Platform, ownerId: string, storeId: string): Promise<StoreView> {
  const store = await findOwnedStore(platform, ownerId, storeId);
  if (!store) throw notFound('Store');
  return store;
}

export async function updateStore(platform: Platform, ownerId: string, storeId: string, input: UpdateStoreBody): Promise<StoreView> {
  const id = parseObjectId(storeId);
  const set: Partial<StoreDocument> = { updated_at: platform.clock.now() };
  if (input.name !== undefined) set.name = input.name;
  if (input.currency !== undefined) set.currency = input.currency;
  const doc = id
    ? await stores(platform.db).findOneAndUpdate({ _id: id, owner_id: new ObjectId(ownerId) }, { $set: set, $inc: { version: 1 } }, { returnDocument: 'after' })
    : null;
  if (!doc) throw notFound('Store');
  const view = presentStore(doc);
  const changed = Object.keys(input).filter((k) => input[k as keyof UpdateStoreBody] !== undefined);
  await platform.events.emit('store.updated', doc._id, { store: view, changed }, `store.updated:${view.id}:v${doc.version}`);
  return view;
}

/** Every store a merchant owns, for the session view (capped; /v1/stores pages through more). */
export async function listStoresOwnedBy(platform: Pick<Platform, 'db'>, ownerId: string): Promise<StoreView[]> {
  const docs = await stores(platform.db).find({ owner_id: new ObjectId(ownerId) }).sort({ _id: 1 }).limit(MAX_LISTED_IN_SESSION).toArray();
  return docs.map(presentStore);
}
