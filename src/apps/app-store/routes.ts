import type { RouterContext } from '@koa/router';
import type { AppCustom, AppRouter, AppState, MerchantPrincipal } from '../../http/context.js';
import { routes } from '../../http/endpoint.js';
import type { Platform } from '../../platform.js';
import { getCatalogApp, listCatalog } from './service.js';
import { createAppRating, deleteAppRating, listAppRatings, updateAppRating, type StoreCheck } from '../ratings/service.js';
import { CatalogQuery } from './schemas.js';
import { AppRatingsQuery, CreateAppRatingBody, UpdateAppRatingBody } from '../ratings/schemas.js';
import { authorize, startInstall } from '../installations/service.js';
import { requestIssuer } from '../oauth/issuer.js';
import { AuthorizeBody, InstallBody } from '../installations/schemas.js';

/** The stores the merchant may act for (owns), as the app ratings ask it. */
const storeCheck =
  (platform: Platform, ctx: RouterContext<AppState, AppCustom>, merchant: MerchantPrincipal): StoreCheck =>
  async (storeId) =>
    (await ctx.access.storeAccess(platform, merchant, storeId)) !== null;

/** /v1/app-store/apps: the public catalog, its reviews, install and OAuth authorize. */
export function catalogRoutes(platform: Platform): AppRouter {
  const on = routes(platform);

  // ── The catalog (public; docs/apps.md, The catalog) ──────────────────────────────────────
  on.get('/', { access: 'public', query: CatalogQuery, respond: 'page' }, ({ query }) => listCatalog(platform, query));

  on.get('/:id', { access: 'public' }, ({ params }) => getCatalogApp(platform, params.id));
  // ── End of the catalog ───────────────────────────────────────────────────────────────────

  // --- Catalog reviews (docs/apps.md, Catalog reviews of apps) ---

  on.get('/:id/reviews', { access: 'public', query: AppRatingsQuery, respond: 'page' }, ({ params, query }) => listAppRatings(platform, params.id, query));

  on.post('/:id/reviews', { access: 'merchant', body: CreateAppRatingBody, idempotent: true, status: 201 }, ({ ctx, merchant, params, body }) =>
    createAppRating(platform, merchant.merchantId, storeCheck(platform, ctx, merchant), params.id, body),
  );

  on.patch('/:id/reviews/:reviewId', { access: 'merchant', body: UpdateAppRatingBody }, ({ ctx, merchant, params, body }) =>
    updateAppRating(platform, storeCheck(platform, ctx, merchant), params.id, params.reviewId, body),
  );

  on.delete('/:id/reviews/:reviewId', { access: 'merchant', respond: 'empty' }, ({ ctx, merchant, params }) =>
    deleteAppRating(platform, storeCheck(platform, ctx, merchant), params.id, params.reviewId),
  );

  // --- Install and authorize (docs/oauth.md) ---

  // Where the merchant goes to install: the app's app_url with the store and a signed install token.
  on.post('/:id/install', { access: { storeFrom: 'body' }, body: InstallBody }, async ({ ctx, store, params }) => {
    ctx.set('Cache-Control', 'no-store');
    return startInstall(platform, requestIssuer(platform, ctx), params.id, { id: store.id, subdomain: store.subdomain });
  });

  // The merchant's consent (spec 2.1): the store in the body must be one the merchant owns.
  on.post('/:id/oauth/authorize', { access: { storeFrom: 'body' }, body: AuthorizeBody }, async ({ ctx, merchant, store, params, body }) => {
    ctx.set('Cache-Control', 'no-store');
    return authorize(platform, merchant.merchantId, store.id, params.id, body);
  });

  return on.router;
}
