import Router from '@koa/router';
import type { AppRouter } from '../http/context.js';
import type { Platform } from '../platform.js';

/** /.well-known: OAuth authorization server metadata (RFC 8414) and the JWKS. */
export function wellKnownRoutes(platform: Platform): AppRouter {
  const router: AppRouter = new Router();
  void platform;
  return router;
}
