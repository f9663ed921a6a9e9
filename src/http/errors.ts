import type { Middleware } from 'koa';
import { databaseUnavailable, isDatabaseUnreachable } from '../db.js';
import { PlatformError, issueDetails, type ErrorKind } from '../errors.js';
import type { Log } from '../log.js';
import type { AppCustom, AppState } from './context.js';

/** The HTTP status of each kind of error. */
export const STATUS: Record<ErrorKind, number> = {
  invalid_data: 400,
  unauthenticated: 401,
  not_allowed: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  payment_required: 402,
  unavailable: 503,
};

/**
 * Every error becomes the standard envelope. Only PlatformErrors (and client errors from
 * libraries) say what went wrong; anything else is logged with its stack and answered with
 * a generic 500 that carries the request id.
 */
export function errorEnvelope(log: Log): Middleware<AppState, AppCustom> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (raw) {
      const err = toPlatformError(raw);
      if (err) {
        ctx.status = STATUS[err.kind];
        if (err.extra.retryAfterSeconds !== undefined) ctx.set('Retry-After', String(err.extra.retryAfterSeconds));
        if (err.kind === 'unauthenticated') ctx.set('WWW-Authenticate', 'Bearer realm="emporium"');
        // An error may name its own headers (RFC 6750 challenges: error="invalid_token", "insufficient_scope").
        for (const [name, value] of Object.entries(err.extra.headers ?? {})) ctx.set(name, value);
        // Issues are relative to an operation's input; on this edge that input is the body.
        const details = err.extra.details ?? (err.extra.issues ? issueDetails(err.extra.issues, 'body') : undefined);
        ctx.body = {
          error: {
            code: err.code,
            message: err.message,
            ...(details ? { details } : {}),
            request_id: ctx.state.requestId,
          },
        };
        return;
      }
      log.error({ event: 'http.unhandled_error', request_id: ctx.state.requestId, err: raw }, 'unhandled error');
      ctx.status = 500;
      ctx.body = { error: { code: 'internal_error', message: 'Something went wrong on our side', request_id: ctx.state.requestId } };
    }
  };
}

/**
 * A client error thrown by koa or a library (a 4xx status) is a 400, and a database the driver
 * could not reach is 503 `database_unavailable` (docs/operations.md, While the database is down);
 * anything else is ours.
 */
export function toPlatformError(raw: unknown): PlatformError | null {
  if (raw instanceof PlatformError) return raw;
  if (isDatabaseUnreachable(raw)) return databaseUnavailable();
  const e = raw as { status?: number; expose?: boolean; message?: string } | null;
  const status = e?.status;
  if (typeof status !== 'number' || status < 400 || status >= 500) return null;
  return new PlatformError('invalid_data', 'bad_request', e?.expose && e.message ? e.message : 'The request could not be read');
}
