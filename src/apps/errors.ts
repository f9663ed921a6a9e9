/**
 * The apps domain's public error codes, beside the core's (src/errors.ts): added to the
 * registry there, so a PlatformError of this domain takes only a code listed here or in the core.
 */
export const APPS_ERROR_CODES = [
  'app_busy',
  'app_handle_taken',
  'app_not_embedded',
  'app_webhooks_not_configured',
  'bridge_method_not_allowed',
  'capability_disabled',
  'checkout_functions_busy',
  'developer_profile_not_found',
  'developer_profile_required',
  'embed_url_refused',
  'extension_not_found',
  'idempotency_key_required',
  'installation_busy',
  'invalid_bridge_path',
  'invalid_manifest',
  'invalid_redirect_uri',
  'invalid_scope',
  'metadata_too_large',
  'reply_exists',
  'reply_not_found',
  'review_busy',
  'review_exists',
  'review_not_eligible',
  'redirect_refused',
  'registration_revoked',
  'registration_version_conflict',
  'review_own_app',
  'version_not_in_review',
  'version_not_latest',
] as const;

declare module '../errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the registry is filled by declaration merging
  interface ErrorCodeRegistry extends Record<(typeof APPS_ERROR_CODES)[number], true> {}
}
