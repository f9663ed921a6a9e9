import type { Module } from '../module.js';
import { spendBudget } from './service.js';
import { ratelimitJobs } from './jobs.js';
import { rateLimitIndexes } from './store.js';
export { SweepRateLimits } from './jobs.js';
export { consumeRateLimit, openBudgetAccount, spendBudget, sweepExpiredRateLimits, type RateRule } from './service.js';

/**
 * Rate-limit windows: the auth actions' limits, and the counters behind request budgets (the
 * store-scoped admin API's, through the toolkit). Their sweep is the maintenance module's.
 */
export const rateLimitModule: Module = { name: 'ratelimit', indexes: rateLimitIndexes, requestBudget: spendBudget, jobs: ratelimitJobs };
