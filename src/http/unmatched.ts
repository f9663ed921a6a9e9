import type { Middleware } from 'koa';
import { PlatformError } from '../errors.js';
import type { AppCustom, AppState } from './context.js';

/**
 * Runs after the routers: an unmatched path (404) and a known path with a wrong method
 * (405 or 501 from allowedMethods, which has already set `Allow`) become error envelopes.
 */
export const unmatched: Middleware<AppState, AppCustom> = async (ctx, next) => {
  await next();
  if (ctx.body !== undefined && ctx.body !== null) return;
  if (ctx.status === 404) throw new PlatformError('not_found', 'route_not_found', `No route for ${ctx.method} ${ctx.path}`);
  if (ctx.status === 405 || ctx.status === 501) {
    throw new PlatformError('method_not_allowed', 'method_not_allowed', `${ctx.path} does not accept ${ctx.method}`);
  }
};
