import type { Middleware } from 'koa';
import { countEvent } from '../counters/index.js';
import type { Platform } from '../platform.js';
import type { AppCustom, AppState, Principal } from './context.js';

/**
 * One structured line per request, and (public API requests: `counted`) its count by status class
 * (`http.requests`, src/counters).
 * Never headers or query strings: they can carry credentials.
 */
export function requestLog(platform: Platform, counted = true): Middleware<AppState, AppCustom> {
  const { log } = platform;
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
        ...callerIds(ctx.state.principal),
      };
      if (ctx.status >= 500) log.error(line);
      else log.info(line);
      if (counted) countEvent(platform, 'http.requests', { class: `${Math.floor(ctx.status / 100)}xx` });
    }
  };
}

/** The caller's id in a log line: `merchant_id`, `app_installation_id` or `customer_id`. */
function callerIds(principal: Principal | undefined): Record<string, string> {
  if (!principal) return {};
  if (principal.kind === 'merchant') return { merchant_id: principal.merchantId };
  if (principal.kind === 'app') return { app_installation_id: principal.installationId };
  return { customer_id: principal.customerId };
}
