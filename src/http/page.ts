import type { Markup } from '../html.js';
import type { AppContext } from './context.js';

/**
 * The headers of every answer of the platform's pages (docs/console.md): never cached, never
 * framed (`frame-ancestors 'none'` and `X-Frame-Options: DENY`: clickjacking), forms posted only
 * to this site or a client's https/http redirect, no referrer beyond the origin. A page that has a
 * caching contract of its own (the shop's theme pages) replaces `Cache-Control` after this.
 */
export function setPageHeaders(ctx: AppContext): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Content-Security-Policy', "frame-ancestors 'none'; form-action 'self' https: http:");
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Referrer-Policy', 'same-origin');
}

/** Answer a whole page (a document the `html` tag built) with the pages' headers. */
export function sendPage(ctx: AppContext, status: number, document: Markup): void {
  setPageHeaders(ctx);
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = document.html;
}

/** POST-redirect-GET: 303 See Other to `to` (a path of this site), with the pages' headers. */
export function seeOther(ctx: AppContext, to: string): void {
  setPageHeaders(ctx);
  ctx.redirect(to);
  ctx.status = 303;
}
