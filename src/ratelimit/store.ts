import type { Db } from 'mongodb';
import type { IndexDeclaration } from '../db.js';

export const RATE_LIMITS = 'rate_limits';

/** One fixed window of one bucket; `_id` is `<bucket>|<window start ms>`. */
export type RateLimitDocument = { _id: string; count: number; expires_at: Date };

/**
 * A caller's request budget account (same collection): `_id` names the account
 * (`admin:<caller>`), and `windows` holds, per scope (`s<store id>`), the start (ms) of the
 * window being counted and what was spent in it. One document per caller, updated in place, so
 * spending never creates documents once the account is open (sign-in opens a merchant's).
 */
export type BudgetAccountDocument = { _id: string; windows?: Record<string, { start: number; count: number }>; expires_at: Date };

export const rateLimitIndexes: IndexDeclaration[] = [{ collection: RATE_LIMITS, indexes: [{ key: { expires_at: 1 }, name: 'expires_at' }] }];

export const rateLimits = (db: Db) => db.collection<RateLimitDocument>(RATE_LIMITS);
export const budgetAccounts = (db: Db) => db.collection<BudgetAccountDocument>(RATE_LIMITS);
