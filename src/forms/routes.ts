import type { AppRouter } from '../http/context.js';
import { routes, storeScoped } from '../http/endpoint.js';
import type { Platform } from '../platform.js';
import { ListSubmissionsQuery } from './schemas.js';
import { listFormSubmissions } from './service.js';

/** /v1/form-submissions: the X-Store-Id store's submissions (or an app's own store's). */
export function formSubmissionRoutes(platform: Platform): AppRouter {
  const on = routes(platform);
  on.get('/', { access: storeScoped('read_form_submissions'), query: ListSubmissionsQuery, respond: 'page' }, ({ store, query }) =>
    listFormSubmissions(platform, store.id, query),
  );
  return on.router;
}
