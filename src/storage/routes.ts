import { z } from 'zod';
import { PlatformError, notFound } from '../errors.js';
import type { AppRouter } from '../http/context.js';
import { routes } from '../http/endpoint.js';
import type { Platform } from '../platform.js';
import { objectStorage } from './select.js';
import { LocalStorage } from './local.js';

const SignedQuery = z.strictObject({ expires: z.string().max(20), signature: z.string().max(128) });

/**
 * `GET /files/:key?expires=&signature=`: objects of the local driver, for whoever holds a
 * signed URL (no session). With the s3 driver, URLs point at the bucket and this is a 404.
 */
export function storageFileRoutes(platform: Platform): AppRouter {
  const on = routes(platform);
  on.get('/files/:key', { access: 'public', query: SignedQuery, respond: 'raw' }, async ({ ctx, query, params }) => {
    const storage = objectStorage(platform);
    if (!(storage instanceof LocalStorage)) throw notFound('File');
    const key = params.key;
    const check = storage.verify(key, query.expires, query.signature);
    if (!check.ok && check.reason === 'expired') throw new PlatformError('not_allowed', 'url_expired', 'This link has expired');
    if (!check.ok) throw new PlatformError('not_allowed', 'invalid_signature', 'This link is not valid');
    const object = await storage.open(key);
    if (!object) throw notFound('File');
    ctx.set('Cache-Control', `private, max-age=${check.remainingSeconds}`);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
    ctx.type = object.contentType;
    ctx.length = object.size;
    ctx.body = object.stream; // streamed: an export of many megabytes is not held in memory
  });
  return on.router;
}
