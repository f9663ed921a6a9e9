import type { CouponDocument } from './models.js';

export const presentCoupon = (c: CouponDocument) => ({
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
export type CouponView = ReturnType<typeof presentCoupon>;
