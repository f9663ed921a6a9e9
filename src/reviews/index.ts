export { productRatingSummary } from './service.js';
export type { ReviewView, RatingSummary } from './present.js';
export { reviewIndexes } from './store.js';
