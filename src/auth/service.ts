import { randomInt } from 'node:crypto';
import { ObjectId } from 'mongodb';
import { isDuplicateKeyError } from '../db.js';
import { PlatformError } from '../errors.js';
import { storeBudgetAccount } from '../http/budget.js';
import { sendMessage } from '../messages/index.js';
import type { Platform } from '../platform.js';
import { consumeRateLimit, openBudgetAccount } from '../ratelimit/index.js';
import { recordEnforcement } from '../security/index.js';
import { decoyPasswordHash, generateToken, hashPassword, hashToken, keyedHash, verifyKeyedHash, verifyPassword } from '../secrets/index.js';
import { presentMerchant, presentNewSession, presentSession, type MerchantView, type SessionView } from './present.js';
import { merchants, passwordResets, sessions, signinCodes, type MerchantDocument, type SessionDocument } from './models.js';

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const CODE_TTL_MS = 10 * 60 * 1000;
export const CODE_MAX_ATTEMPTS = 5;
export const RESET_TTL_MS = 60 * 60 * 1000;

export const SESSION_PREFIX = 'emp_session';
const RESET_PREFIX = 'emp_reset';
const CODE_PURPOSE = 'auth.signin_code';

/**
 * Per email (or merchant) and per client IP, in 15-minute windows (docs/auth.md lists them).
 * The IP is the one src/http/client-address.ts derives (behind proxies: TRUST_PROXY_HOPS from
 * the right of X-Forwarded-For; IPv6 by /64), and the per-email rules hold however many
 * addresses a client has.
 */
const WINDOW = 15 * 60;
const LIMITS = {
  signup: { email: 5, ip: 50 },
  signin: { email: 10, ip: 100 },
  codeRequest: { email: 5, ip: 30 },
  codeVerify: { email: 10, ip: 100 },
  resetRequest: { email: 5, ip: 30 },
  passwordUpdate: { email: 10, ip: 30 },
} as const;

export type Caller = { ip: string };
export type NewSession = ReturnType<typeof presentNewSession>;

/** The epoch a merchant's credentials are issued under (see MerchantDocument.auth_epoch). */
const epochOf = (doc: { auth_epoch?: string | null }) => doc.auth_epoch ?? null;

const invalidCredentials = () => new PlatformError('unauthenticated', 'invalid_credentials', 'The email or password is wrong');
const invalidCode = () => new PlatformError('unauthenticated', 'invalid_code', 'The code is wrong, used up or expired');

/** The rules of one action: per account (an email, or a merchant id) and per client IP. */
function limitBy(action: keyof typeof LIMITS, account: string | null, caller: Caller) {
  const limits: { email?: number; ip: number } = LIMITS[action];
  return [
    ...(account && limits.email ? [{ bucket: `${action}:account:${account}`, limit: limits.email, windowSeconds: WINDOW }] : []),
    { bucket: `${action}:ip:${caller.ip}`, limit: limits.ip, windowSeconds: WINDOW },
  ];
}

/**
 * A sign-in's rate limit: over it the account (or the address) is locked out until the window
 * ends, and the lockout is recorded for operators (docs/operations.md, Security enforcement).
 */
async function limitSignIn(platform: Platform, action: 'signin' | 'codeVerify', email: string, caller: Caller): Promise<void> {
  try {
    await consumeRateLimit(platform, limitBy(action, email, caller));
  } catch (err) {
    if (err instanceof PlatformError && err.code === 'rate_limited') {
      recordEnforcement(platform, {
        kind: 'login_locked_out',
        subject: { email },
        reason: `Too many ${action === 'signin' ? 'password sign-ins' : 'sign-in code attempts'} for this email or from this address: refused for ${err.extra.retryAfterSeconds ?? WINDOW} s`,
        clientAddress: caller.ip,
      });
    }
    throw err;
  }
}

