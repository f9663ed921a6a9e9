import { z } from 'zod';
import type { InputIssue } from '../errors.js';
import { IdString } from '../ids.js';
import { PageQuery } from '../pagination.js';
import type { CouponType } from './models.js';
import { updateBody } from '../http/validate.js';

/** Highest fixed discount and minimum subtotal, in minor units (10 000 000.00 in a two-decimal currency). */
export const MAX_COUPON_AMOUNT = 1_000_000_000;
/** Highest cart amount evaluation accepts: amount × 100 stays an exact integer in a double. */
export const MAX_CART_AMOUNT = 1_000_000_000_000;
const MAX_USAGE = 1_000_000_000;

export const CODE_PATTERN = /^[A-Za-z0-9_-]{3,40}$/;

export const CouponCode = z
  .string()
  .min(3, 'must be at least 3 characters')
  .max(40, 'must be at most 40 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'must be letters, digits, "-" and "_" only');

const Type = z.enum(['percentage', 'fixed_amount', 'free_shipping']);
const Value = z.number().int('must be an integer').positive().max(MAX_COUPON_AMOUNT);
const MinimumSubtotal = z.number().int('must be an integer amount in minor units').min(0).max(MAX_COUPON_AMOUNT);
const UsageLimit = z.number().int('must be an integer').min(1).max(MAX_USAGE);
const Instant = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date and time, e.g. 2026-03-01T00:00:00Z' }).transform((s) => new Date(s));

/** The fields whose combination the rules below check, as they are after a create or update. */
export type CouponRuleFields = { type: CouponType; value: number | null; starts_at: Date | null; ends_at: Date | null };

/** Rules across fields, for create (on the body) and update (on the coupon as it would become). */
export function couponRuleIssues(c: CouponRuleFields): InputIssue[] {
  const issues: InputIssue[] = [];
  if (c.type === 'free_shipping' && c.value !== null) issues.push({ path: 'value', message: 'is not allowed for free_shipping' });
  if (c.type !== 'free_shipping' && c.value === null) issues.push({ path: 'value', message: `is required for ${c.type}` });
  if (c.type === 'percentage' && c.value !== null && c.value > 100) issues.push({ path: 'value', message: 'must be a whole percent from 1 to 100' });
  if (c.starts_at && c.ends_at && c.ends_at <= c.starts_at) issues.push({ path: 'ends_at', message: 'must be after starts_at' });
  return issues;
}

const fields = {
  code: CouponCode,
  type: Type,
  value: Value.nullable(),
  minimum_subtotal: MinimumSubtotal.nullable(),
  usage_limit: UsageLimit.nullable(),
  usage_limit_per_customer: UsageLimit.nullable(),
  starts_at: Instant.nullable(),
  ends_at: Instant.nullable(),
  active: z.boolean(),
};

export const CreateCouponBody = z
  .strictObject({
    code: fields.code,
    type: fields.type,
    value: fields.value.default(null),
    minimum_subtotal: fields.minimum_subtotal.default(null),
    usage_limit: fields.usage_limit.default(null),
    usage_limit_per_customer: fields.usage_limit_per_customer.default(null),
    starts_at: fields.starts_at.default(null),
    ends_at: fields.ends_at.default(null),
    active: fields.active.default(true),
  })
  .superRefine((body, ctx) => {
    for (const issue of couponRuleIssues(body)) ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
  });
export type CreateCouponBody = z.infer<typeof CreateCouponBody>;

export const UpdateCouponBody = updateBody(fields);
export type UpdateCouponBody = z.infer<typeof UpdateCouponBody>;

export const ListCouponsQuery = PageQuery.extend({
  active: z.enum(['true', 'false']).optional(),
  query: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,40}$/, 'must be the start of a code: 1 to 40 letters, digits, "-" or "_"')
    .optional(),
}).strict();
export type ListCouponsQuery = z.infer<typeof ListCouponsQuery>;

const CartAmount = z.number().int('must be an integer amount in minor units').min(0).max(MAX_CART_AMOUNT);
const CustomerId = IdString('customer');
const CustomerUsageCount = z.number().int().min(0).max(MAX_USAGE);

/** What evaluateCoupon takes (the checkout's cart). */
export const EvaluationCart = z.strictObject({
  subtotal: CartAmount,
  shipping: CartAmount,
  currency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 currency code'),
  customer_id: CustomerId.optional(),
  /** Who the per-customer limit counts when there is no customer id (an order's email). */
  customer_email: z.string().min(3).max(254).optional(),
  customer_usage_count: CustomerUsageCount.optional(),
  /** The cart is about to be ordered: a coupon limited per customer then needs a customer id or an email. */
  redeeming: z.boolean().optional(),
});
export type EvaluationCart = z.infer<typeof EvaluationCart>;

/** POST /v1/coupons/evaluate: a cart in the store's currency. */
export const EvaluateCouponBody = z.strictObject({
  code: z.string().min(1).max(100),
  subtotal: CartAmount,
  shipping: CartAmount,
  customer_id: CustomerId.optional(),
  customer_usage_count: CustomerUsageCount.optional(),
});
export type EvaluateCouponBody = z.infer<typeof EvaluateCouponBody>;
