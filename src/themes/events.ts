/**
 * The event types the themes domain records (docs/events.md): added to the registry in
 * src/events/types.ts, so its `emit` and `pending` calls take only a type listed here.
 */
export const THEMES_EVENT_TYPES = [
  'theme.installed',
  'theme.published',
  'theme.purchased',
  'theme.released',
  'theme.review.completed',
  'theme.submitted',
] as const;

declare module '../events/types.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the registry is filled by declaration merging
  interface EventTypeRegistry extends Record<(typeof THEMES_EVENT_TYPES)[number], true> {}
}
