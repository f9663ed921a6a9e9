import Router from '@koa/router';
import type { AppRouter } from '../http/context.js';
import { endpoint, storeScoped } from '../http/endpoint.js';
import type { Platform } from '../platform.js';
import { CreateReviewBody, CustomerReviewBody, ListReviewsQuery, ReplyBody, SummaryQuery, UpdateReviewBody } from './schemas.js';
import {
  createCustomerReview,
  createReview,
  deleteReview,
  deleteReviewReply,
  getReview,
  listReviews,
  replyToReview,
  summaryForProduct,
  updateReview,
} from './service.js';

const read = storeScoped('read_reviews');
const write = storeScoped('write_reviews');

/** /v1/reviews: a store's product reviews, their moderation and the merchant's replies. */
export function reviewRoutes(platform: Platform): AppRouter {
  const router: AppRouter = new Router();

  router.get(
    '/',
    endpoint(platform, { access: read, query: ListReviewsQuery, respond: 'page' }, ({ store, query }) => listReviews(platform, store.id, query)),
  );

  router.post(
    '/',
    endpoint(platform, { access: write, body: CreateReviewBody, idempotent: true, status: 201 }, ({ store, body }) => createReview(platform, store.id, body)),
  );

  // Before /:id.
  router.get(
    '/summary',
    endpoint(platform, { access: read, query: SummaryQuery }, ({ store, query }) => summaryForProduct(platform, store.id, query.product_id)),
  );

  router.get(
    '/:id',
    endpoint(platform, { access: read }, ({ store, params }) => getReview(platform, store.id, params.id!)),
  );

  router.patch(
    '/:id',
    endpoint(platform, { access: write, body: UpdateReviewBody }, ({ store, params, body }) => updateReview(platform, store.id, params.id!, body)),
  );

  router.delete(
    '/:id',
    endpoint(platform, { access: write, respond: 'empty' }, ({ store, params }) => deleteReview(platform, store.id, params.id!)),
  );

  router.post(
    '/:id/reply',
    endpoint(platform, { access: write, body: ReplyBody }, ({ store, params, body }) => replyToReview(platform, store.id, params.id!, body)),
  );

  router.delete(
    '/:id/reply',
    endpoint(platform, { access: write, respond: 'empty' }, ({ store, params }) => deleteReviewReply(platform, store.id, params.id!)),
  );

  return router;
}

/** /v1/storefront/customer/reviews: a signed-in customer reviews a product they bought; it enters moderation as pending. */
export function customerReviewRoutes(platform: Platform): AppRouter {
  const router: AppRouter = new Router();
  router.post(
    '/',
    endpoint(platform, { access: 'customer', body: CustomerReviewBody, idempotent: true, status: 201 }, ({ customer, body }) =>
      createCustomerReview(platform, customer.storeId, customer.customerId, body),
    ),
  );
  return router;
}
