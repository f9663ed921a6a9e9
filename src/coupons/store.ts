import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../db.js';

export const COUPONS = 'coupons';

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
  created_at: Date;
  updated_at: Date;
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
];

export const coupons = (db: Db) => db.collection<CouponDocument>(COUPONS);