async function startSession(platform: Platform, merchant: MerchantDocument, method: SessionDocument['method']): Promise<NewSession> {
  const now = platform.clock.now();
  const { token, hash } = generateToken(SESSION_PREFIX);
  const session: SessionDocument = {
    _id: new ObjectId(),
    merchant_id: merchant._id,
    token_hash: hash,
    method,
    // Read with the password or code that was checked: a change since then makes it dead on arrival.
    auth_epoch: epochOf(merchant),
    created_at: now,
    expires_at: new Date(now.getTime() + SESSION_TTL_MS),
  };
  await sessions(platform.db).insertOne(session);
  // The merchant's budget account on the store-scoped API, open for as long as this session can be used.
  await openBudgetAccount(
    platform,
    storeBudgetAccount({ kind: 'merchant', merchantId: merchant._id.toHexString(), sessionId: session._id.toHexString(), operator: false }),
    session.expires_at,
  );
  platform.log.info({ event: 'auth.session_started', merchant_id: merchant._id.toHexString(), session_id: session._id.toHexString(), method });
  return presentNewSession(merchant, session, token);
}

/** Sign-up's one answer, for a new email and for one that already has an account alike. */
export const SIGNUP_ACCEPTED = {
  accepted: true,
  message: 'Sign-up received: sign in with your email and password. If the email already had an account, a message is on its way to it',
} as const;

/**
 * Create a merchant, answering the same whether or not the email already has an account, so
 * sign-up does not tell which emails have one. The client then signs in. For an email that
 * has an account nothing changes and its owner is told by message (`account_exists`), which
 * is how they learn that they, or someone else, tried. Both paths hash the password and
 * make one write to merchants, so they take about as long; the per-email limit bounds both
 * the probing and the messages.
 */
export async function signUp(platform: Platform, input: { email: string; password: string; name: string }, caller: Caller): Promise<typeof SIGNUP_ACCEPTED> {
  await consumeRateLimit(platform, limitBy('signup', input.email, caller));
  const now = platform.clock.now();
  const merchant: MerchantDocument = {
    _id: new ObjectId(),
    email: input.email,
    name: input.name,
    password_hash: await hashPassword(input.password),
    password_updated_at: now,
    created_at: now,
    updated_at: now,
  };
  try {
    await merchants(platform.db).insertOne(merchant);
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
    await sendMessage(platform, {
      kind: 'account_exists',
      to: input.email,
      subject: 'Someone tried to sign up with your email',
      text:
        `Someone (perhaps you) tried to create an Emporium account for ${input.email}, which already has one. Nothing was changed.\n\n` +
        `If it was you, sign in at ${platform.config.http.publicBaseUrl}/login with your password or a sign-in code, ` +
        `or reset your password at ${platform.config.http.publicBaseUrl}/password/reset ` +
        `(through the API: POST /v1/auth/signin, /v1/auth/signin/otp or /v1/auth/password/reset).\nIf it was not you, you can ignore this message.`,
    });
    platform.log.info({ event: 'auth.signup_for_existing_account' });
    return SIGNUP_ACCEPTED;
  }
  platform.log.info({ event: 'auth.merchant_signed_up', merchant_id: merchant._id.toHexString() });
  return SIGNUP_ACCEPTED;
}

export async function signIn(platform: Platform, input: { email: string; password: string }, caller: Caller): Promise<NewSession> {
  await limitSignIn(platform, 'signin', input.email, caller);
  const merchant = await merchants(platform.db).findOne({ email: input.email });
  // Verify against a decoy when there is no account, so timing does not reveal which emails exist.
  const ok = await verifyPassword(input.password, merchant?.password_hash ?? (await decoyPasswordHash()));
  if (!merchant || !ok) throw invalidCredentials();
  return startSession(platform, merchant, 'password');
}

/** Answers the same whether or not the email has an account. */
export async function requestSigninCode(platform: Platform, input: { email: string }, caller: Caller): Promise<void> {
  await consumeRateLimit(platform, limitBy('codeRequest', input.email, caller));
  const merchant = await merchants(platform.db).findOne({ email: input.email });
  if (!merchant) return;
  const now = platform.clock.now();
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  // One live code per email: a new request replaces the previous code and its attempt count.
  await signinCodes(platform.db).updateOne(
    { email: input.email },
    {
      $set: {
        merchant_id: merchant._id,
        code_hash: keyedHash(platform.config.secretsKeys, CODE_PURPOSE, `${input.email}:${code}`),
        attempts: 0,
        auth_epoch: epochOf(merchant),
        created_at: now,
        expires_at: new Date(now.getTime() + CODE_TTL_MS),
      },
    },
    { upsert: true },
  );
  await sendMessage(platform, {
    kind: 'signin_code',
    to: merchant.email,
    subject: 'Your Emporium sign-in code',
    text: `Your Emporium sign-in code is ${code}. It expires in 10 minutes.\n\nIf you did not ask for it, you can ignore this message.`,
  });
}

