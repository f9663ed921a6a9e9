/**
 * The orders domain's public error codes, beside the core's (src/errors.ts): added to the
 * registry there, so a PlatformError of this domain takes only a code listed here or in the core.
 */
export const ORDERS_ERROR_CODES = [
  'coupon_not_applicable',
  'edit_conflict',
  'insufficient_stock',
  'location_inactive',
  'order_busy',
  'order_cancelled',
  'order_fulfilled',
  'order_not_pending',
  'over_fulfillment',
  'over_refund',
] as const;

declare module '../errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the registry is filled by declaration merging
  interface ErrorCodeRegistry extends Record<(typeof ORDERS_ERROR_CODES)[number], true> {}
}
