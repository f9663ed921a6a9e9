/**
 * The shop's error codes, beside the core's (src/errors.ts): shown on its HTML error pages and
 * logged, never sent as the API's envelope (docs/shop.md).
 */
export const SHOP_ERROR_CODES = ['csrf_token_invalid'] as const;

declare module '../errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the registry is filled by declaration merging
  interface ErrorCodeRegistry extends Record<(typeof SHOP_ERROR_CODES)[number], true> {}
}
