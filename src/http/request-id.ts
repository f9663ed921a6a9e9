import { randomBytes } from 'node:crypto';
import type { Middleware } from 'koa';
import type { AppCustom, AppState } from './context.js';

const SANE = /^[A-Za-z0-9._:-]{8,128}$/;

/** Every request gets an id: the caller's if it sent a sane one, otherwise a new one. */
export function requestId(): Middleware<AppState, AppCustom> {
  return async (ctx, next) => {
    const incoming = ctx.get('X-Request-Id');
    ctx.state.requestId = SANE.test(incoming) ? incoming : `req_${randomBytes(12).toString('hex')}`;
    ctx.set('X-Request-Id', ctx.state.requestId);
    await next();
  };
}
