/**
 * The event types the orders domain records (docs/events.md): added to the registry in
 * src/events/types.ts, so its `emit` and `pending` calls take only a type listed here.
 */
export const ORDERS_EVENT_TYPES = ['order.cancelled', 'order.created', 'order.fulfilled', 'order.paid', 'order.refunded', 'order.updated'] as const;

declare module '../events/types.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the registry is filled by declaration merging
  interface EventTypeRegistry extends Record<(typeof ORDERS_EVENT_TYPES)[number], true> {}
}
