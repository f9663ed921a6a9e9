import Router from '@koa/router';
import type { AppRouter } from '../http/context.js';
import type { Platform } from '../platform.js';

/** /v1/app-store/developers: partners (developer profile, app submission, manifests, credentials). */
export function developerRoutes(platform: Platform): AppRouter {
  const router: AppRouter = new Router();
  void platform;
  return router;
}
