import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../../db.js';

export const SIGNING_KEYS = 'signing_keys';
export const SESSION_TOKEN_USES = 'app_session_token_uses';

/**
 * A platform signing key (ES256) for session tokens and install links (signing-keys.ts); the private key
 * encrypted with SECRETS_KEYS. The newest (`created_at`, then `_id`) signs; one replaced by a
 * rotation has `retired_at` and stays published for verification for a grace period.
 */
export type SigningKeyDocument = {
  _id: string;
  alg: 'ES256';
  public_jwk: Record<string, unknown>;
  private_jwk_encrypted: string;
  created_at: Date;
  retired_at: Date | null;
};

/**
 * A session token exchanged at the token endpoint (token exchange, oauth/grants.ts), by its `jti`: the
 * insert of this document is what allows the exchange, and `_id` is unique, so a session token is
 * exchanged at most once however many requests present it. Kept until the token could no longer
 * verify anyway (`exp` and the clock tolerance), then swept.
 */
export type SessionTokenUseDocument = {
  /** The token's `jti` (128 random bits of the platform's). */
  _id: string;
  app_id: ObjectId;
  installation_id: ObjectId;
  exchanged_at: Date;
  expires_at: Date;
};

export const sessionTokenIndexes: IndexDeclaration[] = [{ collection: SESSION_TOKEN_USES, indexes: [{ key: { expires_at: 1 }, name: 'expires_at' }] }];

export const signingKeys = (db: Db) => db.collection<SigningKeyDocument>(SIGNING_KEYS);
export const sessionTokenUses = (db: Db) => db.collection<SessionTokenUseDocument>(SESSION_TOKEN_USES);
