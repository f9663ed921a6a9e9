import Router from '@koa/router';
import type { AppRouter } from '../http/context.js';
import type { Platform } from '../platform.js';

/** /v1/app-store/installations: a store's installed apps, uninstall, session tokens. */
export function installationRoutes(platform: Platform): AppRouter {
  const router: AppRouter = new Router();
  void platform;
  return router;
}
