import { ObjectId, type Filter } from 'mongodb';
import { PlatformError, notFound } from '../errors.js';
import { afterCursor, pageOf } from '../pagination.js';
import type { Platform } from '../platform.js';
import { presentCustomer, type CustomerView } from './present.js';
import { CustomerOrderRecord, type CreateCustomerBody, type ListCustomersQuery, type UpdateCustomerBody } from './schemas.js';
import { customers, type CustomerDocument } from './store.js';
import { isDuplicateKeyError } from '../db.js';
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


export async function createCustomer(platform: Platform, store: StoreRef, input: CreateCustomerBody): Promise<CustomerView> {
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
    created_at: now,
    updated_at: now,
  };
  try {
    await customers(platform.db).insertOne(doc);
  } catch (err) {
    if (isDuplicateKeyError(err)) throw emailTaken();
    throw err;
  }
  const view = presentCustomer(doc);
  await platform.events.emit('customer.created', doc.store_id, { customer: view }, `customer.created:${view.id}`);
  return view;
}

export async function listCustomers(platform: Platform, storeId: string, query: ListCustomersQuery): Promise<{ items: CustomerView[]; nextCursor: string | null }> {
  const filter: Filter<CustomerDocument> = { store_id: new ObjectId(storeId), ...afterCursor(query) };
  if (query.query) filter.search = { $regex: `^${escapeRegex(query.query)}` };
  const docs = await customers(platform.db).find(filter).sort({ _id: 1 }).limit(query.limit + 1).toArray();
  const { items, nextCursor } = pageOf(docs, query.limit);
  return { items: items.map(presentCustomer), nextCursor };
}

/** The customer document in this store, or a 404 (also for another store's ids). */
export async function loadCustomer(platform: Pick<Platform, 'db'>, storeId: string, customerId: string): Promise<CustomerDocument> {
  const id = parseObjectId(customerId);
  const doc = id ? await customers(platform.db).findOne({ _id: id, store_id: new ObjectId(storeId) }) : null;
  if (!doc) throw notFound('Customer');
  return doc;
}

export async function getCustomer(platform: Platform, storeId: string, customerId: string): Promise<CustomerView> {
  return presentCustomer(await loadCustomer(platform, storeId, customerId));
}

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
  let doc: CustomerDocument | null = null;
  // How many times the read and the conditional write are tried before 409 edit_conflict.
  const UPDATE_TRIES = 5;
  for (let tries = 0; !doc; tries++) {
    // Bounded: a customer renamed between every read and write, try after try, is a conflict to report, not to outwait.
    if (tries === UPDATE_TRIES) throw new PlatformError('conflict', 'edit_conflict', 'The customer kept changing while this update was applied; read it again and retry');
    let condition = {};
    let search = {};
    if (renames) {
      // The search terms derive from email and names together: read the current ones and make
      // the update conditional on them, so a concurrent rename cannot leave stale terms.
      const current = await customers(platform.db).findOne(filter);
      if (!current) throw notFound('Customer');
      condition = { email: current.email, first_name: current.first_name, last_name: current.last_name };
      search = { search: searchTerms({ ...current, ...pick(set, ['email', 'first_name', 'last_name']) }) };
    }
    try {
      doc = await customers(platform.db).findOneAndUpdate({ ...filter, ...condition }, { $set: { ...set, ...search }, $inc: { version: 1 } }, { returnDocument: 'after' });
    } catch (err) {
      if (isDuplicateKeyError(err)) throw emailTaken();
      throw err;
    }
    if (!doc && !renames) throw notFound('Customer');
  }
  const view = presentCustomer(doc);
  const changed = Object.keys(input).filter((k) => input[k as keyof UpdateCustomerBody] !== undefined);
  await platform.events.emit('customer.updated', doc.store_id, { customer: view, changed }, `customer.updated:${view.id}:v${doc.version}`);
  return view;
}

/**
 * For the orders domain: count an order against its customer and add an amount (integer minor
 * units of the customer's currency: what was paid, negative for a refund) to total_spent, in
 * one single-document `$inc`. `key` names the order step: it is pushed in the same update, so
 * a step retried after a crash finds it and counts nothing twice (the order clears it with
 * clearCustomerKey once the step is recorded). Emits customer.updated (idempotent on the key).
 * 404 when the customer is not in the store.
 */
export async function recordCustomerOrder(platform: Platform, storeId: string, customerId: string, record: CustomerOrderRecord): Promise<CustomerView> {
  const parsed = CustomerOrderRecord.safeParse(record);
  if (!parsed.success) throw new Error(`recordCustomerOrder: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const { key, amount, countDelta } = parsed.data;
  const id = parseObjectId(customerId);
  if (!id) throw notFound('Customer');
  const scope = { _id: id, store_id: new ObjectId(storeId) };
  const doc =
    (await customers(platform.db).findOneAndUpdate(
      { ...scope, pending_ops: { $ne: key } },
      { $inc: { orders_count: countDelta, total_spent: amount, version: 1 }, $set: { updated_at: platform.clock.now() }, $push: { pending_ops: key } },
      { returnDocument: 'after' },
    )) ??
    // Counted by an earlier attempt of the same step (its key is there), or no such customer.
    (await customers(platform.db).findOne({ ...scope, pending_ops: key }));
  if (!doc) throw notFound('Customer');
  const view = presentCustomer(doc);
  const changed = countDelta ? ['orders_count', 'total_spent'] : ['total_spent'];
  await platform.events.emit('customer.updated', doc.store_id, { customer: view, changed }, `customer.updated:${view.id}:${key}`);
  return view;
}

/** Forget a step's key once its order has recorded the step as done. */
export async function clearCustomerKey(platform: Platform, storeId: string, customerId: string, keys: readonly string[]): Promise<void> {
  const id = parseObjectId(customerId);
  if (!id || keys.length === 0) return;
  await customers(platform.db).updateOne({ _id: id, store_id: new ObjectId(storeId) }, { $pullAll: { pending_ops: [...keys] } });
}
