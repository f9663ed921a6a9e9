import type { Middleware } from 'koa';
import { PlatformError, type ErrorKind } from '../errors.js';
import type { Log } from '../log.js';
import type { AppState } from './context.js';

const STATUS: Record<ErrorKind, number> = {
  invalid_data: 400,
  unauthenticated: 401,
  not_allowed: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  unavailable: 503,
};

/**
 * The first middleware: every error becomes the standard envelope. Only PlatformErrors and
 * the body parser's client errors say what went wrong; anything else is logged with its
 * stack and answered with a generic 500 that carries the request id.
 */
export function errorEnvelope(log: Log): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (raw) {
      const err = toPlatformError(raw);
      if (err) {
        ctx.status = STATUS[err.kind];
        if (err.extra.retryAfterSeconds !== undefined) ctx.set('Retry-After', String(err.extra.retryAfterSeconds));
        if (err.extra.allow) ctx.set('Allow', err.extra.allow.join(', '));
        if (err.kind === 'unauthenticated') ctx.set('WWW-Authenticate', 'Bearer');
        ctx.body = {
          error: {
            code: err.code,
            message: err.message,
            ...(err.extra.details ? { details: err.extra.details } : {}),
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

/** Client errors thrown by koa or a library (with a 4xx status) get our codes. */
function toPlatformError(raw: unknown): PlatformError | null {
  if (raw instanceof PlatformError) return raw;
  const e = raw as { status?: number; statusCode?: number; expose?: boolean; message?: string };
  const status = e?.status ?? e?.statusCode;
  if (typeof status !== 'number' || status < 400 || status >= 500) return null;
  switch (status) {
    case 413:
      return new PlatformError('payload_too_large', 'payload_too_large', 'The request body is too large');
    case 415:
      return new PlatformError('unsupported_media_type', 'unsupported_media_type', 'The request body must be application/json');
    default:
      return new PlatformError('invalid_data', 'bad_request', e.expose && e.message ? e.message : 'The request could not be read');
  }
}
