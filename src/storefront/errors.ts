/**
 * The storefront domain's public error codes, beside the core's (src/errors.ts): added to the
 * registry there, so a PlatformError of this domain takes only a code listed here or in the core.
 */
export const STOREFRONT_ERROR_CODES = [
  'cart_already_checked_out',
  'cart_conflict',
  'cart_not_purchasable',
  'checkout_blocked',
  'checkout_in_progress',
  'coupon_refused',
  'coupon_not_applicable',
  'idempotency_key_required',
  'invalid_signature',
  'order_not_payable',
  'payment_already_verified',
  'payment_method_unavailable',
  'payment_order_in_progress',
  'payment_secret_required',
  'provider_not_enabled',
  'provider_not_supported',
  'shipping_option_unavailable',
] as const;

declare module '../errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the registry is filled by declaration merging
  interface ErrorCodeRegistry extends Record<(typeof STOREFRONT_ERROR_CODES)[number], true> {}
}
