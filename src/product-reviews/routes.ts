import type { AppRouter } from '../http/context.js';
import { routes, storeScoped } from '../http/endpoint.js';
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
  const on = routes(platform);

  on.get('/', { access: read, query: ListReviewsQuery, respond: 'page' }, ({ store, query }) => listReviews(platform, store.id, query));

  on.post('/', { access: write, body: CreateReviewBody, idempotent: true, status: 201 }, ({ store, body }) => createReview(platform, store.id, body));

  // Before /:id.
  on.get('/summary', { access: read, query: SummaryQuery }, ({ store, query }) => summaryForProduct(platform, store.id, query.product_id));

  on.get('/:id', { access: read }, ({ store, params }) => getReview(platform, store.id, params.id));

  on.patch('/:id', { access: write, body: UpdateReviewBody }, ({ store, params, body }) => updateReview(platform, store.id, params.id, body));

  on.delete('/:id', { access: write, respond: 'empty' }, ({ store, params }) => deleteReview(platform, store.id, params.id));

  on.post('/:id/reply', { access: write, body: ReplyBody }, ({ store, params, body }) => replyToReview(platform, store.id, params.id, body));

  on.delete('/:id/reply', { access: write, respond: 'empty' }, ({ store, params }) => deleteReviewReply(platform, store.id, params.id));

  return on.router;
}

/** /v1/storefront/customer/reviews: a signed-in customer reviews a product they bought; it enters moderation as pending. */
export function customerReviewRoutes(platform: Platform): AppRouter {
  const on = routes(platform);
  on.post('/', { access: 'customer', body: CustomerReviewBody, idempotent: true, status: 201 }, ({ customer, body }) =>
    createCustomerReview(platform, customer.storeId, customer.customerId, body),
  );
  return on.router;
}
