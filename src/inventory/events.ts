/**
 * The event types the inventory domain records (docs/events.md): added to the registry in
 * src/events/types.ts, so its `emit` and `pending` calls take only a type listed here.
 */
export const INVENTORY_EVENT_TYPES = ['inventory_level.updated', 'inventory_location.created', 'inventory_location.updated'] as const;

declare module '../events/types.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the registry is filled by declaration merging
  interface EventTypeRegistry extends Record<(typeof INVENTORY_EVENT_TYPES)[number], true> {}
}
