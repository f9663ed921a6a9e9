/**
 * The event types the graphql domain records (docs/events.md): added to the registry in
 * src/events/types.ts, so its `emit` and `pending` calls take only a type listed here.
 */
export const GRAPHQL_EVENT_TYPES = ['bulk_operation.finished'] as const;

declare module '../events/types.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the registry is filled by declaration merging
  interface EventTypeRegistry extends Record<(typeof GRAPHQL_EVENT_TYPES)[number], true> {}
}
