/**
 * The event types the apps domain records (docs/events.md): added to the registry in
 * src/events/types.ts, so its `emit` and `pending` calls take only a type listed here.
 */
export const APPS_EVENT_TYPES = [
  'app.installed',
  'app.scopes_updated',
  'app.uninstalled',
  'app_extension.lifecycle.status_changed',
  'customers.data_request',
  'customers.redact',
  'shop.redact',
] as const;

declare module '../events/types.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the registry is filled by declaration merging
  interface EventTypeRegistry extends Record<(typeof APPS_EVENT_TYPES)[number], true> {}
}
