/**
 * The operations domain's public error codes (docs/operations.md): added to the registry in
 * src/errors.ts.
 */
export const OPERATIONS_ERROR_CODES = [
  'job_not_failed',
  'job_not_cancelable',
  'job_lock_held',
  'incident_not_open',
  'incident_resolved',
  'incident_timeline_full',
] as const;

declare module '../errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the registry is filled by declaration merging
  interface ErrorCodeRegistry extends Record<(typeof OPERATIONS_ERROR_CODES)[number], true> {}
}
