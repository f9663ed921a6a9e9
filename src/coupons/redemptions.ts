import { ObjectId, type Filter } from 'mongodb';
import { isDuplicateKeyError } from '../db.js';
import { PlatformError } from '../errors.js';
import type { Platform } from '../platform.js';
import { presentCoupon } from './present.js';
import { couponRedemptions, coupons, type CouponDocument } from './models.js';

/**
 * A coupon's use by an order (docs/coupons.md, "Redemptions"). Counting it is two single-document
 * writes, each safe to repeat: the coupon's counters (conditional on its usage limit, with the
 * step's key pushed in the same update so a retry counts nothing twice) and the redemption
 * record keyed by the order, whose slot enforces the per-customer limit through a unique index.
 * The order undoes both if it is not made, and clears the key once it is.
 */
export type CouponRedemption = {
  /** Unique to the order step: `<operation id>.<n>`. */
  key: string;
  coupon_id: string;
  order_id: string;
  /** From couponCustomerKey: who the per-customer limit counts. */
  customer_key: string | null;
};

export type RedemptionOutcome = { outcome: 'applied' } | { outcome: 'voided' } | { outcome: 'refused'; error: PlatformError };

/** Who a per-customer limit counts: the customer, else the order's email, else nobody. */
export function couponCustomerKey(who: { customer_id?: string | null | undefined; email?: string | null | undefined }): string | null {
  if (who.customer_id) return `customer:${who.customer_id}`;
  if (who.email) return `email:${who.email.toLowerCase()}`;
  return null;
}

export function countCustomerRedemptions(platform: Pick<Platform, 'db'>, couponId: ObjectId, customerKey: string): Promise<number> {
  return couponRedemptions(platform.db).countDocuments({ coupon_id: couponId, customer_key: customerKey, voided: false });
}

const notYet = (key: string): Filter<CouponDocument> => ({ pending_ops: { $ne: key }, voided_ops: { $ne: key } });

/**
 * Count one use of the coupon for the order: refused (conflict) if the coupon is inactive, out
 * of its window, used up, or used up by this customer (concurrent orders included). Nothing is
 * left counted when it is refused.
 */
export async function claimCouponRedemption(platform: Platform, storeId: string, r: CouponRedemption): Promise<RedemptionOutcome> {
  const storeOid = new ObjectId(storeId);
  const couponOid = new ObjectId(r.coupon_id);
  const now = platform.clock.now();
  const usable: Filter<CouponDocument> = {
    _id: couponOid,
    store_id: storeOid,
    active: true,
    $and: [{ $or: [{ starts_at: null }, { starts_at: { $lte: now } }] }, { $or: [{ ends_at: null }, { ends_at: { $gt: now } }] }],
    ...notYet(r.key),
  };
  const mark = { $set: { updated_at: now }, $push: { pending_ops: r.key } };
  let coupon =
    (await coupons(platform.db).findOneAndUpdate(
      { ...usable, usage_remaining: { $gt: 0 } },
      { ...mark, $inc: { usage_count: 1, usage_remaining: -1 } },
      { returnDocument: 'after' },
    )) ??
    (await coupons(platform.db).findOneAndUpdate({ ...usable, usage_remaining: null }, { ...mark, $inc: { usage_count: 1 } }, { returnDocument: 'after' }));
  if (!coupon) {
    const current = await coupons(platform.db).findOne({ _id: couponOid, store_id: storeOid });
    if (current?.voided_ops?.includes(r.key)) return { outcome: 'voided' };
    if (!current?.pending_ops?.includes(r.key)) return { outcome: 'refused', error: refusal(current, now) };
    coupon = current; // counted by an earlier attempt
  }
  const limit = coupon.usage_limit_per_customer;
  if (limit !== null && r.customer_key === null)
    return refuseCounted(
      platform,
      storeId,
      r,
      new PlatformError('conflict', 'customer_required', 'This coupon is limited per customer: the order needs a customer or an email'),
    );
  const slotted = await takeSlot(platform, storeOid, couponOid, r, limit);
  if (slotted === 'full')
    return refuseCounted(
      platform,
      storeId,
      r,
      new PlatformError('conflict', 'customer_usage_limit_reached', 'This customer has used this coupon as often as it may be used'),
    );
  return { outcome: slotted };
}

function refusal(current: CouponDocument | null, now: Date): PlatformError {
  if (!current) return new PlatformError('conflict', 'coupon_not_found', 'The coupon no longer exists in this store');
  if (!current.active) return new PlatformError('conflict', 'coupon_inactive', 'This coupon is not active');
  if (current.starts_at && current.starts_at > now) return new PlatformError('conflict', 'coupon_not_started', 'This coupon is not valid yet');
  if (current.ends_at && current.ends_at <= now) return new PlatformError('conflict', 'coupon_expired', 'This coupon has expired');
  return new PlatformError('conflict', 'usage_limit_reached', 'This coupon has been used as often as it may be');
}

