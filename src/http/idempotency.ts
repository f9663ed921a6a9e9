import type { Middleware } from 'koa';
import { PlatformError } from '../errors.js';
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey } from '../idempotency/index.js';
import type { Platform } from '../platform.js';
import type { AppState } from './context.js';

const KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * `Idempotency-Key` support for a write route (after authentication): a retry with the same
 * key and body gets the first response again (with `Idempotent-Replayed: true`) and changes
 * nothing. Only successful responses are kept; a failed request frees its key.
 */
export function idempotent(platform: Platform): Middleware<AppState> {
  return async (ctx, next) => {
    const key = ctx.get('Idempotency-Key');
    if (!key) return next();
    if (!KEY.test(key)) {
      throw new PlatformError('invalid_data', 'invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 visible ASCII characters');
    }
    // Scoped to the caller and, on store-scoped routes, the store: the same key under another
    // X-Store-Id is another request.
    const caller = `${ctx.state.auth?.merchantId ?? `ip:${ctx.ip}`}|${ctx.state.store?.id ?? '-'}`;
    const route = `${ctx.method} ${ctx.path}`;
    const claim = await claimIdempotencyKey(platform, { caller, route, key, body: ctx.request.body });
    if (claim.kind === 'replay') {
      ctx.status = claim.status;
      ctx.body = claim.body;
      ctx.set('Idempotent-Replayed', 'true');
      return;
    }
    try {
      await next();
    } catch (err) {
      await releaseIdempotencyKey(platform, claim.recordId);
      throw err;
    }
    if (ctx.status >= 200 && ctx.status < 300) await completeIdempotencyKey(platform, claim.recordId, ctx.status, ctx.body);
    else await releaseIdempotencyKey(platform, claim.recordId);
  };
}
