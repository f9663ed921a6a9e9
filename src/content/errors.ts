/**
 * The content domain's public error codes, beside the core's (src/errors.ts): added to the
 * registry there, so a PlatformError of this domain takes only a code listed here or in the core.
 * Both are also the catalog's: the same meaning for pages, articles and menus.
 */
export const CONTENT_ERROR_CODES = ['edit_conflict', 'handle_taken'] as const;

declare module '../errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the registry is filled by declaration merging
  interface ErrorCodeRegistry extends Record<(typeof CONTENT_ERROR_CODES)[number], true> {}
}
