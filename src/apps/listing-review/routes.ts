import type { AppRouter } from '../../http/context.js';
import { routes } from '../../http/endpoint.js';
import type { Platform } from '../../platform.js';
import { approveVersion, getReview, listReviews, rejectVersion } from './service.js';
import { RejectBody, ReviewListQuery } from './schemas.js';

/** /v1/operations/app-reviews: operators review submitted app versions. */
export function listingReviewRoutes(platform: Platform): AppRouter {
  const on = routes(platform);

  on.get('/', { access: 'operator', query: ReviewListQuery, respond: 'page' }, ({ query }) => listReviews(platform, query));

  on.get('/:versionId', { access: 'operator' }, ({ params }) => getReview(platform, params.versionId));

  on.post('/:versionId/approve', { access: 'operator' }, ({ merchant, params }) => approveVersion(platform, merchant, params.versionId));

  on.post('/:versionId/reject', { access: 'operator', body: RejectBody }, ({ merchant, params, body }) =>
    rejectVersion(platform, merchant, params.versionId, body.reasons),
  );

  return on.router;
}
