import Router from '@koa/router';
import type { AppRouter } from '../http/context.js';
import type { Platform } from '../platform.js';

/** /v1/operations/app-reviews: operators review submitted app versions. */
export function appReviewRoutes(platform: Platform): AppRouter {
  const router: AppRouter = new Router();
  void platform;
  return router;
}
