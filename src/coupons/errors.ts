/**
 * The coupons domain's public error codes, beside the core's (src/errors.ts): added to the
 * registry there, so a PlatformError of this domain takes only a code listed here or in the core.
 */
export const COUPONS_ERROR_CODES = [
  'coupon_busy',
  'coupon_code_taken',
  'coupon_expired',
  'coupon_inactive',
  'coupon_not_found',
  'coupon_not_started',
  'customer_required',
  'customer_usage_limit_reached',
  'invalid_cart',
  'usage_limit_reached',
] as const;

declare module '../errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the registry is filled by declaration merging
  interface ErrorCodeRegistry extends Record<(typeof COUPONS_ERROR_CODES)[number], true> {}
}
