import Router from '@koa/router';
import type { AppRouter } from '../../http/context.js';
import { endpoint, storeScoped } from '../../http/endpoint.js';
import type { Platform } from '../../platform.js';
import { EmbedQuery, UpdateEmbeddingBody, getEmbed, getEmbedding, updateEmbedding } from '../bridge/embedding.js';
import { getInstallation, listInstallations, uninstall } from './service.js';
import { requestIssuer } from '../oauth/issuer.js';
import { ListInstallationsQuery } from './schemas.js';
import { createSessionToken } from '../session-tokens/service.js';
import { extensionRoutes } from '../extensions/routes.js';

/** Merchants only: a store's apps are the merchant's to see and remove. */
const merchantStore = storeScoped(null, { apps: false });

/** /v1/app-store/installations: a store's installed apps, uninstall, session tokens, and their extension registry. */
export function installationRoutes(platform: Platform): AppRouter {
  const router: AppRouter = new Router();

  router.get(
    '/',
    endpoint(platform, { access: merchantStore, query: ListInstallationsQuery, respond: 'page' }, ({ store, query }) =>
      listInstallations(platform, store.id, query),
    ),
  );

  router.get(
    '/:id',
    endpoint(platform, { access: merchantStore }, ({ store, params }) => getInstallation(platform, store.id, params.id)),
  );

  router.delete(
    '/:id',
    endpoint(platform, { access: merchantStore }, ({ store, params }) => uninstall(platform, store.id, params.id)),
  );

  // A session token for the merchant's admin to hand to the embedded app (docs/oauth.md, Session tokens).
  router.post(
    '/:id/session-token',
    endpoint(platform, { access: merchantStore }, async ({ ctx, principal, store, params }) => {
      ctx.set('Cache-Control', 'no-store');
      return createSessionToken(platform, { issuer: requestIssuer(platform, ctx), storeId: store.id, installationId: params.id, merchant: principal });
    }),
  );

  // The merchant's embedding settings, and what the admin needs to frame the app (docs/apps.md, Embedded apps).
  router.get(
    '/:id/embedding',
    endpoint(platform, { access: merchantStore }, ({ store, params }) => getEmbedding(platform, store.id, params.id)),
  );
  router.patch(
    '/:id/embedding',
    endpoint(platform, { access: merchantStore, body: UpdateEmbeddingBody }, ({ store, params, body }) => updateEmbedding(platform, store.id, params.id, body)),
  );
  router.get(
    '/:id/embed',
    endpoint(platform, { access: merchantStore, query: EmbedQuery }, async ({ ctx, principal, store, params, query }) => {
      ctx.set('Cache-Control', 'no-store');
      return getEmbed(platform, { issuer: requestIssuer(platform, ctx), store, installationId: params.id, merchant: principal, query });
    }),
  );

  // An installation's extension registry: …/:id/extensions and …/:id/functions (docs/extensions.md).
  router.use(extensionRoutes(platform).routes());

  return router;
}
