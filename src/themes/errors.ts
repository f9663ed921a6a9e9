/**
 * The themes domain's public error codes, beside the core's (src/errors.ts): added to the
 * registry there, so a PlatformError of this domain takes only a code listed here or in the core.
 */
export const THEMES_ERROR_CODES = [
  'already_purchased',
  'draft_version_conflict',
  'invalid_bundle',
  'invalid_draft',
  'invalid_signature',
  'no_draft',
  'nothing_to_publish',
  'provider_not_supported',
  'purchase_required',
  'release_conflict',
  'review_checks_failed',
  'review_checks_pending',
  'review_decided',
  'submission_mode_mismatch',
  'theme_is_free',
  'theme_not_installable',
  'theme_slug_taken',
  'version_number_not_increasing',
] as const;

declare module '../errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the registry is filled by declaration merging
  interface ErrorCodeRegistry extends Record<(typeof THEMES_ERROR_CODES)[number], true> {}
}
