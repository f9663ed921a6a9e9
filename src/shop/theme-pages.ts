import { sha256 } from '../digest.js';
import { PlatformError } from '../errors.js';
import { matchesNoneMatch, PUBLIC_MAX_AGE_SECONDS } from '../http/caching.js';
import { LOCALE_PATTERN, renderPage, type PageRequest } from '../rendering/index.js';
import type { ShopPage } from './context.js';

/**
 * A page of the store's live theme (docs/shop.md, Paths). A page for a browser with neither a cart
 * nor a session is the same for everyone: `Cache-Control: public, max-age=30`, a weak ETag over
 * its HTML and 304 on `If-None-Match`; with either, it is this browser's (`private, no-store`). A
 * page a section failed in is `no-store`. `Vary: Cookie` either way, so a shared cache never
 * gives one browser's page to another. These caching headers replace the page list's `no-store`;
 * its others (never framed) stay. A store with no live theme answers 503, `Retry-After: 300`.
 */
export async function themePage(p: ShopPage, request: Omit<PageRequest, 'cartToken' | 'csrfToken'>): Promise<void> {
  const { platform, ctx, viewer: shop } = p;
  const theme = shop.theme;
  ctx.set('Vary', 'Cookie');
  if (!theme) throw new PlatformError('unavailable', 'no_live_theme', 'This store is getting ready and will open soon.', { retryAfterSeconds: 300 });
  ctx.type = 'text/html; charset=utf-8';
  const query = ctx.query.locale;
  const locale = typeof query === 'string' && query.length <= 35 && LOCALE_PATTERN.test(query) ? query : undefined;
  const rendered = await renderPage(platform, shop.store, theme, {
    ...request,
    ...(shop.cartToken ? { cartToken: shop.cartToken } : {}),
    ...(shop.csrf ? { csrfToken: shop.csrf } : {}),
    ...(locale ? { locale } : {}),
    ...(shop.customer ? { signedIn: true } : {}),
  });
  ctx.status = rendered.status;
  // A page a section failed in is kept by no cache: it would stand for the store's page until it expired.
  if (shop.csrf !== null || !rendered.complete) {
    ctx.set('Cache-Control', shop.csrf !== null ? 'private, no-store' : 'no-store');
    ctx.body = rendered.html;
    return;
  }
  ctx.set('Cache-Control', `public, max-age=${PUBLIC_MAX_AGE_SECONDS}`);
  const etag = `W/"${sha256(rendered.html, 'base64url').slice(0, 27)}"`;
  ctx.set('ETag', etag);
  if (rendered.status === 200 && matchesNoneMatch(ctx.get('If-None-Match'), etag)) {
    ctx.status = 304;
    ctx.body = null;
    return;
  }
  ctx.body = rendered.html;
}
