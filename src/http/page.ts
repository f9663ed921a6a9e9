import type { Markup } from '../html.js';
import type { AppContext } from './context.js';

/**
 * The headers of every answer of the platform's pages (docs/console.md): never cached, never
 * framed (`frame-ancestors 'none'` and `X-Frame-Options: DENY`: clickjacking), forms posted only
 * to this site or a client's https/http redirect, no referrer beyond the origin. A page that has a
 * caching contract of its own (the shop's theme pages) replaces `Cache-Control` after this.
 */
export function setPageHeaders(ctx: AppContext, policy?: FramingPolicy): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Content-Security-Policy', policy ? framingCsp(policy) : "frame-ancestors 'none'; form-action 'self' https: http:");
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Referrer-Policy', 'same-origin');
}

/**
 * A page that frames another document (an embedded app, a preview) is held to a strict policy:
 * script only from this site (src/http/ui/scripts.ts: no inline script, no eval), fetches only to
 * this site, frames only from the origins it names, no plugins, no `<base>`; styles inline (the
 * pages' one stylesheet) and images from anywhere (media may be on object storage). docs/pages.md,
 * "Pages that frame".
 */
export type FramingPolicy = { frames: readonly string[] };

const framingCsp = (policy: FramingPolicy): string =>
  [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https: http:",
    "connect-src 'self'",
    `frame-src ${policy.frames.length ? policy.frames.join(' ') : "'none'"}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self' https: http:",
  ].join('; ');

/** Answer a whole page (a document the `html` tag built) with the pages' headers. */
export function sendPage(ctx: AppContext, status: number, document: Markup, policy?: FramingPolicy): void {
  setPageHeaders(ctx, policy);
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
