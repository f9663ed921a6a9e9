/**
 * The giftcards domain's public error codes, beside the core's (src/errors.ts): added to the
 * registry there, so a PlatformError of this domain takes only a code listed here or in the core.
 */
export const GIFTCARDS_ERROR_CODES = [
  'gift_card_busy',
  'gift_card_code_taken',
  'gift_card_disabled',
  'gift_card_expired',
  'insufficient_balance',
  'invalid_amount',
] as const;

declare module '../errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the registry is filled by declaration merging
  interface ErrorCodeRegistry extends Record<(typeof GIFTCARDS_ERROR_CODES)[number], true> {}
}
