import { createHash } from 'node:crypto';
import type { RouterContext } from '@koa/router';
import type { AppCustom, AppState } from '../http/context.js';

/** How long a shared cache or browser may reuse a public read without asking again. */
export const PUBLIC_MAX_AGE_SECONDS = 30;

/**
 * Answer a public read with `Cache-Control: public, max-age=30` and a weak ETag over the body;
 * a request whose `If-None-Match` names it gets 304 with no body. Only for reads that are the
 * same for every shopper (never a cart).
 */
export function respondCacheable(ctx: RouterContext<AppState, AppCustom>, body: unknown): void {
  const json = JSON.stringify(body);
  ctx.status = 200;
  ctx.type = 'application/json';
  ctx.set('Cache-Control', `public, max-age=${PUBLIC_MAX_AGE_SECONDS}`);
  ctx.etag = `W/"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`;
  if (ctx.fresh) {
    ctx.status = 304;
    ctx.body = null;
    return;
  }
  ctx.body = json;
}
