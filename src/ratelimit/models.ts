import type { Db } from 'mongodb';
import type { IndexDeclaration } from '../db.js';

export const RATE_LIMITS = 'rate_limits';

/** One fixed window of one bucket; `_id` is `<bucket>|<window start ms>`. */
export type RateLimitDocument = { _id: string; count: number; expires_at: Date };

/**
 * A caller's budget account (same collection): `_id` names the account (`admin:<caller>`), and
 * `buckets` holds its leaky buckets by scope (`rest-<store id>` for the REST admin API,
 * `graphql-<store id>` for the admin GraphQL API), each as its theoretical arrival time (GCRA):
 * the time (ms since the epoch, fractional) at which the bucket is full again. A bucket whose
 * time has passed is full, as is a missing one. One document per caller, updated in place, so
 * spending never creates documents once the account is open (sign-in opens a merchant's).
 * Accounts written before the leaky bucket may still hold `windows` (the fixed windows'
 * counts), unread, until they are swept.
 */
export type BudgetAccountDocument = { _id: string; buckets?: Record<string, number>; expires_at: Date };

export const rateLimitIndexes: IndexDeclaration[] = [{ collection: RATE_LIMITS, indexes: [{ key: { expires_at: 1 }, name: 'expires_at' }] }];

export const rateLimits = (db: Db) => db.collection<RateLimitDocument>(RATE_LIMITS);
export const budgetAccounts = (db: Db) => db.collection<BudgetAccountDocument>(RATE_LIMITS);
