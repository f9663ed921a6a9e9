/**
 * The event types the customers domain records (docs/events.md): added to the registry in
 * src/events/types.ts, so its `emit` and `pending` calls take only a type listed here.
 */
export const CUSTOMERS_EVENT_TYPES = [
  'customer.created',
  'customer.updated',
  'customer_address.created',
  'customer_address.deleted',
  'customer_address.updated',
] as const;

declare module '../events/types.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the registry is filled by declaration merging
  interface EventTypeRegistry extends Record<(typeof CUSTOMERS_EVENT_TYPES)[number], true> {}
}
