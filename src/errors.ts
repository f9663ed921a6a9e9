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
  | 'unavailable';

export class PlatformError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    readonly extra: { details?: string[]; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = 'PlatformError';
  }
}

export const notFound = (what: string) => new PlatformError('not_found', 'not_found', `${what} not found`);
