import { ObjectId } from 'mongodb';
import { PlatformError, invalidInput } from '../errors.js';
import { findViewPage, type Page } from '../pagination.js';
import type { Platform } from '../platform.js';
import { deleteAsRead } from '../deleting.js';
import { presentCoupon, type CouponView } from './present.js';
import {
  CODE_PATTERN,
  EvaluationCart,
  couponRuleIssues,
  type CreateCouponBody,
  type EvaluateCouponBody,
  type ListCouponsQuery,
  type UpdateCouponBody,
} from './schemas.js';
import { COUPONS, coupons, type CouponDocument } from './models.js';
import { carrying } from '../events/index.js';
import { findInStore, onDuplicateKey } from '../db.js';
import { parseObjectId } from '../ids.js';
import { couponCustomerKey, countCustomerRedemptions } from './redemptions.js';

/** An update retries this often when a concurrent change (another update, a redemption) got there first. */
const UPDATE_ATTEMPTS = 5;

export type CouponEvaluation =
  { applicable: true; coupon: CouponView; discount: { subtotal: number; shipping: number } } | { applicable: false; reason: CouponRefusal };

export type CouponRefusal =
  | 'not_found'
  | 'inactive'
  | 'not_started'
  | 'expired'
  | 'usage_limit_reached'
  | 'customer_usage_limit_reached'
  | 'customer_required'
  | 'minimum_subtotal_not_met'
  | 'currency_mismatch';

const codeTaken = () => new PlatformError('conflict', 'coupon_code_taken', 'This store already has a coupon with that code (codes are case-insensitive)');

const remaining = (limit: number | null, used: number) => (limit === null ? null : Math.max(0, limit - used));

export async function createCoupon(platform: Platform, store: { id: string; currency: string }, input: CreateCouponBody): Promise<CouponView> {
  const now = platform.clock.now();
  const doc: CouponDocument = {
    _id: new ObjectId(),
    store_id: new ObjectId(store.id),
    code: input.code,
    code_normalized: input.code.toUpperCase(),
    type: input.type,
    value: input.value,
    currency: store.currency,
    minimum_subtotal: input.minimum_subtotal,
    usage_limit: input.usage_limit,
    usage_limit_per_customer: input.usage_limit_per_customer,
    usage_count: 0,
    usage_remaining: remaining(input.usage_limit, 0),
    starts_at: input.starts_at,
    ends_at: input.ends_at,
    active: input.active,
    version: 1,
    created_at: now,
    updated_at: now,
  };
  const view = presentCoupon(doc);
  const pending = [platform.events.pending('coupon.created', doc.store_id, { coupon: view }, `coupon.created:${view.id}`)];
  await onDuplicateKey(platform.events.insert(coupons(platform.db), doc, pending), codeTaken);
  return view;
}

/** A prefix of an upper-cased code as a range: every code character sorts below `~`, so the range is exactly the prefix. */
const prefixRange = (prefix: string) => ({ $gte: prefix.toUpperCase(), $lt: `${prefix.toUpperCase()}~` });

export async function listCoupons(
  platform: Platform,
  storeId: string,
  query: ListCouponsQuery & Pick<Page, 'backwards'>,
): Promise<{ items: CouponView[]; nextCursor: string | null }> {
  const filter = {
    store_id: new ObjectId(storeId),
    ...(query.active ? { active: query.active === 'true' } : {}),
    ...(query.query ? { code_normalized: prefixRange(query.query) } : {}),
  };
  return findViewPage(coupons(platform.db), filter, query, presentCoupon);
}

export async function getCoupon(platform: Platform, storeId: string, couponId: string): Promise<CouponView> {
  const doc = await findInStore(coupons(platform.db), storeId, couponId, 'Coupon');
  return presentCoupon(doc);
}

/**
 * Change the given fields. The rules across fields are checked on the coupon as it would
 * become, and the write is conditional on the version and usage count read, so a concurrent
 * update or redemption makes it re-read and try again rather than be overwritten.
 */
export async function updateCoupon(platform: Platform, storeId: string, couponId: string, input: UpdateCouponBody): Promise<CouponView> {
  const changed = (Object.keys(input) as (keyof UpdateCouponBody)[]).filter((k) => input[k] !== undefined);
  for (let attempt = 1; attempt <= UPDATE_ATTEMPTS; attempt++) {
    const current = await findInStore(coupons(platform.db), storeId, couponId, 'Coupon');
    const next = { ...current, ...Object.fromEntries(changed.map((k) => [k, input[k]])) } as CouponDocument;
    const issues = couponRuleIssues(next);
    if (issues.length > 0) throw invalidInput(issues);
    const set: Partial<CouponDocument> = { ...Object.fromEntries(changed.map((k) => [k, input[k]])), updated_at: platform.clock.now() };
    if (input.code !== undefined) set.code_normalized = input.code.toUpperCase();
    if (input.usage_limit !== undefined) set.usage_remaining = remaining(input.usage_limit, current.usage_count);
    // The write is conditional on what was read, so the coupon as it becomes is known now: its event travels with the write.
    const view = presentCoupon({ ...current, ...set, version: current.version + 1 });
    const pending = [
      platform.events.pending('coupon.updated', current.store_id, { coupon: view, changed }, `coupon.updated:${view.id}:v${current.version + 1}`),
    ];
    const result = await onDuplicateKey(
      coupons(platform.db).updateOne(
        { _id: current._id, store_id: current.store_id, version: current.version, usage_count: current.usage_count },
        carrying({ $set: set, $inc: { version: 1 } }, pending),
      ),
      codeTaken,
    );
    if (result.matchedCount !== 1) continue;
    await platform.events.settle(coupons(platform.db), current._id, pending);
    return view;
  }
  throw new PlatformError('conflict', 'coupon_busy', 'The coupon kept changing while it was being updated; try again');
}