export async function verifySigninCode(platform: Platform, input: { email: string; code: string }, caller: Caller): Promise<NewSession> {
  await limitSignIn(platform, 'codeVerify', input.email, caller);
  const now = platform.clock.now();
  // Count the attempt before comparing, atomically, so parallel guesses cannot exceed the limit.
  const live = await signinCodes(platform.db).findOneAndUpdate(
    { email: input.email, expires_at: { $gt: now }, attempts: { $lt: CODE_MAX_ATTEMPTS } },
    { $inc: { attempts: 1 } },
    { returnDocument: 'after' },
  );
  if (!live || !verifyKeyedHash(platform.config.secretsKeys, CODE_PURPOSE, `${input.email}:${input.code}`, live.code_hash)) {
    throw invalidCode();
  }
  // Single use: whoever deletes it first signs in.
  const { deletedCount } = await signinCodes(platform.db).deleteOne({ _id: live._id, code_hash: live.code_hash });
  if (deletedCount !== 1) throw invalidCode();
  const merchant = await merchants(platform.db).findOne({ _id: live.merchant_id });
  // A code sent before the password last changed is dead.
  if (!merchant || epochOf(live) !== epochOf(merchant)) throw invalidCode();
  return startSession(platform, merchant, 'otp');
}

export async function signOut(platform: Platform, sessionId: string): Promise<void> {
  await sessions(platform.db).deleteOne({ _id: new ObjectId(sessionId) });
}

/** Answers the same whether or not the email has an account. */
export async function requestPasswordReset(platform: Platform, input: { email: string }, caller: Caller): Promise<void> {
  await consumeRateLimit(platform, limitBy('resetRequest', input.email, caller));
  const merchant = await merchants(platform.db).findOne({ email: input.email });
  if (!merchant) return;
  const now = platform.clock.now();
  const { token, hash } = generateToken(RESET_PREFIX);
  // Only the newest reset token works.
  await passwordResets(platform.db).deleteMany({ merchant_id: merchant._id });
  await passwordResets(platform.db).insertOne({
    _id: new ObjectId(),
    merchant_id: merchant._id,
    token_hash: hash,
    auth_epoch: epochOf(merchant),
    created_at: now,
    expires_at: new Date(now.getTime() + RESET_TTL_MS),
  });
  await sendMessage(platform, {
    kind: 'password_reset',
    to: merchant.email,
    subject: 'Reset your Emporium password',
    text:
      `Someone asked to reset the password of your Emporium account. Choose a new password here (the link works once, for 60 minutes):\n\n` +
      // The configured address, never the request's Host: a forged Host would send the token to another site.
      `${platform.config.http.publicBaseUrl}/password/reset/new?token=${token}\n\n` +
      `Through the API, send the reset token ${token} with your new password to POST /v1/auth/password/update ` +
      `as {"reset_token": "...", "new_password": "..."}.\n` +
      `If it was not you, ignore this message: your password has not changed.`,
  });
}

export type PasswordUpdate =
  | { via: 'reset_token'; resetToken: string; newPassword: string }
  | { via: 'current_password'; merchantId: string; sessionId: string; currentPassword: string; newPassword: string };

/**
 * Set a new password, proven by a reset token or by the current password within a session.
 * Every other session of the merchant is revoked (all of them after a reset), and any
 * outstanding reset tokens and sign-in codes stop working.
 *
 * The revocation is the same single-document write as the new hash: it moves the merchant's
 * `auth_epoch`, under which every session, code and reset token was issued, and names the one
 * session that lives on (the current-password form's own). From that write on, everything
 * issued before is refused, even a sign-in that checked the old password just before and
 * writes its session just after. The write is conditional on the epoch (and hash) as read, so
 * of two concurrent changes one wins. Deleting the dead sessions, codes and tokens afterwards
 * is only clean-up: if the process stops before it, they are dead all the same.
 */
