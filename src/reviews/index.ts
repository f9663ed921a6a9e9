import type { Module } from '../module.js';
import { reviewRoutes } from './routes.js';
import { REVIEWS, reviewIndexes } from './store.js';
export { productRatingSummary } from './service.js';
export type { ReviewView, RatingSummary } from './present.js';

/** Product reviews with moderation: /v1/reviews. */
export const reviewsModule: Module = {
  name: 'reviews',
  indexes: reviewIndexes,
  routes: [{ path: '/v1/reviews', router: reviewRoutes }],
  eventCarriers: [REVIEWS],
  eventTypes: ['review.created', 'review.deleted', 'review.replied', 'review.updated'],
};
