import Router, { type RouterContext } from '@koa/router';
import { PlatformError } from '../../errors.js';
import type { AppCustom, AppRouter, AppState, MerchantPrincipal } from '../../http/context.js';
import { endpoint } from '../../http/endpoint.js';
import type { Platform } from '../../platform.js';
import { getCatalogApp, listCatalog } from './service.js';
import { createCatalogReview, deleteCatalogReview, listCatalogReviews, updateCatalogReview, type StoreCheck } from '../ratings/service.js';
import { CatalogQuery } from './schemas.js';
import { CatalogReviewsQuery, CreateCatalogReviewBody, UpdateCatalogReviewBody } from '../ratings/schemas.js';
import { authorize, startInstall } from '../installations/service.js';
import { requestIssuer } from '../oauth/issuer.js';
import { AuthorizeBody, InstallBody } from '../installations/schemas.js';

/** The stores the merchant may act for (owns), as the catalog reviews ask it. */
const storeCheck =
  (platform: Platform, ctx: RouterContext<AppState, AppCustom>, merchant: MerchantPrincipal): StoreCheck =>
  async (storeId) =>
    (await ctx.access.storeAccess(platform, merchant, storeId)) !== null;

/** /v1/app-store/apps: the public catalog, its reviews, install and OAuth authorize. */
export function catalogRoutes(platform: Platform): AppRouter {
  const router: AppRouter = new Router();

  // ── The catalog (public; docs/apps.md, The catalog) ──────────────────────────────────────
  router.get(
    '/',
    endpoint(platform, { access: 'public', query: CatalogQuery, respond: 'page' }, ({ query }) => listCatalog(platform, query)),
  );

  router.get(
    '/:id',
    endpoint(platform, { access: 'public' }, ({ params }) => getCatalogApp(platform, params.id!)),
  );
  // ── End of the catalog ───────────────────────────────────────────────────────────────────

  // --- Catalog reviews (docs/apps.md, Catalog reviews of apps) ---

  router.get(
    '/:id/reviews',
    endpoint(platform, { access: 'public', query: CatalogReviewsQuery, respond: 'page' }, ({ params, query }) =>
      listCatalogReviews(platform, params.id!, query),
    ),
  );

  router.post(
    '/:id/reviews',
    endpoint(platform, { access: 'merchant', body: CreateCatalogReviewBody, idempotent: true, status: 201 }, ({ ctx, merchant, params, body }) =>
      createCatalogReview(platform, merchant.merchantId, storeCheck(platform, ctx, merchant), params.id!, body),
    ),
  );

  router.patch(
    '/:id/reviews/:reviewId',
    endpoint(platform, { access: 'merchant', body: UpdateCatalogReviewBody }, ({ ctx, merchant, params, body }) =>
      updateCatalogReview(platform, storeCheck(platform, ctx, merchant), params.id!, params.reviewId!, body),
    ),
  );

  router.delete(
    '/:id/reviews/:reviewId',
    endpoint(platform, { access: 'merchant', respond: 'empty' }, ({ ctx, merchant, params }) =>
      deleteCatalogReview(platform, storeCheck(platform, ctx, merchant), params.id!, params.reviewId!),
    ),
  );

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