export async function updatePassword(platform: Platform, input: PasswordUpdate, caller: Caller): Promise<{ revoked_sessions: number }> {
  await consumeRateLimit(platform, limitBy('passwordUpdate', input.via === 'current_password' ? `merchant:${input.merchantId}` : null, caller));
  const now = platform.clock.now();
  const invalidResetToken = () => new PlatformError('unauthenticated', 'invalid_reset_token', 'The reset token is wrong, used or expired');
  let merchant: MerchantDocument | null;
  let keepSession: ObjectId | null = null;
  if (input.via === 'reset_token') {
    const reset = await passwordResets(platform.db).findOneAndDelete({ token_hash: hashToken(input.resetToken), expires_at: { $gt: now } });
    if (!reset) throw invalidResetToken();
    merchant = await merchants(platform.db).findOne({ _id: reset.merchant_id });
    // A token sent before the password last changed is dead.
    if (!merchant || epochOf(reset) !== epochOf(merchant)) throw invalidResetToken();
  } else {
    merchant = await merchants(platform.db).findOne({ _id: new ObjectId(input.merchantId) });
    if (!merchant || !(await verifyPassword(input.currentPassword, merchant.password_hash))) {
      throw new PlatformError('unauthenticated', 'invalid_credentials', 'The current password is wrong');
    }
    keepSession = new ObjectId(input.sessionId);
  }
  const { matchedCount } = await merchants(platform.db).updateOne(
    { _id: merchant._id, password_hash: merchant.password_hash, auth_epoch: epochOf(merchant) },
    {
      $set: {
        password_hash: await hashPassword(input.newPassword),
        password_updated_at: now,
        auth_epoch: new ObjectId().toHexString(),
        auth_epoch_session_id: keepSession,
        updated_at: now,
      },
    },
  );
  if (matchedCount !== 1) {
    // The password changed meanwhile (another update or a reset): this one is not applied.
    if (input.via === 'reset_token') throw invalidResetToken();
    throw new PlatformError('conflict', 'password_changed', 'The password was changed by another request meanwhile; nothing was changed by this one');
  }
  const revoked = await deleteRevokedCredentials(platform, merchant._id, keepSession);
  platform.log.info({ event: 'auth.password_updated', merchant_id: merchant._id.toHexString(), via: input.via, revoked_sessions: revoked });
  return { revoked_sessions: revoked };
}

/**
 * Clean-up after the auth epoch moved: the merchant's sessions but `keepSession`, their reset
 * tokens and sign-in codes, all already refused under the new epoch. How many sessions went.
 */
async function deleteRevokedCredentials(platform: Platform, merchantId: ObjectId, keepSession: ObjectId | null): Promise<number> {
  const { deletedCount } = await sessions(platform.db).deleteMany(
    keepSession ? { merchant_id: merchantId, _id: { $ne: keepSession } } : { merchant_id: merchantId },
  );
  await passwordResets(platform.db).deleteMany({ merchant_id: merchantId });
  await signinCodes(platform.db).deleteMany({ merchant_id: merchantId });
  return deletedCount;
}

/** A change of the auth epoch retries this often when another change (a password update, another sign-out) got there first. */
const EPOCH_ATTEMPTS = 3;

/**
 * End every session of the merchant but the one asking, as a password change from a session does
 * without changing the password: one write moves the merchant's `auth_epoch` and names this
 * session as the one that lives on, so from that write every other session (a browser's, an API
 * client's, an app's online token made from one) is refused, and so are sign-in codes and reset
 * links sent before it. The asking session must itself be live under the epoch read, and the
 * write is conditional on that epoch, so a session another change has just revoked cannot make
 * itself the survivor.
 */
