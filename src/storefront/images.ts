import { mediaIsPublished } from '../catalog/index.js';
import { notFound } from '../errors.js';
import { matchesNoneMatch } from '../http/caching.js';
import type { AppContext } from '../http/context.js';
import { findMediaFile } from '../media/index.js';
import type { Platform } from '../platform.js';
import { storefrontStore } from './reads.js';

/** A year: the longest lifetime caches honour. The URL names one file for good (media never change). */
const IMAGE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * `GET /v1/storefront/:subdomain/media/:media_id/:filename`: a product image, for anyone (docs/storefront.md,
 * Product images). Served only while a published product of that store shows it, and only at its
 * own file name, so each file has one URL. Streamed from storage; 304 for a matching `If-None-Match`.
 * Any other case (unknown store, id, name; another store's media; media no published product
 * shows; a stored object gone) is 404, with no caching headers.
 */
export async function serveProductImage(platform: Platform, ctx: AppContext, params: { subdomain: string; media_id: string; filename: string }): Promise<void> {
  const store = await storefrontStore(platform, params.subdomain);
  const file = await findMediaFile(platform, store.id, params.media_id);
  if (!file || file.media.url_filename !== params.filename || !(await mediaIsPublished(platform, store.id, file.media.id))) throw notFound('Image');
  const etag = `"${file.media.id}"`;
  const cacheHeaders = () => {
    ctx.set('Cache-Control', IMAGE_CACHE_CONTROL);
    ctx.set('ETag', etag);
    ctx.set('X-Content-Type-Options', 'nosniff');
  };
  if (matchesNoneMatch(ctx.get('If-None-Match'), etag)) {
    cacheHeaders();
    ctx.status = 304;
    ctx.body = null;
    return;
  }
  const object = await file.open();
  if (!object) throw notFound('Image');
  cacheHeaders();
  // An image opened on its own runs nothing (an SVG is never accepted; this holds whatever comes).
  ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
  ctx.status = 200;
  ctx.type = file.media.content_type;
  ctx.length = object.size;
  ctx.body = object.stream; // streamed: never held in memory
}
