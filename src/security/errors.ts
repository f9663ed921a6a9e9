/**
 * The security domain's public error codes (docs/operations.md, Security enforcement): added to
 * the registry in src/errors.ts.
 */
export const SECURITY_ERROR_CODES = [
  'address_blocked',
  'app_suspended',
  'app_already_suspended',
  'block_includes_loopback',
  'block_includes_own_address',
  'block_too_broad',
  'enforcement_already_undone',
  'enforcement_not_undoable',
] as const;

declare module '../errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the registry is filled by declaration merging
  interface ErrorCodeRegistry extends Record<(typeof SECURITY_ERROR_CODES)[number], true> {}
}
