import { randomBytes } from 'node:crypto';
import { isDuplicateKeyError } from '../../db.js';
import { sha256 } from '../../digest.js';
import { PlatformError } from '../../errors.js';
import type { Platform } from '../../platform.js';
import { decryptSecret, encryptSecret } from '../../secrets/index.js';
import { idempotencyRecords, type IdempotencyDocument } from './models.js';
import type { Filter } from 'mongodb';

/** Keys are kept for 24 hours, as Stripe does; a replay after that runs the request again. */
export const RETENTION_MS = 24 * 60 * 60 * 1000;
const PURPOSE = 'idempotency.response';
/** How often a claim meets a record changed under it (released, taken over) before answering 409. */
const CLAIM_ATTEMPTS = 3;

export type IdempotencyScope = { caller: string; route: string; key: string; body: unknown };

/**
 * A claim held on a key: the record and the holder's token. Every later write of the holder
 * (renew, complete, release) is conditional on the token, so a holder whose claim was taken
 * over changes nothing.
 */
export type HeldClaim = { recordId: string; owner: string };
export type Claim = ({ kind: 'proceed' } & HeldClaim) | { kind: 'replay'; status: number; body: unknown };

/** The holder's token: this process (for the logs) and 96 random bits (for this claim alone). */
const newOwner = (platform: Pick<Platform, 'process'>) => `${platform.process.id}:${randomBytes(12).toString('hex')}`;

/** A held claim, as a filter: the record, still in progress, still held by this token. */
const held = (claim: HeldClaim): Filter<IdempotencyDocument> => ({ _id: claim.recordId, state: 'in_progress', owner: claim.owner });

/**
 * What may be deleted when found expired: a completed record, or a claim nobody holds any more.
 * A request still renewing its claim keeps it, however old the record is.
 */
const dead = (now: Date): Filter<IdempotencyDocument> => ({ expires_at: { $lte: now }, $or: [{ state: 'completed' }, { locked_until: { $lte: now } }] });

/**
 * Claim a key before running the request: a new key proceeds; a completed key with the same
 * body replays the stored response; the same key with another body is a 409; a key whose
 * request is still running (its claim renewed within `lockMs`) is a 409 too (retry later). A
 * claim not renewed for `lockMs` (its request died, or stalled that long) is taken over: the
 * takeover gives it a new token, and the old holder's writes no longer match.
 */
export async function claimIdempotencyKey(platform: Platform, scope: IdempotencyScope, options: { lockMs: number }): Promise<Claim> {
  const recordId = sha256(`${scope.caller}|${scope.route}|${scope.key}`);
  const requestHash = sha256(JSON.stringify(scope.body ?? null));
  const records = idempotencyRecords(platform.db);
  for (let attempt = 1; attempt <= CLAIM_ATTEMPTS; attempt++) {
    const now = platform.clock.now();
    const owner = newOwner(platform);
    try {
      await records.insertOne({
        _id: recordId,
        request_hash: requestHash,
        state: 'in_progress',
        owner,
        locked_until: new Date(now.getTime() + options.lockMs),
        response_status: null,
        response_body: null,
        created_at: now,
        expires_at: new Date(now.getTime() + RETENTION_MS),
      });
      return { kind: 'proceed', recordId, owner };
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
    }
    const existing = await records.findOne({ _id: recordId });
    if (!existing) continue; // released or swept since the insert: claim it again
    if (existing.expires_at <= now && (existing.state === 'completed' || existing.locked_until <= now)) {
      // Expired but not yet swept: start over with this request.
      await records.deleteOne({ _id: recordId, ...dead(now) });
      continue;
    }
    if (existing.request_hash !== requestHash) {
      throw new PlatformError('conflict', 'idempotency_key_reused', 'This Idempotency-Key was already used with a different request body');
    }
    if (existing.state === 'completed' && existing.response_status !== null && existing.response_body !== null) {
      return {
        kind: 'replay',
        status: existing.response_status,
        body: JSON.parse(decryptSecret(platform.config.secretsKeys, PURPOSE, existing.response_body)),
      };
    }
    if (existing.locked_until > now) break;
    // Nobody renewed the claim within its lease: take it over, exactly as read (its token and
    // lease), so of several retries one wins and a holder renewing it at this moment keeps it.
    const takenOver = await records.findOneAndUpdate(
      { _id: recordId, state: 'in_progress', owner: existing.owner ?? { $exists: false }, locked_until: existing.locked_until },
      { $set: { owner, locked_until: new Date(now.getTime() + options.lockMs) } },
    );
    if (takenOver) return { kind: 'proceed', recordId, owner };
  }
  throw new PlatformError('conflict', 'idempotency_request_in_progress', 'A request with this Idempotency-Key is still being processed; retry later');
}

/** Keep a held claim for `lockMs` more. Resolves false when it is no longer held (taken over, or gone). */
export async function renewIdempotencyClaim(platform: Platform, claim: HeldClaim, options: { lockMs: number }): Promise<boolean> {
  const until = new Date(platform.clock.now().getTime() + options.lockMs);
  const { matchedCount } = await idempotencyRecords(platform.db).updateOne(held(claim), { $set: { locked_until: until } });
  return matchedCount === 1;
}

/** Store the response of a request that succeeded. Resolves false (and stores nothing) when the claim is no longer held. */
export async function completeIdempotencyKey(platform: Platform, claim: HeldClaim, status: number, body: unknown): Promise<boolean> {
  const { matchedCount } = await idempotencyRecords(platform.db).updateOne(held(claim), {
    $set: { state: 'completed', response_status: status, response_body: encryptSecret(platform.config.secretsKeys, PURPOSE, JSON.stringify(body ?? null)) },
  });
  return matchedCount === 1;
}

/**
 * The request failed before completing: free the key so a corrected retry can run. Resolves
 * false (and frees nothing) when the claim is no longer held.
 */
export async function releaseIdempotencyKey(platform: Platform, claim: HeldClaim): Promise<boolean> {
  const { deletedCount } = await idempotencyRecords(platform.db).deleteOne(held(claim));
  return deletedCount === 1;
}

/** Delete expired records (completed, or claims nobody renews any more). */
export async function sweepExpiredIdempotencyRecords(platform: Pick<Platform, 'db' | 'clock'>): Promise<number> {
  const { deletedCount } = await idempotencyRecords(platform.db).deleteMany(dead(platform.clock.now()));
  return deletedCount;
}
