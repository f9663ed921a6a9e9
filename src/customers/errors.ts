/**
 * The customers domain's public error codes, beside the core's (src/errors.ts): added to the
 * registry there, so a PlatformError of this domain takes only a code listed here or in the core.
 */
export const CUSTOMERS_ERROR_CODES = [
  'account_exists',
  'address_limit_reached',
  'edit_conflict',
  'email_taken',
  'invalid_activation_token',
  'invalid_credentials',
  'invalid_reset_token',
  'password_changed',
  'wishlist_full',
] as const;

declare module '../errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the registry is filled by declaration merging
  interface ErrorCodeRegistry extends Record<(typeof CUSTOMERS_ERROR_CODES)[number], true> {}
}
