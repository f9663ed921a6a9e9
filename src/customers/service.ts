import { ObjectId, type Filter } from 'mongodb';
import { PlatformError, notFound } from '../errors.js';
import { afterCursor, findPage, pageDirection, type Page } from '../pagination.js';
import type { Platform } from '../platform.js';
import { presenting, projectionOf, viewsByIds, type ViewFields } from '../projection.js';
import { CUSTOMER_SOURCES, presentCustomer, UNREAD_CUSTOMER, type CustomerView } from './present.js';
import type { CreateCustomerBody, ListCustomersQuery, UpdateCustomerBody } from './schemas.js';
import { customers, type CustomerAccount, type CustomerDocument } from './models.js';
import { carrying } from '../events/index.js';
import { findInStore, onDuplicateKey } from '../db.js';
import { parseObjectId, escapeRegex } from '../ids.js';

/** The store a customer operation acts in (the X-Store-Id store). */
export type StoreRef = { id: string; currency: string };

const emailTaken = () => new PlatformError('conflict', 'email_taken', 'A customer with that email already exists in this store');

/** The lower-cased strings a search query is matched against, by prefix. */
function searchTerms(c: Pick<CustomerDocument, 'email' | 'first_name' | 'last_name'>): string[] {
  const lower = (s: string | null) => (s ? s.normalize('NFC').toLowerCase() : null);
  const first = lower(c.first_name);
  const last = lower(c.last_name);
  const terms = [c.email, first, last, first && last ? `${first} ${last}` : null];
  return [...new Set(terms.filter((t): t is string => t !== null))];
}

const pick = <T extends object, K extends keyof T>(o: T, keys: K[]): Partial<Pick<T, K>> =>
  Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]])) as Partial<Pick<T, K>>;

/** `account`: a storefront sign-up creates the customer with its account in the same write. */
export async function createCustomer(
  platform: Platform,
  store: StoreRef,
  input: CreateCustomerBody,
  account: CustomerAccount | null = null,
): Promise<CustomerView> {
  const now = platform.clock.now();
  const base = { email: input.email, first_name: input.first_name ?? null, last_name: input.last_name ?? null };
  const doc: CustomerDocument = {
    _id: new ObjectId(),
    store_id: new ObjectId(store.id),
    ...base,
    phone: input.phone ?? null,
    accepts_marketing: input.accepts_marketing,
    tags: input.tags,
    note: input.note ?? null,
    search: searchTerms(base),
    orders_count: 0,
    total_spent: 0,
    currency: store.currency,
    default_address_id: null,
    addresses_count: 0,
    version: 1,
    ...(account ? { account } : {}),
    created_at: now,
    updated_at: now,
  };
  const view = presentCustomer(doc);
  const pending = [platform.events.pending('customer.created', doc.store_id, { customer: view }, `customer.created:${view.id}`)];
  await onDuplicateKey(platform.events.insert(customers(platform.db), doc, pending), emailTaken);
  return view;
}

/** A page of the store's customers; with `fields`, only those of each customer's view are read (src/projection.ts), the others blank. */
export async function listCustomers(
  platform: Platform,
  storeId: string,
  query: ListCustomersQuery & Pick<Page, 'backwards'>,
  fields?: ViewFields<CustomerView>,
): Promise<{ items: CustomerView[]; nextCursor: string | null }> {
  const filter: Filter<CustomerDocument> = { store_id: new ObjectId(storeId), ...afterCursor(query) };
  if (query.query) filter.search = { $regex: `^${escapeRegex(query.query)}` };
  const projection = projectionOf(CUSTOMER_SOURCES, fields);
  const { items, nextCursor } = await findPage(customers(platform.db), filter, query.limit, pageDirection(query), projection);
  return { items: items.map(presenting(presentCustomer, UNREAD_CUSTOMER, projection)), nextCursor };
}

/** The customer document in this store, or a 404 (also for another store's ids). */
export async function loadCustomer(platform: Pick<Platform, 'db'>, storeId: string, customerId: string): Promise<CustomerDocument> {
  const doc = await findInStore(customers(platform.db), storeId, customerId, 'Customer');
  return doc;
}

export async function getCustomer(platform: Platform, storeId: string, customerId: string): Promise<CustomerView> {
  return presentCustomer(await loadCustomer(platform, storeId, customerId));
}

