import type { Db } from 'mongodb';
import type { IndexDeclaration } from '../db.js';

export const RATE_LIMITS = 'rate_limits';

/** One fixed window of one bucket; `_id` is `<bucket>|<window start ms>`. */
export type RateLimitDocument = { _id: string; count: number; expires_at: Date };

export const rateLimitIndexes: IndexDeclaration[] = [
  { collection: RATE_LIMITS, indexes: [{ key: { expires_at: 1 }, name: 'expires_at' }] },
];

export const rateLimits = (db: Db) => db.collection<RateLimitDocument>(RATE_LIMITS);
