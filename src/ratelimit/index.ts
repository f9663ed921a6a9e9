import type { Module } from '../module.js';
import { spendBucket } from './bucket.js';
import { ratelimitJobs } from './jobs.js';
import { rateLimitIndexes } from './models.js';
export { SweepRateLimits } from './jobs.js';
export { consumeRateLimit, openBudgetAccount, sweepExpiredRateLimits, type RateRule } from './service.js';
export { refundBucket, spendBucket, type BucketRefund } from './bucket.js';
export { refundQueryCost, spendQueryCost, type QueryCaller, type QueryCostSpend, type ThrottleStatus } from './query-cost.js';

/**
 * Rate limits: the auth actions' fixed windows, and the leaky buckets behind the store-scoped
 * admin API's request budget (through the toolkit) and GraphQL's query cost. Their sweep is
 * the maintenance module's.
 */
export const rateLimitModule: Module = { name: 'ratelimit', indexes: rateLimitIndexes, requestBudget: spendBucket, jobs: ratelimitJobs };
