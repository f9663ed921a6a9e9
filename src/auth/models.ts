import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../db.js';

export const MERCHANTS = 'merchants';
export const SESSIONS = 'sessions';
export const SIGNIN_CODES = 'signin_codes';
export const PASSWORD_RESETS = 'password_resets';

export type MerchantDocument = {
  _id: ObjectId;
  email: string;
  name: string;
  password_hash: string;
  password_updated_at: Date;
  /**
   * The credentials' epoch: sessions, sign-in codes and reset tokens are valid only under the
   * epoch they were issued in. A password change sets a new one in the same write as the new
   * hash, so everything issued before is dead at once. Absent (null) until the first change.
   */
  auth_epoch?: string | null;
  /** The session a password change was made from, which lives on under the new epoch (null after a reset). */
  auth_epoch_session_id?: ObjectId | null;
  created_at: Date;
  updated_at: Date;
};

/** A merchant session. Only the SHA-256 of the bearer token is stored. */
export type SessionDocument = {
  _id: ObjectId;
  merchant_id: ObjectId;
  token_hash: string;
  method: 'signup' | 'password' | 'otp';
  /** The merchant's auth_epoch when the session started (absent: null). */
  auth_epoch?: string | null;
  created_at: Date;
  expires_at: Date;
};

/** One live sign-in code per email; the code is stored as a keyed hash. */
export type SigninCodeDocument = {
  _id: ObjectId;
  email: string;
  merchant_id: ObjectId;
  code_hash: string;
  attempts: number;
  /** The merchant's auth_epoch when the code was sent. */
  auth_epoch?: string | null;
  created_at: Date;
  expires_at: Date;
};

export type PasswordResetDocument = {
  _id: ObjectId;
  merchant_id: ObjectId;
  token_hash: string;
  /** The merchant's auth_epoch when the token was sent. */
  auth_epoch?: string | null;
  created_at: Date;
  expires_at: Date;
};

export const authIndexes: IndexDeclaration[] = [
  { collection: MERCHANTS, indexes: [{ key: { email: 1 }, name: 'email_unique', unique: true }] },
  {
    collection: SESSIONS,
    indexes: [
      { key: { token_hash: 1 }, name: 'token_hash_unique', unique: true },
      { key: { merchant_id: 1 }, name: 'merchant_id' },
      { key: { expires_at: 1 }, name: 'expires_at' },
    ],
  },
  {
    collection: SIGNIN_CODES,
    indexes: [
      { key: { email: 1 }, name: 'email_unique', unique: true },
      { key: { expires_at: 1 }, name: 'expires_at' },
    ],
  },
  {
    collection: PASSWORD_RESETS,
    indexes: [
      { key: { token_hash: 1 }, name: 'token_hash_unique', unique: true },
      { key: { merchant_id: 1 }, name: 'merchant_id' },
      { key: { expires_at: 1 }, name: 'expires_at' },
    ],
  },
];

export const merchants = (db: Db) => db.collection<MerchantDocument>(MERCHANTS);
export const sessions = (db: Db) => db.collection<SessionDocument>(SESSIONS);
export const signinCodes = (db: Db) => db.collection<SigninCodeDocument>(SIGNIN_CODES);
export const passwordResets = (db: Db) => db.collection<PasswordResetDocument>(PASSWORD_RESETS);
