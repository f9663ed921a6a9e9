import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../db.js';
import type { CarriesEvents } from '../events/index.js';
import type { PostalAddress } from '../postal-address.js';

export const CUSTOMERS = 'customers';
export const CUSTOMER_ADDRESSES = 'customer_addresses';
export const CUSTOMER_SESSIONS = 'customer_sessions';
export const CUSTOMER_PASSWORD_RESETS = 'customer_password_resets';
export const CUSTOMER_ACTIVATIONS = 'customer_activations';
export const WISHLIST_ITEMS = 'customer_wishlist_items';

/**
 * A customer's storefront account in their store (absent or null: the merchant's record only,
 * no sign-in). As a merchant's credentials: sessions and reset tokens are valid only under the
 * `auth_epoch` they were issued in, and a password change sets a new one in the same write as
 * the new hash.
 */
export type CustomerAccount = {
  password_hash: string;
  password_updated_at: Date;
  auth_epoch: string;
  /** The session a password change was made from, which lives on under the new epoch (null after a reset). */
  auth_epoch_session_id: ObjectId | null;
  created_at: Date;
};

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
  /**
   * How the customer agreed to email marketing (a newsletter sign-up, docs/customer-accounts.md):
   * Shopify's fields. `accepts_marketing` stays the flag the API reads and writes.
   */
  email_marketing_consent?: {
    state: 'subscribed';
    opt_in_level: 'single_opt_in';
    consent_updated_at: Date;
    source: 'newsletter';
  } | null;
  /** The storefront account (docs/customer-accounts.md); never presented. */
  account?: CustomerAccount | null;
  created_at: Date;
  updated_at: Date;
} & CarriesEvents;

/** An address book entry's own fields: a postal address, with a free-text province beside its code (docs/customers.md). */
export type AddressFields = PostalAddress & { province: string | null };

export type CustomerAddressDocument = AddressFields & {
  _id: ObjectId;
  store_id: ObjectId;
  customer_id: ObjectId;
  version: number;
  created_at: Date;
  updated_at: Date;
} & CarriesEvents;

/**
 * A customer's storefront session, and a password reset: a bearer token of which only the SHA-256
 * is stored, bound to the account's auth_epoch when it was issued (a password change ends both).
 */
export type CustomerSessionDocument = {
  _id: ObjectId;
  store_id: ObjectId;
  customer_id: ObjectId;
  token_hash: string;
  auth_epoch: string;
  created_at: Date;
  expires_at: Date;
};

export type CustomerPasswordResetDocument = CustomerSessionDocument;

/**
 * The proof that an email is the customer's, for a record that has no account yet
 * (docs/customer-accounts.md, "Emails the store already knows"): a one-time token sent to the
 * record's email, on a storefront sign-up for that email or the merchant's invite. Only its
 * SHA-256 is stored. One per customer (the newest replaces any earlier one); valid only while
 * the record still has that email and no account.
 */
export type CustomerActivationDocument = {
  _id: ObjectId;
  store_id: ObjectId;
  customer_id: ObjectId;
  /** The email the token was sent to. */
  email: string;
  token_hash: string;
  via: 'signup' | 'invite';
  created_at: Date;
  expires_at: Date;
};

/** One saved product (or one variant of it) on a customer's wishlist. */
export type WishlistItemDocument = {
  _id: ObjectId;
  store_id: ObjectId;
  customer_id: ObjectId;
  product_id: ObjectId;
  variant_id: ObjectId | null;
  /** `<product id>:<variant id or *>`: unique per customer, so an item is saved once. */
  key: string;
  created_at: Date;
};

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
  {
    collection: CUSTOMER_SESSIONS,
    indexes: [
      { key: { token_hash: 1 }, name: 'token_hash_unique', unique: true },
      { key: { customer_id: 1 }, name: 'customer_id' },
      { key: { expires_at: 1 }, name: 'expires_at' },
    ],
  },
  {
    collection: CUSTOMER_PASSWORD_RESETS,
    indexes: [
      { key: { token_hash: 1 }, name: 'token_hash_unique', unique: true },
      { key: { customer_id: 1 }, name: 'customer_id' },
      { key: { expires_at: 1 }, name: 'expires_at' },
    ],
  },
  {
    collection: CUSTOMER_ACTIVATIONS,
    indexes: [
      { key: { token_hash: 1 }, name: 'token_hash_unique', unique: true },
      { key: { customer_id: 1 }, name: 'customer_id_unique', unique: true },
      { key: { expires_at: 1 }, name: 'expires_at' },
    ],
  },
  {
    collection: WISHLIST_ITEMS,
    indexes: [
      { key: { store_id: 1, customer_id: 1, key: 1 }, name: 'store_id_customer_id_key_unique', unique: true },
      { key: { store_id: 1, customer_id: 1, _id: 1 }, name: 'store_id_customer_id_id' },
    ],
  },
];

export const customers = (db: Db) => db.collection<CustomerDocument>(CUSTOMERS);
export const customerAddresses = (db: Db) => db.collection<CustomerAddressDocument>(CUSTOMER_ADDRESSES);

export const customerSessions = (db: Db) => db.collection<CustomerSessionDocument>(CUSTOMER_SESSIONS);
export const customerPasswordResets = (db: Db) => db.collection<CustomerPasswordResetDocument>(CUSTOMER_PASSWORD_RESETS);
export const customerActivations = (db: Db) => db.collection<CustomerActivationDocument>(CUSTOMER_ACTIVATIONS);
export const wishlistItems = (db: Db) => db.collection<WishlistItemDocument>(WISHLIST_ITEMS);