/** The store's customer with this email (as stored: NFC-normalised, lower-cased; unique in the store), or null. One read on store_id_email_unique. */
export async function findCustomerByEmail(platform: Pick<Platform, 'db'>, storeId: string, email: string): Promise<CustomerView | null> {
  const doc = await customers(platform.db).findOne({ store_id: new ObjectId(storeId), email: email.trim().normalize('NFC').toLowerCase() });
  return doc ? presentCustomer(doc) : null;
}

/** How many times an update reads and writes conditionally before 409 edit_conflict. */
export const UPDATE_TRIES = 5;

export const editConflict = () =>
  new PlatformError('conflict', 'edit_conflict', 'The customer kept changing while this update was applied; read it again and retry');

export async function updateCustomer(platform: Platform, storeId: string, customerId: string, input: UpdateCustomerBody): Promise<CustomerView> {
  const id = parseObjectId(customerId);
  if (!id) throw notFound('Customer');
  const set: Partial<CustomerDocument> = { updated_at: platform.clock.now() };
  if (input.email !== undefined) set.email = input.email;
  if (input.first_name !== undefined) set.first_name = input.first_name;
  if (input.last_name !== undefined) set.last_name = input.last_name;
  if (input.phone !== undefined) set.phone = input.phone;
  if (input.accepts_marketing !== undefined) set.accepts_marketing = input.accepts_marketing;
  if (input.tags !== undefined) set.tags = input.tags;
  if (input.note !== undefined) set.note = input.note;
  const filter = { _id: id, store_id: new ObjectId(storeId) };
  const renames = input.email !== undefined || input.first_name !== undefined || input.last_name !== undefined;
  const changed = Object.entries(input).flatMap(([k, v]) => (v === undefined ? [] : [k]));
  // Bounded: a customer changed between every read and write, try after try, is a conflict to report, not to outwait.
  for (let tries = 0; tries < UPDATE_TRIES; tries++) {
    const current = await customers(platform.db).findOne(filter);
    if (!current) throw notFound('Customer');
    // The write is conditional on the version read, so the customer as it becomes is known
    // before the write and its event travels with it. The search terms derive from email and
    // names together: a rename is also conditional on the ones read, so no concurrent rename
    // can leave stale terms.
    const update: Partial<CustomerDocument> = renames
      ? { ...set, search: searchTerms({ ...current, ...pick(set, ['email', 'first_name', 'last_name']) }) }
      : set;
    const condition = renames ? { email: current.email, first_name: current.first_name, last_name: current.last_name } : {};
    const view = presentCustomer({ ...current, ...update, version: current.version + 1 });
    const pending = [
      platform.events.pending('customer.updated', current.store_id, { customer: view, changed }, `customer.updated:${view.id}:v${current.version + 1}`),
    ];
    const result = await onDuplicateKey(
      customers(platform.db).updateOne({ ...filter, ...condition, version: current.version }, carrying({ $set: update, $inc: { version: 1 } }, pending)),
      emailTaken,
    );
    if (result.matchedCount !== 1) continue;
    await platform.events.settle(customers(platform.db), current._id, pending);
    return view;
  }
  throw editConflict();
}

/** Forget a step's key once its order has recorded the step as done. */
export async function clearCustomerKey(platform: Platform, storeId: string, customerId: string, keys: readonly string[]): Promise<void> {
  const id = parseObjectId(customerId);
  if (!id || keys.length === 0) return;
  await customers(platform.db).updateOne({ _id: id, store_id: new ObjectId(storeId) }, { $pullAll: { pending_ops: [...keys] } });
}

/** The store's customers by id (GraphQL's loader). */
export const customersByIds = (
  platform: Pick<Platform, 'db'>,
  storeId: string,
  ids: readonly string[],
  fields?: ViewFields<CustomerView>,
): Promise<Map<string, CustomerView>> =>
  viewsByIds(customers(platform.db), storeId, ids, { sources: CUSTOMER_SOURCES, present: presentCustomer, unread: UNREAD_CUSTOMER }, fields);

/** How many customers the store has (a bulk export's estimate). */
export function countCustomers(platform: Pick<Platform, 'db'>, storeId: string): Promise<number> {
  return customers(platform.db).countDocuments({ store_id: new ObjectId(storeId) });
}
