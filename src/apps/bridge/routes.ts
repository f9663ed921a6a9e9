import Router from '@koa/router';
import type { AppRouter } from '../../http/context.js';
import { appScoped, endpoint } from '../../http/endpoint.js';
import type { Platform } from '../../platform.js';
import { BridgeFetchBody, bridgeFetch } from './fetch.js';
import { EmbedQuery, getBridgeCapabilities } from './embedding.js';

/** /v1/app-store/bridge: the read-only app bridge (spec 2.4; docs/apps.md, The app bridge). */
export function bridgeRoutes(platform: Platform): AppRouter {
  const router: AppRouter = new Router();
  router.post(
    '/fetch',
    endpoint(platform, { access: appScoped(null), body: BridgeFetchBody }, ({ principal, store, body }) => bridgeFetch(platform, principal, store, body)),
  );
  // The calling app's bridge capabilities in its store (docs/apps.md, Embedded apps).
  router.get(
    '/capabilities',
    endpoint(platform, { access: appScoped(null), query: EmbedQuery }, ({ principal, query }) => getBridgeCapabilities(platform, principal, query)),
  );
  return router;
}
