import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../db.js';
import type { CarriesEvents } from '../events/index.js';

export const CARTS = 'storefront_carts';

export type CartLineDocument = { variant_id: ObjectId; quantity: number };

/** A shopper's cart: found by the SHA-256 of its token, never by the token itself. */
export type CartDocument = {
  _id: ObjectId;
  store_id: ObjectId;
  token_hash: string;
  lines: CartLineDocument[];
  coupon_code: string | null;
  /** Incremented by every change: a PATCH names the version it read (docs/storefront.md, Carts). */
  version: number;
  created_at: Date;
  updated_at: Date;
  /** `updated_at` + CART_IDLE_DAYS: from then on the cart reads as not found and the sweep removes it. */
  expires_at: Date;
  /** Set when a checkout turned it into an order: it then reads as not found. */
  consumed_at: Date | null;
  /** The order the checkout made of it. */
  order_id?: ObjectId | null;
} & CarriesEvents;

export const cartIndexes: IndexDeclaration[] = [
  {
    collection: CARTS,
    indexes: [
      { key: { token_hash: 1 }, name: 'token_hash_unique', unique: true },
      { key: { expires_at: 1 }, name: 'expires_at' },
    ],
  },
];

export const carts = (db: Db) => db.collection<CartDocument>(CARTS);
