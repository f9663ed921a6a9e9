import { z } from 'zod';
import { notFound, PlatformError } from '../errors.js';
import type { AppRouter } from '../http/context.js';
import { PUBLIC_MAX_AGE_SECONDS } from '../http/caching.js';
import { routes } from '../http/endpoint.js';
import type { Platform } from '../platform.js';
import { CART_TOKEN_HEADER, storefrontStore } from '../storefront/index.js';
import { servableThemeBundle, liveRenderableTheme, previewRenderableTheme, TEMPLATE_KEYS, type TemplateKey } from '../themes/index.js';
import { LOCALE_PATTERN } from './locale.js';
import { renderPage } from './liquid/render.js';

const access = 'public' as const;
const PageParams = z.object({ subdomain: z.string().max(255), template: z.string().max(40), handle: z.string().min(1).max(255).optional() });
const PageQuery = z.strictObject({
  locale: z.string().regex(LOCALE_PATTERN, 'must be a locale code like "en" or "es-MX"').max(35).optional(),
  preview_token: z.string().min(1).max(200).optional(),
});
const AssetParams = z.object({ subdomain: z.string().max(255), version: z.string().regex(/^[0-9a-f]{24}$/), path: z.string().min(1).max(255) });

const isTemplateKey = (key: string): key is TemplateKey => (TEMPLATE_KEYS as readonly string[]).includes(key);

/** /v1/storefront/:subdomain/pages: a store's pages rendered from its live theme (or a preview) as HTML (docs/rendering.md). */
export function renderedPageRoutes(platform: Platform): AppRouter {
  const on = routes(platform);
  // A template's page, and (for a product, a collection, a page) the one its handle names.
  for (const path of ['/:template', '/:template/:handle'] as const) {
    on.get(path, { access, params: PageParams, query: PageQuery, respond: 'raw' }, async ({ ctx, params, query }) => {
      if (!isTemplateKey(params.template)) throw notFound('Template');
      const store = await storefrontStore(platform, params.subdomain);
      const preview = query.preview_token !== undefined;
      const theme = preview
        ? await previewRenderableTheme(platform, store.id, query.preview_token!)
        : await liveRenderableTheme(platform, store.id, store.live_theme_id);
      if (!theme)
        throw preview
          ? new PlatformError('not_found', 'preview_not_found', 'No preview of this store has that token')
          : new PlatformError('not_found', 'no_live_theme', 'This store has no live theme');
      const cartToken = ctx.get(CART_TOKEN_HEADER) || undefined;
      const rendered = await renderPage(platform, store, theme, { template: params.template, handle: params.handle, cartToken, locale: query.locale });
      ctx.status = rendered.status;
      ctx.type = 'text/html; charset=utf-8';
      // A preview or a page showing a shopper's cart is private; a page a section failed in is kept by no cache (it would
      // stand for the store's page); other pages are the same for everyone.
      const cache = preview || theme.preview || cartToken ? 'private, no-store' : rendered.complete ? `public, max-age=${PUBLIC_MAX_AGE_SECONDS}` : 'no-store';
      ctx.set('Cache-Control', cache);
      ctx.set('Vary', CART_TOKEN_HEADER);
      ctx.body = rendered.html;
    });
  }
  return on.router;
}

/**
 * /v1/storefront/:subdomain/assets/:version/<path>: the inline assets (CSS, JS, SVG; fonts are
 * media) of a theme version installed in the store, live or not (a preview of a theme that is not
 * live links its own), or published in the theme store (the admin's preview of a theme before it is
 * installed: `servableThemeBundle` says which), what `asset_url` points at. The version in the path makes them immutable.
 * Served with `nosniff` and a sandboxing CSP, so an SVG or script opened directly runs nowhere.
 */
export function themeAssetRoutes(platform: Platform): AppRouter {
  const on = routes(platform);
  on.get('/:version/{*path}', { access, params: AssetParams, respond: 'raw' }, async ({ ctx, params }) => {
    const store = await storefrontStore(platform, params.subdomain);
    const bundle = await servableThemeBundle(platform, store.id, params.version);
    const asset = bundle?.renderer.assets.find((a) => a.path === params.path && a.path.startsWith('assets/'));
    if (!asset || asset.content === undefined) throw notFound('Asset');
    ctx.status = 200;
    ctx.type = asset.content_type;
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    ctx.body = asset.content;
  });
  return on.router;
}
