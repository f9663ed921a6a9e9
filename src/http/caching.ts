import type { RouterContext } from '@koa/router';
import { sha256 } from '../digest.js';
import type { AppCustom, AppState } from './context.js';

/** How long a shared cache or browser may reuse a public read without asking again. */
export const PUBLIC_MAX_AGE_SECONDS = 30;

/**
 * Answer a public read with `Cache-Control: public, max-age=30` and a weak ETag over the body;
 * a request whose `If-None-Match` names it gets 304 with no body. Only for reads that are the
 * same for every caller (never a cart): endpoint()'s `cache: 'public'`.
 */
export function respondCacheable(ctx: RouterContext<AppState, AppCustom>, body: unknown): void {
  const json = JSON.stringify(body);
  ctx.status = 200;
  ctx.type = 'application/json';
  ctx.set('Cache-Control', `public, max-age=${PUBLIC_MAX_AGE_SECONDS}`);
  const etag = `W/"${sha256(json, 'base64url').slice(0, 27)}"`;
  ctx.set('ETag', etag);
  if (matchesNoneMatch(ctx.get('If-None-Match'), etag)) {
    ctx.status = 304;
    ctx.body = null;
    return;
  }
  ctx.body = json;
}

/**
 * RFC 9110 13.1.2: weak comparison against each tag of `If-None-Match` (or `*`). Koa's
 * `ctx.fresh` also gives up whenever the request says `Cache-Control: no-cache`, which fetch
 * implementations send with every conditional request; an origin server still validates.
 */
export function matchesNoneMatch(header: string, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => opaque(tag) === opaque(etag));
}
