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

/**
 * One problem with an operation's input, as data: `path` is relative to the input the
 * operation was given (`line_items.0.variant_id`), so the same error serves every edge. The
 * REST edge prefixes where that input came from (`body.line_items.0.variant_id: …`); GraphQL
 * (later) turns issues into user errors.
 */
export type InputIssue = { path: string; message: string };

export class PlatformError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    readonly extra: { details?: string[]; issues?: readonly InputIssue[]; retryAfterSeconds?: number; headers?: Readonly<Record<string, string>> } = {},
  ) {
    super(message);
    this.name = 'PlatformError';
  }
}

/** The input breaks a rule a schema cannot express: 400 `invalid_input` (or another code) with the issues. */
export function invalidInput(issues: readonly InputIssue[], code = 'invalid_input', message = 'The request has invalid input'): PlatformError {
  return new PlatformError('invalid_data', code, message, { issues });
}

/** `path: message` strings of an error's issues, each path under `source` (`body`, `query`). */
export function issueDetails(issues: readonly InputIssue[], source: string | null): string[] {
  return issues.map((i) => `${source ? (i.path ? `${source}.${i.path}` : source) : i.path}: ${i.message}`);
}

export const notFound = (what: string) => new PlatformError('not_found', 'not_found', `${what} not found`);