/** The use was counted on the coupon but may not be recorded: take the count back (this process counted it). */
async function refuseCounted(platform: Platform, storeId: string, r: CouponRedemption, error: PlatformError): Promise<RedemptionOutcome> {
  await undoCount(platform, storeId, r, false);
  return { outcome: 'refused', error };
}

/** The redemption record. Limited per customer: the lowest free slot from "1" to the limit; otherwise the order's own slot. */
async function takeSlot(
  platform: Platform,
  storeId: ObjectId,
  couponId: ObjectId,
  r: CouponRedemption,
  limit: number | null,
): Promise<'applied' | 'voided' | 'full'> {
  const orderId = new ObjectId(r.order_id);
  const record = { _id: orderId, store_id: storeId, coupon_id: couponId, customer_key: r.customer_key, voided: false, created_at: platform.clock.now() };
  const mine = async () => {
    const existing = await couponRedemptions(platform.db).findOne({ _id: orderId });
    return existing ? (existing.voided ? 'voided' : 'applied') : null;
  };
  for (let round = 0; round < 10; round++) {
    let slot = r.order_id;
    if (limit !== null) {
      const used = await couponRedemptions(platform.db)
        .find({ coupon_id: couponId, customer_key: r.customer_key, voided: false }, { projection: { slot: 1 } })
        .toArray();
      if (used.some((u) => u._id.equals(orderId))) return 'applied';
      if (used.length >= limit) return (await mine()) ?? 'full';
      const taken = new Set(used.map((u) => u.slot));
      let n = 1;
      while (taken.has(String(n))) n++;
      slot = String(n);
    }
    try {
      await couponRedemptions(platform.db).insertOne({ ...record, slot });
      return 'applied';
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      // This order's record (an earlier attempt), or another order took the slot first: look again.
      const outcome = await mine();
      if (outcome) return outcome;
    }
  }
  throw new PlatformError('conflict', 'coupon_busy', 'The coupon kept changing; try again');
}

/**
 * Undo the use if it was counted and recorded. With `void` (another process than the one that
 * counted it), also make sure it can never be counted or recorded later.
 */
export async function undoCouponRedemption(platform: Platform, storeId: string, r: CouponRedemption, options: { void: boolean }): Promise<void> {
  const orderId = new ObjectId(r.order_id);
  if (options.void) {
    await couponRedemptions(platform.db).updateOne(
      { _id: orderId },
      {
        $set: { voided: true, slot: `void:${r.order_id}` },
        $setOnInsert: { store_id: new ObjectId(storeId), coupon_id: new ObjectId(r.coupon_id), customer_key: r.customer_key, created_at: platform.clock.now() },
      },
      { upsert: true },
    );
  } else {
    await couponRedemptions(platform.db).deleteOne({ _id: orderId, store_id: new ObjectId(storeId) });
  }
  await undoCount(platform, storeId, r, options.void);
}

async function undoCount(platform: Platform, storeId: string, r: CouponRedemption, voiding: boolean): Promise<void> {
  const scope = { _id: new ObjectId(r.coupon_id), store_id: new ObjectId(storeId) };
  for (let attempt = 0; attempt < 5; attempt++) {
    const current = await coupons(platform.db).findOne(scope);
    if (!current) return; // deleted: nothing counts any more
    if (current.pending_ops?.includes(r.key)) {
      const limited = current.usage_remaining !== null;
      const undone = await coupons(platform.db).updateOne(
        { ...scope, pending_ops: r.key, usage_remaining: limited ? { $ne: null } : null },
        {
          $inc: limited ? { usage_count: -1, usage_remaining: 1 } : { usage_count: -1 },
          $set: { updated_at: platform.clock.now() },
          $pull: { pending_ops: r.key },
          ...(voiding ? { $push: { voided_ops: r.key } } : {}),
        },
      );
      if (undone.matchedCount === 1) return;
    } else {
      if (!voiding || current.voided_ops?.includes(r.key)) return;
      const voided = await coupons(platform.db).updateOne({ ...scope, ...notYet(r.key) }, { $push: { voided_ops: r.key } });
      if (voided.matchedCount === 1) return;
    }
  }
  throw new Error(`coupon redemption ${r.key}: could not be undone`);
}

/** Forget the step's key once its order has recorded the use as done. */
export async function clearCouponKey(platform: Platform, storeId: string, r: CouponRedemption): Promise<void> {
  await coupons(platform.db).updateOne({ _id: new ObjectId(r.coupon_id), store_id: new ObjectId(storeId) }, { $pull: { pending_ops: r.key } });
}

/** Record `coupon.redeemed` for the order's use (once the order is made); idempotent on the order. */
export async function announceCouponRedemption(platform: Platform, storeId: string, r: CouponRedemption): Promise<void> {
  const doc = await coupons(platform.db).findOne({ _id: new ObjectId(r.coupon_id), store_id: new ObjectId(storeId) });
  if (!doc) return; // deleted since: the order keeps its own copy of the code and discount
  await platform.events.emit(
    'coupon.redeemed',
    doc.store_id,
    { coupon: presentCoupon(doc), order_id: r.order_id },
    `coupon.redeemed:${r.coupon_id}:${r.order_id}`,
  );
}
