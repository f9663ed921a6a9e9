import Router from '@koa/router';
import type { AppRouter } from '../../http/context.js';
import { endpoint } from '../../http/endpoint.js';
import type { Platform } from '../../platform.js';
import { approveReview, getReview, listReviews, rejectReview } from './service.js';
import { RejectBody, ReviewListQuery } from '../schemas.js';

/** /v1/operations/theme-reviews: operators review uploaded theme versions (docs/themes.md, Review). */
export function themeReviewRoutes(platform: Platform): AppRouter {
  const router: AppRouter = new Router();

  router.get(
    '/',
    endpoint(platform, { access: 'operator', query: ReviewListQuery, respond: 'page' }, ({ query }) => listReviews(platform, query)),
  );
  router.get(
    '/:id',
    endpoint(platform, { access: 'operator' }, ({ params }) => getReview(platform, params.id!)),
  );
  router.post(
    '/:id/approve',
    endpoint(platform, { access: 'operator' }, ({ merchant, params }) => approveReview(platform, merchant.merchantId, params.id!)),
  );
  router.post(
    '/:id/reject',
    endpoint(platform, { access: 'operator', body: RejectBody }, ({ merchant, params, body }) =>
      rejectReview(platform, merchant.merchantId, params.id!, body.reasons),
    ),
  );

  return router;
}
