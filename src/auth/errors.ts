/**
 * The auth domain's public error codes, beside the core's (src/errors.ts): added to the
 * registry there, so a PlatformError of this domain takes only a code listed here or in the core.
 */
export const AUTH_ERROR_CODES = ['invalid_code', 'invalid_credentials', 'invalid_reset_token', 'password_changed', 'sessions_changed'] as const;

declare module '../errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the registry is filled by declaration merging
  interface ErrorCodeRegistry extends Record<(typeof AUTH_ERROR_CODES)[number], true> {}
}
