/**
 * Errors say what happened, not which status: the HTTP error middleware is the one place
 * that maps a kind to a status code.
 */
export type ErrorKind =
  | 'invalid_data'
  | 'unauthenticated'
  | 'not_allowed'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'payment_required'
  | 'unavailable';

/** The core's error codes (the http toolkit's, and the generic ones every domain uses). */
export const CORE_ERROR_CODES = [
  'bad_request',
  'body_too_deep',
  'browser_session_required',
  'csrf_token_invalid',
  'database_unavailable',
  'idempotency_key_reused',
  'idempotency_request_in_progress',
  'insufficient_scope',
  'internal_error',
  'internal_secret_not_configured',
  'invalid_form',
  'invalid_idempotency_key',
  'invalid_input',
  'invalid_internal_secret',
  'invalid_json',
  'invalid_multipart',
  'invalid_store_id',
  'method_not_allowed',
  'not_found',
  'operator_required',
  'payload_too_large',
  'rate_limited',
  'route_not_found',
  'store_forbidden',
  'store_required',
  'unauthenticated',
  'unsupported_media_type',
] as const;
type CoreErrorCode = (typeof CORE_ERROR_CODES)[number];

/**
 * One problem with an operation's input, as data: `path` is relative to the input the
 * operation was given (`line_items.0.variant_id`), so the same error serves every edge. The
 * REST edge prefixes where that input came from (`body.line_items.0.variant_id: …`); GraphQL
 * (later) turns issues into user errors.
 */
export type InputIssue = { path: string; message: string };

/**
 * The public error codes (docs/conventions.md, Errors; every one is documented, which a test
 * checks). The core's own are listed here; each domain lists its own, `as const`, in its
 * `errors.ts` and adds them to this registry by declaration merging, so a `PlatformError` takes
 * only a declared code: a typo is a type error, never a new public code.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the domains' errors.ts
export interface ErrorCodeRegistry extends Record<CoreErrorCode, true> {}
export type ErrorCode = Extract<keyof ErrorCodeRegistry, string>;

export class PlatformError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: ErrorCode,
    message: string,
    readonly extra: { details?: string[]; issues?: readonly InputIssue[]; retryAfterSeconds?: number; headers?: Readonly<Record<string, string>> } = {},
  ) {
    super(message);
    this.name = 'PlatformError';
  }
}

/** The input breaks a rule a schema cannot express: 400 `invalid_input` (or another code) with the issues. */
export function invalidInput(issues: readonly InputIssue[], code: ErrorCode = 'invalid_input', message = 'The request has invalid input'): PlatformError {
  return new PlatformError('invalid_data', code, message, { issues });
}

/** `path: message` strings of an error's issues, each path under `source` (`body`, `query`). */
export function issueDetails(issues: readonly InputIssue[], source: string | null): string[] {
  return issues.map((i) => `${source ? (i.path ? `${source}.${i.path}` : source) : i.path}: ${i.message}`);
}

export const notFound = (what: string) => new PlatformError('not_found', 'not_found', `${what} not found`);
