import Router from '@koa/router';
import type { AppRouter } from '../http/context.js';
import { endpoint, storeScoped } from '../http/endpoint.js';
import type { Platform } from '../platform.js';
import { ListSubmissionsQuery } from './schemas.js';
import { listFormSubmissions } from './service.js';

/** /v1/form-submissions: the X-Store-Id store's submissions (or an app's own store's). */
export function formSubmissionRoutes(platform: Platform): AppRouter {
  const router: AppRouter = new Router();
  router.get(
    '/',
    endpoint(platform, { access: storeScoped('read_form_submissions'), query: ListSubmissionsQuery, respond: 'page' }, ({ store, query }) =>
      listFormSubmissions(platform, store.id, query),
    ),
  );
  return router;
}
