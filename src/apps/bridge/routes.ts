import type { AppRouter } from '../../http/context.js';
import { appScoped, routes } from '../../http/endpoint.js';
import type { Platform } from '../../platform.js';
import { BridgeFetchBody, bridgeFetch } from './fetch.js';
import { EmbedQuery, getBridgeCapabilities } from './embedding.js';

/** /v1/app-store/bridge: the read-only app bridge (spec 2.4; docs/apps.md, The app bridge). */
export function bridgeRoutes(platform: Platform): AppRouter {
  const on = routes(platform);
  on.post('/fetch', { access: appScoped(null), body: BridgeFetchBody }, ({ principal, store, body }) => bridgeFetch(platform, principal, store, body));
  // The calling app's bridge capabilities in its store (docs/apps.md, Embedded apps).
  on.get('/capabilities', { access: appScoped(null), query: EmbedQuery }, ({ principal, query }) => getBridgeCapabilities(platform, principal, query));
  return on.router;
}
