import { ObjectId } from 'mongodb';
import { PlatformError, invalidInput, notFound } from '../errors.js';
import { afterCursor, type Page, findPage } from '../pagination.js';
import type { Platform } from '../platform.js';
import { deleteAsRead } from '../deleting.js';
import { presentAddress, presentCustomer, type CustomerAddressView } from './present.js';
import type { CreateAddressBody, OwnAddressChangeBody, UpdateAddressBody } from './schemas.js';
import { editConflict, loadCustomer, UPDATE_TRIES } from './service.js';
import { CUSTOMER_ADDRESSES, customerAddresses, customers, type CustomerAddressDocument, type CustomerDocument } from './models.js';
import { carried, carrying } from '../events/index.js';
import { parseObjectId } from '../ids.js';
import { findManyInStore } from '../db.js';

export const MAX_ADDRESSES_PER_CUSTOMER = 100;

/**
 * Addresses live in their own collection; the customer document holds `default_address_id`
 * and `addresses_count`. Rules: the first address becomes the default; making another the
 * default replaces it (one single-document update); deleting the default promotes the
 * oldest remaining address. Without transactions, each change that could leave the default
 * pointing at a deleted address checks afterwards and repairs it (see repairDefault).
 * Every move of the default is one write of the customer conditional on its version, carrying
 * its customer.updated (moveDefault); every address write carries its customer_address event.
 */

const addressNotFound = () => notFound('Address');
const addressConflict = () =>
  new PlatformError('conflict', 'edit_conflict', 'The address kept changing while this change was applied; read it again and retry');

async function findAddress(platform: Pick<Platform, 'db'>, customer: CustomerDocument, addressId: string): Promise<CustomerAddressDocument> {
  const id = parseObjectId(addressId);
  const doc = id ? await customerAddresses(platform.db).findOne({ _id: id, store_id: customer.store_id, customer_id: customer._id }) : null;
  if (!doc) throw addressNotFound();
  return doc;
}

export async function listAddresses(
  platform: Platform,
  storeId: string,
  customerId: string,
  page: Page,
): Promise<{ items: CustomerAddressView[]; nextCursor: string | null }> {
  const customer = await loadCustomer(platform, storeId, customerId);
  const { items, nextCursor } = await findPage(
    customerAddresses(platform.db),
    { store_id: customer.store_id, customer_id: customer._id, ...afterCursor(page) },
    page.limit,
  );
  return { items: items.map((a) => presentAddress(a, customer.default_address_id)), nextCursor };
}

export async function getAddress(platform: Platform, storeId: string, customerId: string, addressId: string): Promise<CustomerAddressView> {
  const customer = await loadCustomer(platform, storeId, customerId);
  return presentAddress(await findAddress(platform, customer, addressId), customer.default_address_id);
}

export async function createAddress(platform: Platform, storeId: string, customerId: string, input: CreateAddressBody): Promise<CustomerAddressView> {
  const customer = await loadCustomer(platform, storeId, customerId);
  const owner = { _id: customer._id, store_id: customer.store_id };
  // Reserve a slot first: a conditional $inc on one document keeps the limit under concurrency.
  const reserved = await customers(platform.db).findOneAndUpdate(
    { ...owner, addresses_count: { $lt: MAX_ADDRESSES_PER_CUSTOMER } },
    { $inc: { addresses_count: 1 } },
    { returnDocument: 'after' },
  );
  if (!reserved) {
    throw new PlatformError('conflict', 'address_limit_reached', `A customer can have at most ${MAX_ADDRESSES_PER_CUSTOMER} addresses`);
  }
  const id = new ObjectId();
  // The first address becomes the default (only if there is none: conditional on null). It is
  // claimed before the address is written, so the address's event says whether it is the
  // default; a create that fails afterwards moves the default on again (promoteOldest).
  let claimed: CustomerDocument | null = null;
  try {
    if (reserved.default_address_id === null) claimed = await moveDefault(platform, owner, null, id);
  } catch (err) {
    await customers(platform.db).updateOne(owner, { $inc: { addresses_count: -1 } });
    throw err;
  }
  const now = platform.clock.now();
  const doc: CustomerAddressDocument = {
    _id: id,
    store_id: customer.store_id,
    customer_id: customer._id,
    first_name: input.first_name ?? null,
    last_name: input.last_name ?? null,
    company: input.company ?? null,
    address1: input.address1,
    address2: input.address2 ?? null,
    city: input.city,
    province: input.province ?? null,
    province_code: input.province_code ?? null,
    country_code: input.country_code,
    zip: input.zip ?? null,
    phone: input.phone ?? null,
    version: 1,
    created_at: now,
    updated_at: now,
  };
  const view = presentAddress(doc, claimed ? id : reserved.default_address_id);
  const pending = [platform.events.pending('customer_address.created', doc.store_id, { customer_address: view }, `customer_address.created:${view.id}`)];
  try {
    await customerAddresses(platform.db).insertOne({ ...doc, ...carried(pending) });
  } catch (err) {
    await customers(platform.db).updateOne(owner, { $inc: { addresses_count: -1 } });
    if (claimed) await promoteOldest(platform, claimed, id);
    throw err;
  }
  await platform.events.settle(customerAddresses(platform.db), id, pending);
  if (claimed) {
    await repairDefault(platform, claimed, id);
    return view;
  }
  // The default went meanwhile (deleted with no address left to promote): this one takes it.
  const later = await moveDefault(platform, owner, null, id);
  if (!later) return view;
  await repairDefault(platform, later, id);
  return presentAddress(doc, later.default_address_id);
}

