import Router from '@koa/router';
import type { AppRouter } from '../http/context.js';
import { endpoint, storeScoped } from '../http/endpoint.js';
import type { Platform } from '../platform.js';
import { ListSubmissionsQuery, SubmitFormBody, SubmitFormParams } from './schemas.js';
import { listFormSubmissions, submitForm } from './service.js';

/** Mounted under /v1/storefront: public form submissions, addressed by store subdomain. */
export function storefrontFormRoutes(platform: Platform): AppRouter {
  const router: AppRouter = new Router();
  router.post(
    '/:subdomain/forms/:form',
    endpoint(platform, { access: 'public', params: SubmitFormParams, body: SubmitFormBody, status: 202 }, async ({ ctx, params, body }) => {
      await submitForm(platform, { ...params, fields: body.fields, ip: ctx.ip, userAgent: ctx.get('User-Agent') });
      return { accepted: true };
    }),
  );
  return router;
}

/** /v1/form-submissions: the X-Store-Id store's submissions (or an app's own store's). */
export function formSubmissionRoutes(platform: Platform): AppRouter {
  const router: AppRouter = new Router();
  router.get(
    '/',
    endpoint(platform, { access: storeScoped('read_form_submissions'), query: ListSubmissionsQuery, respond: 'page' }, ({ store, query }) => listFormSubmissions(platform, store.id, query)),
  );
  return router;
}
