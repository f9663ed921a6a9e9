import Router from '@koa/router';
import { PlatformError } from '../errors.js';
import type { AppRouter } from '../http/context.js';
import { endpoint } from '../http/endpoint.js';
import type { Platform } from '../platform.js';
import { getCatalogApp, listCatalog } from './catalog.js';
import { CatalogQuery } from './schemas.js';
import { authorize, startInstall } from './installations.js';
import { requestIssuer } from './issuer.js';
import { AuthorizeBody, InstallBody } from './oauth-schemas.js';

/** /v1/app-store/apps: the public catalog, install and OAuth authorize. */
export function appStoreRoutes(platform: Platform): AppRouter {
  const router: AppRouter = new Router();

  // ── The catalog (public; docs/apps.md, The catalog) ──────────────────────────────────────
  router.get('/', endpoint(platform, { access: 'public', query: CatalogQuery, respond: 'page' }, ({ query }) => listCatalog(platform, query)));

  router.get('/:id', endpoint(platform, { access: 'public' }, ({ params }) => getCatalogApp(platform, params.id!)));
  // ── End of the catalog ───────────────────────────────────────────────────────────────────

  // --- Install and authorize (docs/oauth.md) ---

  // Where the merchant goes to install: the app's app_url with the store and a signed install token.
  router.post(
    '/:id/install',
    endpoint(platform, { access: 'merchant', body: InstallBody }, async ({ ctx, merchant, params, body }) => {
      const store = await ctx.access.storeAccess(platform, merchant, body.store_id);
      if (!store) throw new PlatformError('not_allowed', 'store_forbidden', 'You do not have access to this store');
      ctx.set('Cache-Control', 'no-store');
      return startInstall(platform, requestIssuer(platform, ctx), params.id!, { id: store.id, subdomain: store.subdomain });
    }),
  );

  // The merchant's consent (spec 2.1): the store in the body must be one the merchant owns.
  router.post(
    '/:id/oauth/authorize',
    endpoint(platform, { access: 'merchant', body: AuthorizeBody }, async ({ ctx, merchant, params, body }) => {
      const store = await ctx.access.storeAccess(platform, merchant, body.store_id);
      if (!store) throw new PlatformError('not_allowed', 'store_forbidden', 'You do not have access to this store');
      ctx.set('Cache-Control', 'no-store');
      return authorize(platform, merchant.merchantId, store.id, params.id!, body);
    }),
  );

  return router;
}
