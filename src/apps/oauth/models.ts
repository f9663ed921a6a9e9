import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../../db.js';

export const OAUTH_CODES = 'oauth_codes';
export const OAUTH_TOKENS = 'oauth_tokens';

/** An authorization code (RFC 6749 4.1.2): single use, bound to its client, grant, redirect URI and PKCE challenge. */
export type CodeDocument = {
  _id: ObjectId;
  code_hash: string;
  app_id: ObjectId;
  installation_id: ObjectId;
  grant_id: ObjectId;
  store_id: ObjectId;
  merchant_id: ObjectId;
  redirect_uri: string;
  code_challenge: string;
  scopes: string[];
  expires_at: Date;
  /** Set by the one exchange that may use it; a second use revokes every token issued from it. */
  used_at: Date | null;
  created_at: Date;
};

export type TokenKind = 'access' | 'refresh';
export type AccessMode = 'offline' | 'online';

/**
 * An access or refresh token (opaque, `emp_at_…` / `emp_rt_…`; only the SHA-256 is stored).
 * `family_id`: every token descending from one authorization (code or token exchange), so a
 * replayed refresh token revokes them all (RFC 9700 4.14). `code_id`: the code they came
 * from, so a replayed code revokes them all (RFC 6749 4.1.2).
 */
export type TokenDocument = {
  _id: ObjectId;
  kind: TokenKind;
  token_hash: string;
  app_id: ObjectId;
  installation_id: ObjectId;
  grant_id: ObjectId;
  store_id: ObjectId;
  scopes: string[];
  access_mode: AccessMode;
  /** Online tokens: the merchant user and session they act for (they die with the session). */
  merchant_id: ObjectId | null;
  session_id: ObjectId | null;
  family_id: ObjectId;
  code_id: ObjectId | null;
  /** The refresh token whose use issued this one (null for the first of a family). */
  parent_id: ObjectId | null;
  /** Refresh tokens: when it was used (rotated); a later use is a replay, but for one retry (below). */
  used_at: Date | null;
  /**
   * Refresh tokens, for the one retry of a rotation whose response was lost (oauth/grants.ts): the
   * rotation's answer, encrypted (SECRETS_KEYS, purpose `oauth.refresh_retry`), kept until
   * `retry_until` (the grace after the rotation), then cleared by the retry or the OAuth sweep.
   */
  rotation_answer?: string | null;
  retry_until?: Date | null;
  /** When the one retry was answered. */
  retried_at?: Date | null;
  revoked_at: Date | null;
  expires_at: Date;
  created_at: Date;
};

export const oauthIndexes: IndexDeclaration[] = [
  {
    collection: OAUTH_CODES,
    indexes: [
      { key: { code_hash: 1 }, name: 'code_hash_unique', unique: true },
      { key: { expires_at: 1 }, name: 'expires_at' },
    ],
  },
  {
    collection: OAUTH_TOKENS,
    indexes: [
      { key: { token_hash: 1 }, name: 'token_hash_unique', unique: true },
      { key: { family_id: 1 }, name: 'family_id' },
      { key: { code_id: 1 }, name: 'code_id' },
      { key: { installation_id: 1 }, name: 'installation_id' },
      { key: { parent_id: 1 }, name: 'parent_id' },
      { key: { expires_at: 1 }, name: 'expires_at' },
      { key: { retry_until: 1 }, name: 'retry_until' },
    ],
  },
];

export const oauthCodes = (db: Db) => db.collection<CodeDocument>(OAUTH_CODES);
export const oauthTokens = (db: Db) => db.collection<TokenDocument>(OAUTH_TOKENS);
