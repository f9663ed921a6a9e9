export { consumeRateLimit, sweepExpiredRateLimits, type RateRule } from './service.js';
export { rateLimitIndexes } from './store.js';