export async function updateAddress(
  platform: Platform,
  storeId: string,
  customerId: string,
  addressId: string,
  input: UpdateAddressBody,
): Promise<CustomerAddressView> {
  const customer = await loadCustomer(platform, storeId, customerId);
  const given = Object.entries(input).filter(([, value]) => value !== undefined);
  const set: Partial<CustomerAddressDocument> = { updated_at: platform.clock.now(), ...Object.fromEntries(given) };
  const changed = given.map(([key]) => key);
  for (let tries = 0; tries < UPDATE_TRIES; tries++) {
    const current = await findAddress(platform, customer, addressId);
    // Conditional on the version read: the address as it becomes is known now, and its event travels with the write.
    const view = presentAddress({ ...current, ...set, version: current.version + 1 }, customer.default_address_id);
    const pending = [
      platform.events.pending(
        'customer_address.updated',
        current.store_id,
        { customer_address: view, changed },
        `customer_address.updated:${view.id}:v${current.version + 1}`,
      ),
    ];
    const result = await customerAddresses(platform.db).updateOne(
      { _id: current._id, store_id: current.store_id, customer_id: current.customer_id, version: current.version },
      carrying({ $set: set, $inc: { version: 1 } }, pending),
    );
    if (result.matchedCount === 0) continue;
    await platform.events.settle(customerAddresses(platform.db), current._id, pending);
    return view;
  }
  throw addressConflict();
}

export async function deleteAddress(platform: Platform, storeId: string, customerId: string, addressId: string): Promise<void> {
  const customer = await loadCustomer(platform, storeId, customerId);
  for (let tries = 0; tries < UPDATE_TRIES; tries++) {
    // 404 once it is gone (also when a concurrent delete took it between tries).
    const current = await findAddress(platform, customer, addressId);
    const target = { collection: customerAddresses(platform.db), carrier: CUSTOMER_ADDRESSES, event: 'customer_address.deleted' as const };
    const view = presentAddress(current, customer.default_address_id);
    if (!(await deleteAsRead(platform, target, current, { customer_address: view }, { also: { customer_id: current.customer_id } }))) continue;
    await customers(platform.db).updateOne({ _id: customer._id, store_id: customer.store_id }, { $inc: { addresses_count: -1 } });
    // Conditional on the default being this address, read at the moment of the update.
    await promoteOldest(platform, customer, current._id);
    return;
  }
  throw addressConflict();
}

export async function makeDefaultAddress(platform: Platform, storeId: string, customerId: string, addressId: string): Promise<CustomerAddressView> {
  const customer = await loadCustomer(platform, storeId, customerId);
  const address = await findAddress(platform, customer, addressId);
  if (!customer.default_address_id?.equals(address._id)) {
    const updated = await moveDefault(platform, customer, undefined, address._id);
    if (!updated) throw notFound('Customer');
    // Deleted meanwhile? Then the default must move on, and this request reports it gone.
    if (await repairDefault(platform, updated, address._id)) throw addressNotFound();
  }
  return presentAddress(address, address._id);
}

/**
 * If the default is `expected` and that address no longer exists, promote the oldest
 * remaining one. Returns true when a repair was needed.
 */
async function repairDefault(platform: Platform, customer: CustomerDocument, expected: ObjectId): Promise<boolean> {
  const exists = await customerAddresses(platform.db).countDocuments({ _id: expected, store_id: customer.store_id, customer_id: customer._id });
  if (exists > 0) return false;
  await promoteOldest(platform, customer, expected);
  return true;
}

