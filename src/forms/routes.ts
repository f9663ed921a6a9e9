import Router from '@koa/router';
import type { AppState } from '../http/context.js';
import { storeScopedRouter } from '../http/scoped.js';
import { parseInput } from '../http/validate.js';
import type { Platform } from '../platform.js';
import { ListSubmissionsQuery, SubmitFormBody, SubmitFormParams } from './schemas.js';
import { listFormSubmissions, submitForm } from './service.js';

/** Mounted under /v1/storefront: public form submissions, addressed by store subdomain. */
export function storefrontFormRoutes(platform: Platform): Router<AppState> {
  const router = new Router<AppState>();
  router.post('/:subdomain/forms/:form', async (ctx) => {
    const params = parseInput(SubmitFormParams, ctx.params, 'params');
    const body = parseInput(SubmitFormBody, ctx.request.body, 'body');
    await submitForm(platform, { ...params, fields: body.fields, ip: ctx.ip, userAgent: ctx.get('User-Agent') });
    ctx.status = 202;
    ctx.body = { data: { accepted: true } };
  });
  return router;
}

/** /v1/form-submissions: the X-Store-Id store's submissions. */
export function formSubmissionRoutes(platform: Platform): Router<AppState> {
  const router = storeScopedRouter(platform);
  router.get('/', async (ctx) => {
    const query = parseInput(ListSubmissionsQuery, ctx.query, 'query');
    const { items, nextCursor } = await listFormSubmissions(platform, ctx.state.store!.id, query);
    ctx.body = { data: items, page: { next_cursor: nextCursor } };
  });
  return router;
}
