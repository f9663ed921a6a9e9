import type { AppRouter } from '../../http/context.js';
import { routes } from '../../http/endpoint.js';
import type { Platform } from '../../platform.js';
import { approveReview, getReview, listReviews, rejectReview } from './service.js';
import { RejectBody, ReviewListQuery } from '../schemas.js';

/** /v1/operations/theme-reviews: operators review uploaded theme versions (docs/themes.md, Review). */
export function themeReviewRoutes(platform: Platform): AppRouter {
  const on = routes(platform);

  on.get('/', { access: 'operator', query: ReviewListQuery, respond: 'page' }, ({ query }) => listReviews(platform, query));
  on.get('/:id', { access: 'operator' }, ({ params }) => getReview(platform, params.id));
  on.post('/:id/approve', { access: 'operator' }, ({ merchant, params }) => approveReview(platform, merchant.merchantId, params.id));
  on.post('/:id/reject', { access: 'operator', body: RejectBody }, ({ merchant, params, body }) =>
    rejectReview(platform, merchant.merchantId, params.id, body.reasons),
  );

  return on.router;
}