/** Replace a default that was `gone` with the oldest remaining address (or none). */
async function promoteOldest(platform: Platform, customer: Owner, gone: ObjectId): Promise<void> {
  let expected = gone;
  // Each round is one conditional single-document update; it loops only if the address it
  // promoted was deleted at the same moment.
  for (let round = 0; round < 10; round++) {
    const [oldest] = await customerAddresses(platform.db).find({ store_id: customer.store_id, customer_id: customer._id }).sort({ _id: 1 }).limit(1).toArray();
    const updated = await moveDefault(platform, customer, expected, oldest?._id ?? null);
    if (!updated) return; // someone else already moved the default
    if (!oldest) return;
    if ((await customerAddresses(platform.db).countDocuments({ _id: oldest._id, store_id: customer.store_id })) > 0) return;
    expected = oldest._id;
  }
}

type Owner = Pick<CustomerDocument, '_id' | 'store_id'>;

const sameId = (a: ObjectId | null, b: ObjectId | null) => (a === null || b === null ? a === b : a.equals(b));

/**
 * Move the customer's default address from `from` (undefined: whatever it is) to `to`: one
 * write conditional on the version read, carrying its customer.updated (changed
 * ["default_address_id"]), re-read and retried when the customer changed meanwhile (409
 * edit_conflict after UPDATE_TRIES). Returns the customer as written (or as read, when its
 * default already is `to`), or null when the customer is gone or its default is no longer `from`.
 */
async function moveDefault(platform: Platform, owner: Owner, from: ObjectId | null | undefined, to: ObjectId | null): Promise<CustomerDocument | null> {
  const scope = { _id: owner._id, store_id: owner.store_id };
  for (let tries = 0; tries < UPDATE_TRIES; tries++) {
    const current = await customers(platform.db).findOne(scope);
    if (!current || (from !== undefined && !sameId(current.default_address_id, from))) return null;
    if (sameId(current.default_address_id, to)) return current;
    const set = { default_address_id: to, updated_at: platform.clock.now() };
    const next: CustomerDocument = { ...current, ...set, version: current.version + 1 };
    const view = presentCustomer(next);
    const pending = [
      platform.events.pending(
        'customer.updated',
        current.store_id,
        { customer: view, changed: ['default_address_id'] },
        `customer.updated:${view.id}:v${next.version}`,
      ),
    ];
    const result = await customers(platform.db).updateOne({ ...scope, version: current.version }, carrying({ $set: set, $inc: { version: 1 } }, pending));
    if (result.matchedCount === 0) continue;
    await platform.events.settle(customers(platform.db), current._id, pending);
    return next;
  }
  throw editConflict();
}

/**
 * A customer's own change of one of their addresses (the storefront's PATCH): its fields,
 * then, with `default: true`, the default moved to it. Answers the address as it is after both.
 */
export async function changeOwnAddress(
  platform: Platform,
  storeId: string,
  customerId: string,
  addressId: string,
  input: OwnAddressChangeBody,
): Promise<CustomerAddressView> {
  const { default: makeDefault, ...fields } = input;
  const hasFields = Object.values(fields).some((v) => v !== undefined);
  if (!hasFields && !makeDefault) throw invalidInput([{ path: 'body', message: 'give at least one field to change, or default: true' }]);
  if (hasFields) await updateAddress(platform, storeId, customerId, addressId, fields);
  if (makeDefault) await makeDefaultAddress(platform, storeId, customerId, addressId);
  return getAddress(platform, storeId, customerId, addressId);
}

/** The addresses of each of these customers of the store (GraphQL's loader), oldest first: at most MAX_ADDRESSES_PER_CUSTOMER each. */
export async function addressesOfCustomers(
  platform: Pick<Platform, 'db'>,
  storeId: string,
  customerIds: readonly string[],
): Promise<Map<string, CustomerAddressView[]>> {
  const owners = await findManyInStore(customers(platform.db), storeId, customerIds);
  const out = new Map(owners.map((c) => [c._id.toHexString(), [] as CustomerAddressView[]]));
  if (owners.length === 0) return out;
  const defaults = new Map(owners.map((c) => [c._id.toHexString(), c.default_address_id]));
  const docs = await customerAddresses(platform.db)
    .find({ store_id: new ObjectId(storeId), customer_id: { $in: owners.map((c) => c._id) } })
    .sort({ _id: 1 })
    .toArray();
  for (const a of docs) out.get(a.customer_id.toHexString())?.push(presentAddress(a, defaults.get(a.customer_id.toHexString()) ?? null));
  return out;
}
