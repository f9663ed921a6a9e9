import Router from '@koa/router';
import { isLocalEnv } from '../config.js';
import { PlatformError } from '../errors.js';
import type { AppContext, AppRouter, MerchantPrincipal } from '../http/context.js';
import { endpoint, storeScoped } from '../http/endpoint.js';
import { PageQuery } from '../pagination.js';
import type { Platform } from '../platform.js';
import { installTheme, listCatalog, listStoreThemes, publishStoreTheme, themeSchema } from './installs/service.js';
import { addEditorRoutes } from './editor/routes.js';
import { uploadPackage } from './packages/upload.js';
import { PurchaseBody, SimulatePurchaseBody, VerifyPurchaseBody, createPurchase, simulatePurchasePayment, verifyPurchase } from './purchases/service.js';
import { MAX_BUNDLE_BYTES } from './bundle/schema.js';
import { CatalogQuery, InstallBody, UploadBody } from './schemas.js';

/** An upload carries a whole bundle (at most MAX_BUNDLE_BYTES as JSON) and its envelope. */
const UPLOAD_BODY_LIMIT = MAX_BUNDLE_BYTES + 64 * 1024;

/** /v1/themes: the catalog, a theme's schema, upload, install, a store's installed themes, the editor of an installed theme. */
export function themeRoutes(platform: Platform): AppRouter {
  const router: AppRouter = new Router();

  router.get(
    '/',
    endpoint(platform, { access: 'public', query: CatalogQuery, respond: 'page' }, ({ query }) => listCatalog(platform, query)),
  );

  // A theme author's upload (spec 4.6): the merchant is resolved before anything is read or written.
  router.post(
    '/packages/upload',
    endpoint(
      platform,
      { access: 'merchant', body: UploadBody, idempotent: true, respond: 'raw', bodyLimitBytes: UPLOAD_BODY_LIMIT },
      async ({ ctx, merchant, body }) => {
        const uploaded = await uploadPackage(platform, merchant, ctx.get('X-Store-Id') || undefined, body);
        ctx.status = uploaded.created ? 201 : 200;
        ctx.body = { data: uploaded.result };
      },
    ),
  );

  // A store's installed themes (before /:slug routes: "installed" is never a slug's page).
  router.get(
    '/installed',
    endpoint(platform, { access: storeScoped('read_themes'), query: PageQuery.strict(), respond: 'page' }, ({ store, query }) =>
      listStoreThemes(platform, store, query),
    ),
  );
  router.post(
    '/installed/:id/publish',
    endpoint(platform, { access: storeScoped('write_themes', { apps: false }) }, ({ store, params }) => publishStoreTheme(platform, store, params.id!)),
  );

  addEditorRoutes(platform, router);

  router.get(
    '/:slug/schema',
    endpoint(platform, { access: 'public' }, ({ params }) => themeSchema(platform, params.slug!, null)),
  );

  router.post(
    '/:slug/install',
    endpoint(platform, { access: 'merchant', body: InstallBody, idempotent: true, status: 201 }, async ({ ctx, merchant, params, body }) => {
      const store = await ctx.access.storeAccess(platform, merchant, body.store_id);
      if (!store) throw new PlatformError('not_allowed', 'store_forbidden', 'You do not have access to this store');
      return installTheme(platform, merchant, store, params.slug!, body.publish);
    }),
  );

  // Purchases of paid themes (docs/themes.md, Purchases): the platform's provider order, its signed payment, the sandbox's checkout.
  const purchaseStore = async (ctx: AppContext, merchant: MerchantPrincipal, storeId: string) => {
    const store = await ctx.access.storeAccess(platform, merchant, storeId);
    if (!store) throw new PlatformError('not_allowed', 'store_forbidden', 'You do not have access to this store');
    return store;
  };
  router.post(
    '/:slug/purchase',
    endpoint(platform, { access: 'merchant', body: PurchaseBody, idempotent: true, respond: 'raw' }, async ({ ctx, merchant, params, body }) => {
      const made = await createPurchase(platform, merchant, await purchaseStore(ctx, merchant, body.store_id), params.slug!);
      ctx.status = made.created ? 201 : 200;
      ctx.body = { data: { purchase: made.purchase } };
    }),
  );
  router.post(
    '/:slug/purchase/verify',
    endpoint(platform, { access: 'merchant', body: VerifyPurchaseBody }, async ({ ctx, merchant, params, body }) => ({
      purchase: await verifyPurchase(platform, await purchaseStore(ctx, merchant, body.store_id), params.slug!, body),
    })),
  );
  // The sandbox's checkout signs a payment nobody made: elsewhere than development and test it would
  // unlock paid themes for free, so there it is not a route at all (404 route_not_found).
  if (isLocalEnv(platform.config)) {
    router.post(
      '/:slug/purchase/simulate',
      endpoint(platform, { access: 'merchant', body: SimulatePurchaseBody }, async ({ ctx, merchant, params, body }) =>
        simulatePurchasePayment(platform, await purchaseStore(ctx, merchant, body.store_id), params.slug!, body.purchase_id),
      ),
    );
  }

  return router;
}
