import type { AppRouter } from '../../http/context.js';
import { routes, storeScoped } from '../../http/endpoint.js';
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
  const on = routes(platform);

  on.get('/', { access: merchantStore, query: ListInstallationsQuery, respond: 'page' }, ({ store, query }) => listInstallations(platform, store.id, query));

  on.get('/:id', { access: merchantStore }, ({ store, params }) => getInstallation(platform, store.id, params.id));

  on.delete('/:id', { access: merchantStore }, ({ store, params }) => uninstall(platform, store.id, params.id));

  // A session token for the merchant's admin to hand to the embedded app (docs/oauth.md, Session tokens).
  on.post('/:id/session-token', { access: merchantStore }, async ({ ctx, principal, store, params }) => {
    ctx.set('Cache-Control', 'no-store');
    return createSessionToken(platform, { issuer: requestIssuer(platform, ctx), storeId: store.id, installationId: params.id, merchant: principal });
  });

  // The merchant's embedding settings, and what the admin needs to frame the app (docs/apps.md, Embedded apps).
  on.get('/:id/embedding', { access: merchantStore }, ({ store, params }) => getEmbedding(platform, store.id, params.id));
  on.patch('/:id/embedding', { access: merchantStore, body: UpdateEmbeddingBody }, ({ store, params, body }) =>
    updateEmbedding(platform, store.id, params.id, body),
  );
  on.get('/:id/embed', { access: merchantStore, query: EmbedQuery }, async ({ ctx, principal, store, params, query }) => {
    ctx.set('Cache-Control', 'no-store');
    return getEmbed(platform, { issuer: requestIssuer(platform, ctx), store, installationId: params.id, merchant: principal, query });
  });

  // An installation's extension registry: …/:id/extensions and …/:id/functions (docs/extensions.md).
  on.router.use(extensionRoutes(platform).routes());

  return on.router;
}
