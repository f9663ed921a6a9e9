/**
 * The event types the webhooks domain records (docs/events.md): added to the registry in
 * src/events/types.ts, so its `emit` and `pending` calls take only a type listed here.
 */
export const WEBHOOKS_EVENT_TYPES = [
  'webhook_subscription.created',
  'webhook_subscription.deleted',
  'webhook_subscription.disabled',
  'webhook_subscription.failing',
  'webhook_subscription.updated',
] as const;

declare module '../events/types.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the registry is filled by declaration merging
  interface EventTypeRegistry extends Record<(typeof WEBHOOKS_EVENT_TYPES)[number], true> {}
}
