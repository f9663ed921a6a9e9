import type { CouponRedemption } from '../coupons/index.js';
import { announceCouponRedemption, claimCouponRedemption, clearCouponKey } from '../coupons/index.js';
import { clearCustomerKey, recordCustomerOrder } from '../customers/index.js';
import { applyStockChange, clearStockKeys, type LevelView, type StockChange } from '../inventory/index.js';
import { recordPaymentTransaction } from '../payments/index.js';
import type { Platform } from '../platform.js';
import { clearDayKeys, countDay } from './days.js';
import { presentOrder } from './present.js';
import type { CouponEffect, Effect, OrderDocument, PendingChange, StockEffect } from './models.js';

/**
 * The steps of an order change on other documents (changes.ts runs them): each a
 * single-document conditional update in its owning domain, named by a key that makes it safe to
 * repeat; then the change's events, and the clearing of its keys once it is settled.
 */
export type Failure = NonNullable<PendingChange['failure']>;

export type StepResult = { outcome: 'applied'; level: LevelView | null } | { outcome: 'voided' } | { outcome: 'refused'; failure: Failure };

export async function applyStep(platform: Platform, order: OrderDocument, step: Effect): Promise<StepResult> {
  const storeId = order.store_id.toHexString();
  switch (step.type) {
    case 'stock': {
      const r = await applyStockChange(platform, storeId, stockChange(order, step));
      if (r.outcome === 'insufficient') return { outcome: 'refused', failure: insufficient(order, step, r.level) };
      return r.outcome === 'applied' ? { outcome: 'applied', level: r.level } : r;
    }
    case 'coupon': {
      const r = await claimCouponRedemption(platform, storeId, redemption(order, step));
      if (r.outcome === 'refused') return { outcome: 'refused', failure: { code: r.error.code, message: r.error.message, details: [] } };
      return r.outcome === 'applied' ? { outcome: 'applied', level: null } : r;
    }
    case 'customer':
      await recordCustomerOrder(platform, storeId, step.customer_id.toHexString(), { key: step.key, amount: step.amount, countDelta: step.count });
      return { outcome: 'applied', level: null };
    case 'payment':
      await recordPaymentTransaction(platform, storeId, {
        id: step.transaction_id.toHexString(),
        order_id: order._id.toHexString(),
        kind: step.kind,
        status: 'success',
        amount: step.amount,
        currency: order.currency,
        provider: step.provider ?? 'manual',
        provider_reference: step.provider_reference ?? null,
      });
      return { outcome: 'applied', level: null };
    case 'day':
      await countDay(platform, order, step);
      return { outcome: 'applied', level: null };
  }
}

export function insufficient(order: OrderDocument, step: StockEffect, level: LevelView | null): Failure {
  const wanted = -step.available;
  const available = level?.available ?? 0;
  return order.pending_op!.kind === 'create'
    ? {
        code: 'insufficient_stock',
        message: 'Not enough stock for this order',
        details: [`line_items.${step.line}: ${wanted} requested, ${available} available`],
      }
    : {
        code: 'insufficient_stock',
        message: `Only ${available} available at this location; cannot take ${wanted}`,
        details: [`line ${order.line_items[step.line]!._id.toHexString()}: ${wanted} requested, ${available} available`],
      };
}

export const stockChange = (order: OrderDocument, s: StockEffect): StockChange => ({
  key: s.key,
  variant_id: s.variant_id.toHexString(),
  product_id: s.product_id.toHexString(),
  location_id: s.location_id.toHexString(),
  available: s.available,
  committed: s.committed,
  floor: s.floor,
  reason: s.reason,
  order_id: order._id.toHexString(),
});

export const redemption = (order: OrderDocument, c: CouponEffect): CouponRedemption => ({
  key: c.key,
  coupon_id: c.coupon_id.toHexString(),
  order_id: order._id.toHexString(),
  customer_key: c.customer_key,
});

/** The change's events, each idempotent on its key. */
export async function announceChange(platform: Platform, order: OrderDocument, op: PendingChange): Promise<void> {
  const view = presentOrder(order);
  const subject = op.subject_id?.toHexString();
  const refund = view.refunds.find((r) => r.id === subject) ?? null;
  switch (op.kind) {
    case 'create':
      await Promise.all([
        platform.events.emit('order.created', order.store_id, { order: view }, `order.created:${view.id}`),
        ...op.holds.flatMap((hold) =>
          hold.type === 'coupon' ? [announceCouponRedemption(platform, order.store_id.toHexString(), redemption(order, hold))] : [],
        ),
      ]);
      return;
    case 'fulfil':
      await platform.events.emit(
        'order.fulfilled',
        order.store_id,
        { order: view, fulfillment: view.fulfillments.find((f) => f.id === subject) },
        `order.fulfilled:${view.id}:${subject}`,
      );
      return;
    case 'refund':
      await platform.events.emit('order.refunded', order.store_id, { order: view, refund }, `order.refunded:${view.id}:${subject}`);
      return;
    case 'cancel':
      await Promise.all([
        platform.events.emit('order.cancelled', order.store_id, { order: view, refund }, `order.cancelled:${view.id}`),
        platform.events.emit('order.refunded', order.store_id, { order: view, refund }, `order.refunded:${view.id}:${subject}`),
      ]);
      return;
    case 'pay':
      await platform.events.emit('order.paid', order.store_id, { order: view }, `order.paid:${view.id}`);
      return;
    case 'claim':
      await platform.events.emit('order.updated', order.store_id, { order: view, changed: ['customer_id'] }, `order.updated:${view.id}:${op.id}`);
      return;
  }
}

export async function clearKeys(platform: Platform, order: OrderDocument, op: PendingChange): Promise<void> {
  const storeId = order.store_id.toHexString();
  const steps = [...op.holds, ...op.effects];
  await clearStockKeys(
    platform,
    storeId,
    steps.flatMap((s) => (s.type === 'stock' ? [stockChange(order, s)] : [])),
  );
  for (const s of steps) if (s.type === 'coupon') await clearCouponKey(platform, storeId, redemption(order, s));
  const byCustomer = new Map<string, string[]>();
  for (const s of steps)
    if (s.type === 'customer') byCustomer.set(s.customer_id.toHexString(), [...(byCustomer.get(s.customer_id.toHexString()) ?? []), s.key]);
  for (const [customerId, keys] of byCustomer) await clearCustomerKey(platform, storeId, customerId, keys);
  await clearDayKeys(
    platform,
    order,
    steps.flatMap((s) => (s.type === 'day' ? [s] : [])),
  );
}
