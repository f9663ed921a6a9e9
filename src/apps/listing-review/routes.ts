import Router from '@koa/router';
import type { AppRouter } from '../../http/context.js';
import { endpoint } from '../../http/endpoint.js';
import type { Platform } from '../../platform.js';
import { approveVersion, getReview, listReviews, rejectVersion } from './service.js';
import { RejectBody, ReviewListQuery } from './schemas.js';

/** /v1/operations/app-reviews: operators review submitted app versions. */
export function listingReviewRoutes(platform: Platform): AppRouter {
  const router: AppRouter = new Router();

  router.get(
    '/',
    endpoint(platform, { access: 'operator', query: ReviewListQuery, respond: 'page' }, ({ query }) => listReviews(platform, query)),
  );

  router.get(
    '/:versionId',
    endpoint(platform, { access: 'operator' }, ({ params }) => getReview(platform, params.versionId!)),
  );

  router.post(
    '/:versionId/approve',
    endpoint(platform, { access: 'operator' }, ({ merchant, params }) => approveVersion(platform, merchant, params.versionId!)),
  );

  router.post(
    '/:versionId/reject',
    endpoint(platform, { access: 'operator', body: RejectBody }, ({ merchant, params, body }) =>
      rejectVersion(platform, merchant, params.versionId!, body.reasons),
    ),
  );

  return router;
}
