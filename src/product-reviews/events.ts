/**
 * The event types the product-reviews domain records (docs/events.md): added to the registry in
 * src/events/types.ts, so its `emit` and `pending` calls take only a type listed here.
 */
export const PRODUCT_REVIEWS_EVENT_TYPES = ['review.created', 'review.deleted', 'review.replied', 'review.updated'] as const;

declare module '../events/types.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the registry is filled by declaration merging
  interface EventTypeRegistry extends Record<(typeof PRODUCT_REVIEWS_EVENT_TYPES)[number], true> {}
}
