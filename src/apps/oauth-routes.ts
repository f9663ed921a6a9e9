import Router from '@koa/router';
import type { AppRouter } from '../http/context.js';
import type { Platform } from '../platform.js';

/** /v1/app-store/oauth: the token endpoint (RFC 6749) and token exchange (RFC 8693). */
export function oauthRoutes(platform: Platform): AppRouter {
  const router: AppRouter = new Router();
  void platform;
  return router;
}
