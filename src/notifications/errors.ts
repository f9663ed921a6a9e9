/**
 * The notifications domain's public error codes, beside the core's (src/errors.ts).
 */
export const NOTIFICATIONS_ERROR_CODES = ['invalid_template', 'no_merchant_email'] as const;

declare module '../errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the registry is filled by declaration merging
  interface ErrorCodeRegistry extends Record<(typeof NOTIFICATIONS_ERROR_CODES)[number], true> {}
}
