/**
 * The inventory domain's public error codes, beside the core's (src/errors.ts): added to the
 * registry there, so a PlatformError of this domain takes only a code listed here or in the core.
 */
export const INVENTORY_ERROR_CODES = ['insufficient_stock', 'inventory_level_busy', 'location_busy', 'location_inactive'] as const;

declare module '../errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the registry is filled by declaration merging
  interface ErrorCodeRegistry extends Record<(typeof INVENTORY_ERROR_CODES)[number], true> {}
}
