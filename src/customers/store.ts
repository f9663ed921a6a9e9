import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../db.js';
import type { CarriesEvents } from '../events/index.js';

export const CUSTOMERS = 'customers';
export const CUSTOMER_ADDRESSES = 'customer_addresses';

export type CustomerDocument = {
  _id: ObjectId;
  store_id: ObjectId;
  /** Normalised (trimmed, NFC, lower-cased); unique per store. */
  email: string;
  first_name: string | null;
  last_name: string | null;
  phone: string | null;
  accepts_marketing: boolean;
  tags: string[];
  note: string | null;
  /** Lower-cased email, first name, last name and full name; searched by anchored prefix. */
  search: string[];
  orders_count: number;
  /** Integer minor units of `currency`. */
  total_spent: number;
  /** The store's currency when the customer was created. */
  currency: string;
  default_address_id: ObjectId | null;
  /** Addresses held, kept with a conditional $inc so the limit holds under concurrency. */
  addresses_count: number;
  /** Incremented by every update; names the update in its event's idempotency key. */
  version: number;
  /** Keys of order steps counted in orders_count / total_spent whose order has not yet recorded them as done. */
  pending_ops?: string[];
  created_at: Date;
  updated_at: Date;
} & CarriesEvents;

export type CustomerAddressDocument = {
  _id: ObjectId;
  store_id: ObjectId;
  customer_id: ObjectId;
  first_name: string | null;
  last_name: string | null;
  company: string | null;
  address1: string;
  address2: string | null;
  city: string;
  province: string | null;
  province_code: string | null;
  country_code: string;
  zip: string | null;
  phone: string | null;
  version: number;
  created_at: Date;
  updated_at: Date;
} & CarriesEvents;

export const customerIndexes: IndexDeclaration[] = [
  {
    collection: CUSTOMERS,
    indexes: [
      { key: { store_id: 1, email: 1 }, name: 'store_id_email_unique', unique: true },
      { key: { store_id: 1, _id: 1 }, name: 'store_id_id' },
      { key: { store_id: 1, search: 1 }, name: 'store_id_search' },
    ],
  },
  {
    collection: CUSTOMER_ADDRESSES,
    indexes: [{ key: { store_id: 1, customer_id: 1, _id: 1 }, name: 'store_id_customer_id_id' }],
  },
];

export const customers = (db: Db) => db.collection<CustomerDocument>(CUSTOMERS);
export const customerAddresses = (db: Db) => db.collection<CustomerAddressDocument>(CUSTOMER_ADDRESSES);

