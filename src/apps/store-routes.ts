import Router from '@koa/router';
import type { AppRouter } from '../http/context.js';
import { endpoint } from '../http/endpoint.js';
import type { Platform } from '../platform.js';
import { getCatalogApp, listCatalog } from './catalog.js';
import { CatalogQuery } from './schemas.js';

/** /v1/app-store/apps: the public catalog, install and OAuth authorize. */
export function appStoreRoutes(platform: Platform): AppRouter {
  const router: AppRouter = new Router();

  // ── The catalog (public; docs/apps.md, The catalog) ──────────────────────────────────────
  router.get('/', endpoint(platform, { access: 'public', query: CatalogQuery, respond: 'page' }, ({ query }) => listCatalog(platform, query)));

  router.get('/:id', endpoint(platform, { access: 'public' }, ({ params }) => getCatalogApp(platform, params.id!)));
  // ── End of the catalog ───────────────────────────────────────────────────────────────────

  return router;
}
