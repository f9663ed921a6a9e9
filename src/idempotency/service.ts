import { createHash } from 'node:crypto';
import { isDuplicateKeyError } from '../db.js';
import { PlatformError } from '../errors.js';
import type { Platform } from '../platform.js';
import { decryptSecret, encryptSecret } from '../secrets/index.js';
import { idempotencyRecords } from './store.js';

/** Keys are kept for 24 hours, as Stripe does; a replay after that runs the request again. */
export const RETENTION_MS = 24 * 60 * 60 * 1000;
/** A request that died mid-flight frees its key after this long. */
const LOCK_MS = 60 * 1000;
const PURPOSE = 'idempotency.response';

export type IdempotencyScope = { caller: string; route: string; key: string; body: unknown };
export type Claim = { kind: 'proceed'; recordId: string } | { kind: 'replay'; status: number; body: unknown };

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * Claim a key before running the request: a new key proceeds; a completed key with the same
 * body replays the stored response; the same key with another body is a 409; a key whose
 * first request is still running is a 409 too (retry later).
 */
export async function claimIdempotencyKey(platform: Platform, scope: IdempotencyScope): Promise<Claim> {
  const now = platform.clock.now();
  const recordId = sha256(`${scope.caller}|${scope.route}|${scope.key}`);
  const requestHash = sha256(JSON.stringify(scope.body ?? null));
  const records = idempotencyRecords(platform.db);
  try {
    await records.insertOne({
      _id: recordId,
      request_hash: requestHash,
      state: 'in_progress',
      locked_until: new Date(now.getTime() + LOCK_MS),
      response_status: null,
      response_body: null,
      created_at: now,
      expires_at: new Date(now.getTime() + RETENTION_MS),
    });
    return { kind: 'proceed', recordId };
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
  }
  const existing = await records.findOne({ _id: recordId });
  if (!existing || existing.expires_at <= now) {
    // Expired but not yet swept: start over with this request.
    await records.deleteOne({ _id: recordId, expires_at: { $lte: now } });
    return claimIdempotencyKey(platform, scope);
  }
  if (existing.request_hash !== requestHash) {
    throw new PlatformError('conflict', 'idempotency_key_reused', 'This Idempotency-Key was already used with a different request body');
  }
  if (existing.state === 'completed' && existing.response_status !== null && existing.response_body !== null) {
    return { kind: 'replay', status: existing.response_status, body: JSON.parse(decryptSecret(platform.config.secretsKeys, PURPOSE, existing.response_body)) };
  }
  const takenOver = await records.findOneAndUpdate(
    { _id: recordId, state: 'in_progress', locked_until: { $lte: now } },
    { $set: { locked_until: new Date(now.getTime() + LOCK_MS) } },
  );
  if (takenOver) return { kind: 'proceed', recordId };
  throw new PlatformError('conflict', 'idempotency_request_in_progress', 'A request with this Idempotency-Key is still being processed; retry later');
}

export async function completeIdempotencyKey(platform: Platform, recordId: string, status: number, body: unknown): Promise<void> {
  await idempotencyRecords(platform.db).updateOne(
    { _id: recordId },
    { $set: { state: 'completed', response_status: status, response_body: encryptSecret(platform.config.secretsKeys, PURPOSE, JSON.stringify(body ?? null)) } },
  );
}

/** The request failed before completing: free the key so a corrected retry can run. */
export async function releaseIdempotencyKey(platform: Platform, recordId: string): Promise<void> {
  await idempotencyRecords(platform.db).deleteOne({ _id: recordId, state: 'in_progress' });
}

export async function sweepExpiredIdempotencyRecords(platform: Pick<Platform, 'db' | 'clock'>): Promise<number> {
  const { deletedCount } = await idempotencyRecords(platform.db).deleteMany({ expires_at: { $lte: platform.clock.now() } });
  return deletedCount;
}
