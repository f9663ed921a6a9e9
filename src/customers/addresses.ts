import { ObjectId } from 'mongodb';
import { PlatformError, notFound } from '../errors.js';
import { afterCursor, pageOf, type Page } from '../pagination.js';
import type { Platform } from '../platform.js';
import { presentAddress, presentCustomer, type CustomerAddressView } from './present.js';
import type { CreateAddressBody, UpdateAddressBody } from './schemas.js';
import { loadCustomer } from './service.js';
import { customerAddresses, customers, type CustomerAddressDocument, type CustomerDocument } from './store.js';
import { parseObjectId } from '../ids.js';

export const MAX_ADDRESSES_PER_CUSTOMER = 100;

/**
 * Addresses live in their own collection; the customer document holds `default_address_id`
 * and `addresses_count`. Rules: the first address becomes the default; making another the
 * default replaces it (one single-document update); deleting the default promotes the
 * oldest remaining address. Without transactions, each change that could leave the default
 * pointing at a deleted address checks afterwards and repairs it (see repairDefault).
 */

const addressNotFound = () => notFound('Address');

async function findAddress(platform: Pick<Platform, 'db'>, customer: CustomerDocument, addressId: string): Promise<CustomerAddressDocument> {
  const id = parseObjectId(addressId);
  const doc = id ? await customerAddresses(platform.db).findOne({ _id: id, store_id: customer.store_id, customer_id: customer._id }) : null;
  if (!doc) throw addressNotFound();
  return doc;
}

export async function listAddresses(platform: Platform, storeId: string, customerId: string, page: Page): Promise<{ items: CustomerAddressView[]; nextCursor: string | null }> {
  const customer = await loadCustomer(platform, storeId, customerId);
  const docs = await customerAddresses(platform.db)
    .find({ store_id: customer.store_id, customer_id: customer._id, ...afterCursor(page) })
    .sort({ _id: 1 })
    .limit(page.limit + 1)
    .toArray();
  const { items, nextCursor } = pageOf(docs, page.limit);
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
  );
  if (!reserved) {
    throw new PlatformError('conflict', 'address_limit_reached', `A customer can have at most ${MAX_ADDRESSES_PER_CUSTOMER} addresses`);
  }
  const now = platform.clock.now();
  const doc: CustomerAddressDocument = {
    _id: new ObjectId(),
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
  try {
    await customerAddresses(platform.db).insertOne(doc);
  } catch (err) {
    await customers(platform.db).updateOne(owner, { $inc: { addresses_count: -1 } });
    throw err;
  }
  // The first address becomes the default (only if there is none: conditional on null).
  const updated = await customers(platform.db).findOneAndUpdate(
    { ...owner, default_address_id: null },
    { $set: { default_address_id: doc._id, updated_at: now }, $inc: { version: 1 } },
    { returnDocument: 'after' },
  );
  if (updated) {
    await emitDefaultChanged(platform, updated);
    await repairDefault(platform, updated, doc._id);
  }
  const view = presentAddress(doc, updated?.default_address_id ?? customer.default_address_id);
  await platform.events.emit('customer_address.created', doc.store_id, { customer_address: view }, `customer_address.created:${view.id}`);
  return view;
}

export async function updateAddress(platform: Platform, storeId: string, customerId: string, addressId: string, input: UpdateAddressBody): Promise<CustomerAddressView> {
  const customer = await loadCustomer(platform, storeId, customerId);
  const id = parseObjectId(addressId);
  if (!id) throw addressNotFound();
  const set: Partial<CustomerAddressDocument> = { updated_at: platform.clock.now() };
  const changed: string[] = [];
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    (set as Record<string, unknown>)[key] = value;
    changed.push(key);
  }
  const doc = await customerAddresses(platform.db).findOneAndUpdate(
    { _id: id, store_id: customer.store_id, customer_id: customer._id },
    { $set: set, $inc: { version: 1 } },
    { returnDocument: 'after' },
  );
  if (!doc) throw addressNotFound();
  const view = presentAddress(doc, customer.default_address_id);
  await platform.events.emit('customer_address.updated', doc.store_id, { customer_address: view, changed }, `customer_address.updated:${view.id}:v${doc.version}`);
  return view;
}

export async function deleteAddress(platform: Platform, storeId: string, customerId: string, addressId: string): Promise<void> {
  const customer = await loadCustomer(platform, storeId, customerId);
  const id = parseObjectId(addressId);
  const doc = id ? await customerAddresses(platform.db).findOneAndDelete({ _id: id, store_id: customer.store_id, customer_id: customer._id }) : null;
  if (!doc) throw addressNotFound();
  await customers(platform.db).updateOne({ _id: customer._id, store_id: customer.store_id }, { $inc: { addresses_count: -1 } });
  const view = presentAddress(doc, customer.default_address_id);
  await platform.events.emit('customer_address.deleted', doc.store_id, { customer_address: view }, `customer_address.deleted:${view.id}`);
  // Conditional on the default being this address, read at the moment of the update.
  await promoteOldest(platform, customer, doc._id);
}

export async function makeDefaultAddress(platform: Platform, storeId: string, customerId: string, addressId: string): Promise<CustomerAddressView> {
  const customer = await loadCustomer(platform, storeId, customerId);
  const address = await findAddress(platform, customer, addressId);
  if (!customer.default_address_id?.equals(address._id)) {
    const updated = await customers(platform.db).findOneAndUpdate(
      { _id: customer._id, store_id: customer.store_id },
      { $set: { default_address_id: address._id, updated_at: platform.clock.now() }, $inc: { version: 1 } },
      { returnDocument: 'after' },
    );
    if (!updated) throw notFound('Customer');
    await emitDefaultChanged(platform, updated);
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
async function promoteOldest(platform: Platform, customer: CustomerDocument, gone: ObjectId): Promise<void> {
  let expected = gone;
  // Each round is one conditional single-document update; it loops only if the address it
  // promoted was deleted at the same moment.
  for (let round = 0; round < 10; round++) {
    const [oldest] = await customerAddresses(platform.db)
      .find({ store_id: customer.store_id, customer_id: customer._id })
      .sort({ _id: 1 })
      .limit(1)
      .toArray();
    const updated = await customers(platform.db).findOneAndUpdate(
      { _id: customer._id, store_id: customer.store_id, default_address_id: expected },
      { $set: { default_address_id: oldest?._id ?? null, updated_at: platform.clock.now() }, $inc: { version: 1 } },
      { returnDocument: 'after' },
    );
    if (!updated) return; // someone else already moved the default
    await emitDefaultChanged(platform, updated);
    if (!oldest) return;
    if ((await customerAddresses(platform.db).countDocuments({ _id: oldest._id, store_id: customer.store_id })) > 0) return;
    expected = oldest._id;
  }
}

async function emitDefaultChanged(platform: Platform, customer: CustomerDocument): Promise<void> {
  const view = presentCustomer(customer);
  await platform.events.emit('customer.updated', customer.store_id, { customer: view, changed: ['default_address_id'] }, `customer.updated:${view.id}:v${customer.version}`);
}
