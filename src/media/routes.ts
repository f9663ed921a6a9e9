import Router from '@koa/router';
import type { AppState } from '../http/context.js';
import type { Platform } from '../platform.js';
import { storageFileRoutes } from '../storage/index.js';

/** /v1/media: signed file URLs of the local storage driver (no session). */
export function mediaRoutes(platform: Platform): Router<AppState> {
  const router = new Router<AppState>();
  const files = storageFileRoutes(platform);
  router.use(files.routes(), files.allowedMethods());
  return router;
}