/**
 * Delete for good (orders keep their own copy of the code and discount), which frees the
 * code for a new coupon.
 */
export async function deleteCoupon(platform: Platform, storeId: string, couponId: string): Promise<void> {
  for (let attempt = 1; attempt <= UPDATE_ATTEMPTS; attempt++) {
    const current = await findInStore(coupons(platform.db), storeId, couponId, 'Coupon');
    const target = { collection: coupons(platform.db), carrier: COUPONS, event: 'coupon.deleted' as const };
    // Nor while it was being redeemed: the event shows its usage as it was.
    if (await deleteAsRead(platform, target, current, { coupon: presentCoupon(current) }, { also: { usage_count: current.usage_count } })) return;
  }
  throw new PlatformError('conflict', 'coupon_busy', 'The coupon kept changing while it was being deleted; try again');
}

/** The coupon's amounts are in its currency: only a coupon that carries amounts cares about the cart's. */
const usesAmounts = (c: CouponDocument) => c.type === 'fixed_amount' || c.minimum_subtotal !== null;

/**
 * Whether a coupon applies to a cart and the discount it gives, without redeeming it. Integer
 * arithmetic only: a percentage rounds down to the minor unit (the shopper never gets more
 * than the percent), a fixed amount never exceeds the subtotal, free shipping takes the whole
 * shipping amount.
 */
export async function evaluateCoupon(platform: Platform, storeId: string, code: string, cart: EvaluationCart): Promise<CouponEvaluation> {
  const parsed = EvaluationCart.safeParse(cart);
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => `${['cart', ...i.path.map(String)].join('.')}: ${i.message}`);
    throw new PlatformError('invalid_data', 'invalid_cart', 'The cart to evaluate is invalid', { details });
  }
  const input = parsed.data;
  const now = platform.clock.now();
  const coupon =
    CODE_PATTERN.test(code) && parseObjectId(storeId)
      ? await coupons(platform.db).findOne({ store_id: new ObjectId(storeId), code_normalized: code.toUpperCase() })
      : null;
  const refuse = (reason: CouponRefusal): CouponEvaluation => ({ applicable: false, reason });
  if (!coupon) return refuse('not_found');
  if (!coupon.active) return refuse('inactive');
  if (coupon.starts_at && coupon.starts_at > now) return refuse('not_started');
  if (coupon.ends_at && coupon.ends_at <= now) return refuse('expired');
  if (coupon.usage_remaining !== null && coupon.usage_remaining <= 0) return refuse('usage_limit_reached');
  if (coupon.usage_limit_per_customer !== null) {
    const customerKey = couponCustomerKey({ customer_id: input.customer_id, email: input.customer_email });
    if (customerKey === null && input.redeeming && input.customer_usage_count === undefined) return refuse('customer_required');
    const used = input.customer_usage_count ?? (customerKey === null ? null : await countCustomerRedemptions(platform, coupon._id, customerKey));
    if (used !== null && used >= coupon.usage_limit_per_customer) return refuse('customer_usage_limit_reached');
  }
  if (usesAmounts(coupon) && input.currency !== coupon.currency) return refuse('currency_mismatch');
  if (coupon.minimum_subtotal !== null && input.subtotal < coupon.minimum_subtotal) return refuse('minimum_subtotal_not_met');
  const value = coupon.value ?? 0;
  const discount =
    coupon.type === 'percentage'
      ? { subtotal: Math.floor((input.subtotal * value) / 100), shipping: 0 }
      : coupon.type === 'fixed_amount'
        ? { subtotal: Math.min(value, input.subtotal), shipping: 0 }
        : { subtotal: 0, shipping: input.shipping };
  return { applicable: true, coupon: presentCoupon(coupon), discount };
}

/** A code tried on a cart in the store's own currency (the admin's evaluate endpoint): as evaluateCoupon. */
export function evaluateCouponForStore(platform: Platform, store: { id: string; currency: string }, input: EvaluateCouponBody): Promise<CouponEvaluation> {
  const { code, ...cart } = input;
  return evaluateCoupon(platform, store.id, code, { ...cart, currency: store.currency });
}
