import Router from '@koa/router';
import type { AppRouter } from '../http/context.js';
import { endpoint } from '../http/endpoint.js';
import type { Platform } from '../platform.js';
import { publishedSigningKeys } from './keys.js';

/** /.well-known: OAuth authorization server metadata (RFC 8414) and the JWKS. */
export function wellKnownRoutes(platform: Platform): AppRouter {
  const router: AppRouter = new Router();

  // --- JWKS (RFC 7517): the public keys that verify session tokens and install links (docs/oauth.md, Signing keys).
  // A JWK Set, not the platform envelope: what every JOSE library's remote key set fetches. Five minutes of caching;
  // a rotated-out key stays listed for a day, and a client shown an unknown kid fetches again.
  router.get(
    '/jwks.json',
    endpoint(platform, { access: 'public', respond: 'raw' }, async ({ ctx }) => {
      const keys = await publishedSigningKeys(platform);
      ctx.set('Cache-Control', 'public, max-age=300');
      ctx.body = { keys };
    }),
  );
  // --- end JWKS

  return router;
}
