/**
 * The event types the shipping domain records (docs/events.md): added to the registry in
 * src/events/types.ts, so its `emit` and `pending` calls take only a type listed here.
 */
export const SHIPPING_EVENT_TYPES = ['shipping_settings.updated'] as const;

declare module '../events/types.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the registry is filled by declaration merging
  interface EventTypeRegistry extends Record<(typeof SHIPPING_EVENT_TYPES)[number], true> {}
}
