import type { CouponDocument, CouponType } from './store.js';

export type CouponView = {
  id: string;
  code: string;
  type: CouponType;
  value: number | null;
  currency: string;
  minimum_subtotal: number | null;
  usage_limit: number | null;
  usage_limit_per_customer: number | null;
  usage_count: number;
  starts_at: string | null;
  ends_at: string | null;
  active: boolean;
  created_at: string;
  updated_at: string;
};

export const presentCoupon = (c: CouponDocument): CouponView => ({
  id: c._id.toHexString(),
  code: c.code,
  type: c.type,
  value: c.value,
  currency: c.currency,
  minimum_subtotal: c.minimum_subtotal,
  usage_limit: c.usage_limit,
  usage_limit_per_customer: c.usage_limit_per_customer,
  usage_count: c.usage_count,
  starts_at: c.starts_at ? c.starts_at.toISOString() : null,
  ends_at: c.ends_at ? c.ends_at.toISOString() : null,
  active: c.active,
  created_at: c.created_at.toISOString(),
  updated_at: c.updated_at.toISOString(),
});