export async function signOutOtherSessions(platform: Platform, merchantId: string, sessionId: string): Promise<{ revoked_sessions: number }> {
  const _id = new ObjectId(merchantId);
  const keep = new ObjectId(sessionId);
  for (let attempt = 1; attempt <= EPOCH_ATTEMPTS; attempt++) {
    const [merchant, session] = await Promise.all([
      merchants(platform.db).findOne({ _id }),
      sessions(platform.db).findOne({ _id: keep, merchant_id: _id, expires_at: { $gt: platform.clock.now() } }),
    ]);
    const live = merchant && session && (epochOf(session) === epochOf(merchant) || merchant.auth_epoch_session_id?.equals(keep) === true);
    if (!live) throw new PlatformError('unauthenticated', 'unauthenticated', 'This session has ended: sign in again');
    const { matchedCount } = await merchants(platform.db).updateOne(
      { _id, auth_epoch: epochOf(merchant) },
      { $set: { auth_epoch: new ObjectId().toHexString(), auth_epoch_session_id: keep, updated_at: platform.clock.now() } },
    );
    if (matchedCount !== 1) continue;
    const revoked = await deleteRevokedCredentials(platform, _id, keep);
    platform.log.info({ event: 'auth.other_sessions_signed_out', merchant_id: merchantId, session_id: sessionId, revoked_sessions: revoked });
    return { revoked_sessions: revoked };
  }
  throw new PlatformError('conflict', 'sessions_changed', 'The account’s sessions kept changing meanwhile; nothing was changed by this request: try again');
}

/** A merchant's account as the API shows it, or null for an id of no account. */
export async function readMerchant(platform: Platform, merchantId: string): Promise<MerchantView | null> {
  const doc = ObjectId.isValid(merchantId) ? await merchants(platform.db).findOne({ _id: new ObjectId(merchantId) }) : null;
  return doc ? presentMerchant(doc) : null;
}

/** A merchant's own details: their name (the email is what they sign in with, and is not changed here). */
export async function updateMerchant(platform: Platform, merchantId: string, input: { name: string }): Promise<MerchantView> {
  const doc = await merchants(platform.db).findOneAndUpdate(
    { _id: new ObjectId(merchantId) },
    { $set: { name: input.name, updated_at: platform.clock.now() } },
    { returnDocument: 'after' },
  );
  if (!doc) throw new PlatformError('unauthenticated', 'unauthenticated', 'This account no longer exists');
  return presentMerchant(doc);
}

export type AuthenticatedSession = { merchant: MerchantView; session: SessionView };

/** Resolve a bearer token to its live session and merchant, or null. */
export async function authenticateSession(platform: Platform, token: string): Promise<AuthenticatedSession | null> {
  if (!token.startsWith(`${SESSION_PREFIX}_`) || token.length > 200) return null;
  const session = await sessions(platform.db).findOne({ token_hash: hashToken(token), expires_at: { $gt: platform.clock.now() } });
  if (!session) return null;
  const merchant = await merchants(platform.db).findOne({ _id: session.merchant_id });
  // Live only under the merchant's current epoch, or as the session the last password change was made from.
  const live = merchant && (epochOf(session) === epochOf(merchant) || merchant.auth_epoch_session_id?.equals(session._id) === true);
  return live ? { merchant: presentMerchant(merchant), session: presentSession(session) } : null;
}

/**
 * Whether a merchant session (by id) is still live: not expired, not signed out, not revoked by
 * a password change. What an app's online token checks on every use (it dies with the session).
 */
export async function isSessionLive(platform: Platform, sessionId: ObjectId): Promise<Date | null> {
  const session = await sessions(platform.db).findOne({ _id: sessionId, expires_at: { $gt: platform.clock.now() } });
  if (!session) return null;
  const merchant = await merchants(platform.db).findOne({ _id: session.merchant_id }, { projection: { auth_epoch: 1, auth_epoch_session_id: 1 } });
  const live = merchant && (epochOf(session) === epochOf(merchant as MerchantDocument) || merchant.auth_epoch_session_id?.equals(session._id) === true);
  return live ? session.expires_at : null;
}

/** Expired sessions, sign-in codes and reset tokens, for the maintenance sweep. */
export async function sweepExpiredCredentials(platform: Pick<Platform, 'db' | 'clock'>): Promise<number> {
  const expired = { expires_at: { $lte: platform.clock.now() } };
  const results = await Promise.all([
    sessions(platform.db).deleteMany(expired),
    signinCodes(platform.db).deleteMany(expired),
    passwordResets(platform.db).deleteMany(expired),
  ]);
  return results.reduce((n, r) => n + r.deletedCount, 0);
}
