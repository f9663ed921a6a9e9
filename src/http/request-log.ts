import type { Middleware } from 'koa';
import type { Log } from '../log.js';
import type { AppState } from './context.js';

/** One structured line per request. Never headers or query strings: they can carry credentials. */
export function requestLog(log: Log): Middleware<AppState> {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      const line = {
        event: 'http.request',
        request_id: ctx.state.requestId,
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        duration_ms: Math.round(durationMs * 10) / 10,
        ...(ctx.state.auth ? { merchant_id: ctx.state.auth.merchantId } : {}),
      };
      if (ctx.status >= 500) log.error(line);
      else log.info(line);
    }
  };
}
