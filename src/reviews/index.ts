import type { Module } from '../module.js';
import { reviewRoutes } from './routes.js';
import { reviewIndexes } from './store.js';
export { productRatingSummary } from './service.js';
export type { ReviewView, RatingSummary } from './present.js';

/** Product reviews with moderation: /v1/reviews. */
export const reviewsModule: Module = {
  name: 'reviews',
  indexes: reviewIndexes,
  routes: [{ path: '/v1/reviews', router: reviewRoutes }],
  eventTypes: ['review.created', 'review.deleted', 'review.replied', 'review.updated'],
};
