import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../db.js';
import type { PostalAddress } from '../postal-address.js';
import type { CarriesEvents } from '../events/index.js';
import type { PaymentSessionDocument, PaymentSessionKind, Provider } from '../payments/index.js';

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
  /**
   * A checkout's hold on the cart (src/work/lease.ts): while it lasts, no other checkout, change
   * or discard. Null (or absent, on carts made before checkouts held them): none. A checkout
   * whose process stopped lets go when it runs out (docs/storefront.md, Checkout).
   */
  lease_until: Date | null;
  lease_owner: string | null;
  /**
   * What the shop's checkout pages asked the shopper for before the shipping step (docs/shop.md,
   * Checkout): kept with the cart so it goes when the cart goes, and never bumping its version.
   */
  checkout_details?: CheckoutDetails | null;
} & CarriesEvents;

/** The shopper's contact and shipping address, as the shop's first checkout step took them. */
export type CheckoutDetails = { email: string; shipping_address: PostalAddress | null };

export const cartIndexes: IndexDeclaration[] = [
  {
    collection: CARTS,
    indexes: [
      { key: { token_hash: 1 }, name: 'token_hash_unique', unique: true },
      { key: { expires_at: 1 }, name: 'expires_at' },
      // The sweep of checkouts whose process stopped (finishStrandedCheckouts).
      { key: { lease_until: 1 }, name: 'lease_until' },
    ],
  },
];

export const carts = (db: Db) => db.collection<CartDocument>(CARTS);

export const STOREFRONT_PAYMENTS = 'storefront_payments';

/**
 * A provider-side payment order for a storefront order, and whether the provider's signed payment
 * was verified: a payment session (src/payments/sessions.ts) of the order's shopper. One per
 * (store, order, provider).
 */
export type PaymentDocument = PaymentSessionDocument & {
  store_id: ObjectId;
  order_id: ObjectId;
  provider: Provider;
  /** Minor units of `currency`: the order's total. */
  amount: number;
  currency: string;
  status: 'creating' | 'created' | 'paid';
  verified_at: Date | null;
  created_at: Date;
};

export const paymentIndexes: IndexDeclaration[] = [
  {
    collection: STOREFRONT_PAYMENTS,
    indexes: [
      { key: { provider_order_id: 1 }, name: 'provider_order_id_unique', unique: true },
      // Unique (it replaced the plain `store_id_order_id_provider`, hence the new name): one provider order per order and provider.
      { key: { store_id: 1, order_id: 1, provider: 1 }, name: 'store_id_order_id_provider_unique', unique: true },
    ],
  },
];

/** Storefront payment orders as payment sessions: `created` awaits the payment, `verified_at` records it. */
export const storefrontPayments: PaymentSessionKind<PaymentDocument> = {
  collection: (db: Db) => db.collection<PaymentDocument>(STOREFRONT_PAYMENTS),
  creating: 'creating',
  open: 'created',
  paid: 'paid',
  paidAt: 'verified_at',
};
