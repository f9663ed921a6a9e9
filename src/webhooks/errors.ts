/**
 * The webhooks domain's public error codes, beside the core's (src/errors.ts): added to the
 * registry there, so a PlatformError of this domain takes only a code listed here or in the core.
 */
export const WEBHOOKS_ERROR_CODES = [
  'app_secret_busy',
  'delivery_not_failed',
  'invalid_target_url',
  'subscription_busy',
  'subscription_inactive',
  'subscription_limit_reached',
  'topic_not_subscribed',
] as const;

declare module '../errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the registry is filled by declaration merging
  interface ErrorCodeRegistry extends Record<(typeof WEBHOOKS_ERROR_CODES)[number], true> {}
}
