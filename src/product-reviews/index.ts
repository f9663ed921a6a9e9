import type { Module } from '../module.js';
import { PRODUCT_REVIEWS_ERROR_CODES } from './errors.js';
import { PRODUCT_REVIEWS_EVENT_TYPES } from './events.js';
import { customerReviewRoutes, reviewRoutes } from './routes.js';
import { REVIEWS, reviewIndexes } from './models.js';
export { productRatingSummary } from './service.js';
export type { ReviewView, RatingSummary } from './present.js';

/** Product reviews with moderation: /v1/reviews; customers' reviews of what they bought: /v1/storefront/customer/reviews. */
export const productReviewsModule: Module = {
  name: 'product-reviews',
  errorCodes: PRODUCT_REVIEWS_ERROR_CODES,
  indexes: reviewIndexes,
  routes: [
    { path: '/v1/reviews', router: reviewRoutes },
    { path: '/v1/storefront/customer/reviews', router: customerReviewRoutes },
  ],
  eventCarriers: [REVIEWS],
  eventTypes: PRODUCT_REVIEWS_EVENT_TYPES,
};
