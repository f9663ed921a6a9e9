import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../db.js';
import type { CarriesEvents } from '../events/index.js';

export const COUPONS = 'coupons';
export const COUPON_REDEMPTIONS = 'coupon_redemptions';

export type CouponType = 'percentage' | 'fixed_amount' | 'free_shipping';

export type CouponDocument = {
  _id: ObjectId;
  store_id: ObjectId;
  /** As the merchant wrote it. */
  code: string;
  /** Upper case: what uniqueness and look-ups use, so codes are case-insensitive. */
  code_normalized: string;
  type: CouponType;
  /** Percent (1–100) or minor units; null for free_shipping. */
  value: number | null;
  /** The store's currency when the coupon was created: the unit of value and minimum_subtotal. */
  currency: string;
  minimum_subtotal: number | null;
  usage_limit: number | null;
  usage_limit_per_customer: number | null;
  usage_count: number;
  /** usage_limit − usage_count, or null without a limit: redemption decrements it only while > 0. */
  usage_remaining: number | null;
  starts_at: Date | null;
  ends_at: Date | null;
  active: boolean;
  /** Incremented by every merchant update; names the update in its event's idempotency key. */
  version: number;
  /** Keys of order redemptions counted here whose order has not yet recorded them as done (a retry counts nothing twice). */
  pending_ops?: string[];
  /** Keys of redemptions undone by another process than the one that started them: they can never be counted. */
  voided_ops?: string[];
  created_at: Date;
  updated_at: Date;
} & CarriesEvents;

/**
 * One use of a coupon, by one order (`_id` is the order's id). Per-customer limits hold through
 * the unique index: a customer's uses take slots "1" to the limit, so concurrent orders of one
 * customer cannot take more; uses not limited per customer take the slot named by the order id.
 */
export type CouponRedemptionDocument = {
  _id: ObjectId;
  store_id: ObjectId;
  coupon_id: ObjectId;
  /** `customer:<id>` or `email:<address>`, or null when the order names neither. */
  customer_key: string | null;
  slot: string;
  /** Undone by another process than the one that made it (its slot is then `void:<order id>`). */
  voided: boolean;
  created_at: Date;
};

export const couponIndexes: IndexDeclaration[] = [
  {
    collection: COUPONS,
    indexes: [
      { key: { store_id: 1, code_normalized: 1 }, name: 'store_id_code_normalized_unique', unique: true },
      { key: { store_id: 1, _id: 1 }, name: 'store_id_id' },
      { key: { store_id: 1, active: 1, _id: 1 }, name: 'store_id_active_id' },
    ],
  },
  {
    collection: COUPON_REDEMPTIONS,
    indexes: [{ key: { coupon_id: 1, customer_key: 1, slot: 1 }, name: 'coupon_id_customer_key_slot_unique', unique: true }],
  },
];

export const coupons = (db: Db) => db.collection<CouponDocument>(COUPONS);
export const couponRedemptions = (db: Db) => db.collection<CouponRedemptionDocument>(COUPON_REDEMPTIONS);
