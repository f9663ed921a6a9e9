import Router from '@koa/router';
import type { AppRouter } from '../http/context.js';
import { endpoint, storeScoped } from '../http/endpoint.js';
import type { Platform } from '../platform.js';
import { requestIssuer } from './issuer.js';
import { createSessionToken } from './session-tokens.js';

/** /v1/app-store/installations: a store's installed apps, uninstall, session tokens. */
export function installationRoutes(platform: Platform): AppRouter {
  const router: AppRouter = new Router();

  // A session token for the merchant's admin to hand to the embedded app (docs/oauth.md, Session tokens).
  router.post(
    '/:id/session-token',
    endpoint(platform, { access: storeScoped(null, { apps: false }) }, async ({ ctx, principal, store, params }) => {
      ctx.set('Cache-Control', 'no-store');
      return createSessionToken(platform, { issuer: requestIssuer(platform, ctx), storeId: store.id, installationId: params.id!, merchant: principal });
    }),
  );

  return router;
}
