import type { Db } from 'mongodb';
import type { IndexDeclaration } from '../../db.js';

export const IDEMPOTENCY_RECORDS = 'idempotency_records';

/**
 * One (caller, route, key). `_id` is a hash of the three. The stored response is encrypted:
 * some responses carry show-once secrets, and a replay must return them without the
 * database holding them in plaintext.
 */
export type IdempotencyDocument = {
  _id: string;
  request_hash: string;
  state: 'in_progress' | 'completed';
  /**
   * The holder of the claim: `<process id>:<random>`, new for each claim and takeover. Renewing,
   * completing and releasing match it, so a holder whose claim was taken over changes nothing.
   * (Absent on records written before owners existed: a takeover matches those by its absence.)
   */
  owner?: string;
  /** Until when the claim holds; its request renews it while it runs. After that a retry takes it over. */
  locked_until: Date;
  response_status: number | null;
  response_body: string | null;
  created_at: Date;
  expires_at: Date;
};

export const idempotencyIndexes: IndexDeclaration[] = [{ collection: IDEMPOTENCY_RECORDS, indexes: [{ key: { expires_at: 1 }, name: 'expires_at' }] }];

export const idempotencyRecords = (db: Db) => db.collection<IdempotencyDocument>(IDEMPOTENCY_RECORDS);
