/**
 * Every event type the platform emits (docs/events.md describes each). Webhook subscriptions
 * may name these, a family wildcard such as `order.*`, or `*` for all. A test checks that
 * every emit in src/ uses a type listed here.
 */
export const EVENT_TYPES = [
  'collection.created',
  'collection.deleted',
  'collection.updated',
  'coupon.created',
  'coupon.deleted',
  'coupon.redeemed',
  'coupon.updated',
  'customer.created',
  'customer.updated',
  'customer_address.created',
  'customer_address.deleted',
  'customer_address.updated',
  'form_submission.created',
  'gift_card.created',
  'gift_card.debited',
  'gift_card.disabled',
  'inventory_level.updated',
  'inventory_location.created',
  'inventory_location.updated',
  'media.created',
  'media.deleted',
  'order.created',
  'order.fulfilled',
  'order.refunded',
  'payment_provider.updated',
  'payment_transaction.created',
  'product.created',
  'product.deleted',
  'product.updated',
  'review.created',
  'review.deleted',
  'review.replied',
  'review.updated',
  'store.created',
  'store.updated',
  'tax_settings.updated',
  'webhook_subscription.created',
  'webhook_subscription.deleted',
  'webhook_subscription.updated',
  'webhook_subscription.disabled',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

const FAMILIES = new Set(EVENT_TYPES.map((t) => t.split('.')[0]!));

/** A subscription pattern: a known type, `<family>.*` for a known family, or `*`. */
export function isEventPattern(pattern: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return FAMILIES.has(pattern.slice(0, -2));
  return (EVENT_TYPES as readonly string[]).includes(pattern);
}

/** Whether an event type is covered by any of the patterns. */
export function matchesEventPatterns(type: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => p === '*' || p === type || (p.endsWith('.*') && type.startsWith(p.slice(0, -1))));
}
