import { isLocalEnv } from '../config.js';
import type { AppRouter } from '../http/context.js';
import { routes, storeScoped } from '../http/endpoint.js';
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
  const on = routes(platform);

  on.get('/', { access: 'public', query: CatalogQuery, respond: 'page' }, ({ query }) => listCatalog(platform, query));

  // A theme author's upload (spec 4.6): the merchant is resolved before anything is read or written.
  on.post(
    '/packages/upload',
    { access: 'merchant', body: UploadBody, idempotent: true, respond: 'raw', bodyLimitBytes: UPLOAD_BODY_LIMIT },
    async ({ ctx, merchant, body }) => {
      const uploaded = await uploadPackage(platform, merchant, ctx.get('X-Store-Id') || undefined, body);
      ctx.status = uploaded.created ? 201 : 200;
      ctx.body = { data: uploaded.result };
    },
  );

  // A store's installed themes (before /:slug routes: "installed" is never a slug's page).
  on.get('/installed', { access: storeScoped('read_themes'), query: PageQuery.strict(), respond: 'page' }, ({ store, query }) =>
    listStoreThemes(platform, store, query),
  );
  on.post('/installed/:id/publish', { access: storeScoped('write_themes', { apps: false }) }, ({ store, params }) =>
    publishStoreTheme(platform, store, params.id),
  );

  addEditorRoutes(platform, on);

  on.get('/:slug/schema', { access: 'public' }, ({ params }) => themeSchema(platform, params.slug, null));

  on.post('/:slug/install', { access: { storeFrom: 'body' }, body: InstallBody, idempotent: true, status: 201 }, ({ merchant, store, params, body }) =>
    installTheme(platform, merchant, store, params.slug, body.publish),
  );

  // Purchases of paid themes (docs/themes.md, Purchases): the platform's provider order, its signed payment, the sandbox's checkout.
  on.post(
    '/:slug/purchase',
    { access: { storeFrom: 'body' }, body: PurchaseBody, idempotent: true, respond: 'raw' },
    async ({ ctx, merchant, store, params }) => {
      const made = await createPurchase(platform, merchant, store, params.slug);
      ctx.status = made.created ? 201 : 200;
      ctx.body = { data: { purchase: made.purchase } };
    },
  );
  on.post('/:slug/purchase/verify', { access: { storeFrom: 'body' }, body: VerifyPurchaseBody }, async ({ store, params, body }) => ({
    purchase: await verifyPurchase(platform, store, params.slug, body),
  }));
  // The sandbox's checkout signs a payment nobody made: elsewhere than development and test it would
  // unlock paid themes for free, so there it is not a route at all (404 route_not_found).
  if (isLocalEnv(platform.config)) {
    on.post('/:slug/purchase/simulate', { access: { storeFrom: 'body' }, body: SimulatePurchaseBody }, ({ store, params, body }) =>
      simulatePurchasePayment(platform, store, params.slug, body.purchase_id),
    );
  }

  return on.router;
}
