import { ObjectId, type Filter } from 'mongodb';
import { onDuplicateKey } from '../db.js';
import { PlatformError, notFound } from '../errors.js';
import { carrying } from '../events/index.js';
import { afterCursor, type Page, findPage } from '../pagination.js';
import type { Platform } from '../platform.js';
import { presentStore, type StoreView } from './present.js';
import type { CreateStoreBody, UpdateStoreBody } from './schemas.js';
import { stores, type StoreDocument } from './models.js';
import { parseObjectId } from '../ids.js';

const MAX_LISTED_IN_SESSION = 250;
/** An update retries this often when a concurrent change got there first. */
const UPDATE_ATTEMPTS = 5;

export async function createStore(platform: Platform, ownerId: string, input: CreateStoreBody): Promise<StoreView> {
  const now = platform.clock.now();
  const doc: StoreDocument = {
    _id: new ObjectId(),
    owner_id: new ObjectId(ownerId),
    name: input.name,
    subdomain: input.subdomain,
    currency: input.currency,
    locale: input.locale,
    version: 1,
    created_at: now,
    updated_at: now,
  };
  const view = presentStore(doc);
  const pending = [platform.events.pending('store.created', doc._id, { store: view }, `store.created:${view.id}`)];
  await onDuplicateKey(
    platform.events.insert(stores(platform.db), doc, pending),
    () => new PlatformError('conflict', 'subdomain_taken', 'That subdomain is already in use'),
  );
  return view;
}

export async function listStores(platform: Platform, ownerId: string, page: Page): Promise<{ items: StoreView[]; nextCursor: string | null }> {
  const { items, nextCursor } = await findPage(stores(platform.db), { owner_id: new ObjectId(ownerId), ...afterCursor(page) }, page.limit);
  return { items: items.map(presentStore), nextCursor };
}

/** The caller's store, or null when it does not exist or belongs to someone else. */
export async function findOwnedStore(platform: Pick<Platform, 'db'>, ownerId: string, storeId: string): Promise<StoreView | null> {
  const id = parseObjectId(storeId);
  const doc = id ? await stores(platform.db).findOne({ _id: id, owner_id: new ObjectId(ownerId) }) : null;
  return doc ? presentStore(doc) : null;
}

/** A store by id, for a principal already bound to it (an app installation, a customer), or null. */
export async function findStoreById(platform: Pick<Platform, 'db'>, storeId: string): Promise<StoreView | null> {
  const id = parseObjectId(storeId);
  const doc = id ? await stores(platform.db).findOne({ _id: id }) : null;
  return doc ? presentStore(doc) : null;
}

/** Who owns a store (the merchant its notifications to the merchant go to), or null. */
export async function findStoreOwnerId(platform: Pick<Platform, 'db'>, storeId: string): Promise<string | null> {
  const id = parseObjectId(storeId);
  const doc = id ? await stores(platform.db).findOne({ _id: id }, { projection: { owner_id: 1 } }) : null;
  return doc ? doc.owner_id.toHexString() : null;
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
  if (!id) throw notFound('Store');
  const owned: Filter<StoreDocument> = { _id: id, owner_id: new ObjectId(ownerId) };
  const changed = Object.entries(input).flatMap(([k, v]) => (v === undefined ? [] : [k]));
  for (let attempt = 1; attempt <= UPDATE_ATTEMPTS; attempt++) {
    const current = await stores(platform.db).findOne(owned);
    if (!current) throw notFound('Store');
    // A new currency only while nothing is priced in the current one (lockStoreCurrency), decided
    // again in the conditional update below: a product priced at the same moment either locks
    // first (the update then matches nothing, and the next read sees the lock) or finds the
    // currency changed (and is refused).
    const newCurrency = input.currency !== undefined && input.currency !== current.currency;
    if (newCurrency && current.currency_locked_at) throw currencyLocked();
    const set: Partial<StoreDocument> = { updated_at: platform.clock.now() };
    if (input.name !== undefined) set.name = input.name;
    if (input.currency !== undefined) set.currency = input.currency;
    if (input.locale !== undefined) set.locale = input.locale;
    if (input.email_sender !== undefined) set.email_sender = input.email_sender;
    // Conditional on the version read, so the store as it becomes is known now: its event travels with the write.
    const view = presentStore({ ...current, ...set, version: current.version + 1 });
    const pending = [platform.events.pending('store.updated', current._id, { store: view, changed }, `store.updated:${view.id}:v${current.version + 1}`)];
    const filter: Filter<StoreDocument> = { ...owned, version: current.version, ...(newCurrency ? { currency_locked_at: { $exists: false } } : {}) };
    const result = await stores(platform.db).updateOne(filter, carrying({ $set: set, $inc: { version: 1 } }, pending));
    if (result.matchedCount === 0) continue;
    await platform.events.settle(stores(platform.db), current._id, pending);
    return view;
  }
  throw new PlatformError('conflict', 'store_busy', 'The store kept changing while it was being updated; try again');
}

const currencyLocked = () =>
  new PlatformError('conflict', 'currency_locked', 'The store already has prices in its currency (products or gift cards), so its currency cannot change');

/** Whether the store's currency can no longer change (something is priced in it): what PATCH refuses with 409 currency_locked. */
export async function isCurrencyLocked(platform: Pick<Platform, 'db'>, storeId: string): Promise<boolean> {
  const id = parseObjectId(storeId);
  return id ? (await stores(platform.db).countDocuments({ _id: id, currency_locked_at: { $exists: true } }, { limit: 1 })) > 0 : false;
}

/**
 * Call before pricing something in the store's currency (a product, a gift card), with the
 * store as the caller read it: records that the store has prices, so its currency can no
 * longer change (PATCH /v1/stores/:id answers 409 currency_locked), in one conditional update
 * that matches only if the currency is still the one read. If it changed meanwhile, nothing
 * may be priced in the old one: 409 store_currency_changed (a retry reads the new currency).
 */
export async function lockStoreCurrency(platform: Pick<Platform, 'db' | 'clock'>, store: { id: string; currency: string }): Promise<void> {
  const id = parseObjectId(store.id);
  // $min keeps the first time: set when absent, never moved later.
  const { matchedCount } = id
    ? await stores(platform.db).updateOne({ _id: id, currency: store.currency }, { $min: { currency_locked_at: platform.clock.now() } })
    : { matchedCount: 0 };
  if (matchedCount === 0) {
    throw new PlatformError('conflict', 'store_currency_changed', `The store's currency is no longer ${store.currency}; retry the request`);
  }
}

/** Every store a merchant owns, for the session view (capped; /v1/stores pages through more). */
export async function listStoresOwnedBy(platform: Pick<Platform, 'db'>, ownerId: string): Promise<StoreView[]> {
  const docs = await stores(platform.db)
    .find({ owner_id: new ObjectId(ownerId) })
    .sort({ _id: 1 })
    .limit(MAX_LISTED_IN_SESSION)
    .toArray();
  return docs.map(presentStore);
}

/**
 * Make an installed theme the store's live theme (one conditional write: a store has exactly one
 * live theme at any moment). `expected`: the live theme the caller read (undefined: whatever it
 * is). Resolves whether it took.
 */
export async function setLiveTheme(platform: Pick<Platform, 'db' | 'clock'>, storeId: string, themeId: ObjectId, expected?: ObjectId | null): Promise<boolean> {
  const filter = { _id: new ObjectId(storeId), ...(expected === undefined ? {} : { live_theme_id: expected }) };
  const result = await stores(platform.db).updateOne(filter, { $set: { live_theme_id: themeId } });
  return result.matchedCount === 1;
}
