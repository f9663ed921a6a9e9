import type { CouponDocument } from './models.js';
import { stamps } from '../allow-list.js';

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
  ...stamps(c),
});
export type CouponView = ReturnType<typeof presentCoupon>;
