import { ObjectId } from 'mongodb';
import { PlatformError } from '../errors.js';
import { parseObjectId } from '../ids.js';
import { sendMessage } from '../messages/index.js';
import { sendAccountNotification } from '../notifications/index.js';
import type { Platform } from '../platform.js';
import { consumeRateLimit } from '../ratelimit/index.js';
import { decoyPasswordHash, generateToken, hashPassword, hashToken, verifyPassword } from '../secrets/index.js';
import { findStoreBySubdomain } from '../stores/index.js';
import { dropActivations, sendActivation, takeActivation } from './activation.js';
import { presentAccount, type AccountView } from './present.js';
import { createCustomer } from './service.js';
import { customerActivations, customerPasswordResets, customers, customerSessions, type CustomerAccount, type CustomerDocument } from './models.js';

/** Customer session tokens: `emp_cs_` + 256 random bits; only the SHA-256 is stored. */
export const CUSTOMER_SESSION_PREFIX = 'emp_cs';
const RESET_PREFIX = 'emp_csreset';
export const CUSTOMER_SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const CUSTOMER_RESET_TTL_MS = 60 * 60 * 1000;

/**
 * As merchant sign-in (src/auth/service.ts), per (store, email) and per client IP in fixed
 * 15-minute windows. Every attempt counts, so the per-email limit is the lockout: after 10
 * sign-ins for one email of one store in a window, the 11th is 429 whatever the password,
 * until the window ends. docs/customer-accounts.md lists them.
 */
const WINDOW = 15 * 60;
const LIMITS = {
  signup: { email: 5, ip: 50 },
  login: { email: 10, ip: 100 },
  resetRequest: { email: 5, ip: 30 },
  passwordUpdate: { email: 10, ip: 30 },
  // A 256-bit token names its account: there is nothing to guess per account, so per IP only.
  activate: { ip: 30 },
} as const;

export type Caller = { ip: string };

/**
 * The orders domain's part in a proven email (docs/customer-accounts.md, "Guest orders"): given by
 * src/modules.ts and the shop, as the customers domain may not import orders. `known`: the store
 * has orders of the email without a customer (a sign-up for it then needs proof); `claim`: they
 * become the customer's, once the email is proven.
 */
export type GuestOrderLinks = {
  known(platform: Platform, storeId: string, email: string): Promise<boolean>;
  claim(platform: Platform, storeId: string, customerId: string, email: string): Promise<number>;
};

function limitBy(action: keyof typeof LIMITS, account: string | null, caller: Caller) {
  const limits: { email?: number; ip: number } = LIMITS[action];
  return [
    ...(account && limits.email ? [{ bucket: `customer.${action}:account:${account}`, limit: limits.email, windowSeconds: WINDOW }] : []),
    { bucket: `customer.${action}:ip:${caller.ip}`, limit: limits.ip, windowSeconds: WINDOW },
  ];
}

const invalidCredentials = () => new PlatformError('unauthenticated', 'invalid_credentials', 'The email or password is wrong');
const invalidResetToken = () => new PlatformError('unauthenticated', 'invalid_reset_token', 'The reset token is wrong, used or expired');
const invalidActivationToken = () =>
  new PlatformError('unauthenticated', 'invalid_activation_token', 'The activation token is wrong, used, expired or superseded');

/** Sign-up's one answer, for a new email and for one the store already knows alike. */
export const CUSTOMER_SIGNUP_ACCEPTED = {
  accepted: true,
  message:
    'Sign-up received: log in with your email and password. If the store already knew the email (an account, an earlier order), a message is on its way to it instead, to prove the email is yours',
} as const;

/** Credentials for a new account: a fresh epoch, no session carried over. */
const newAccount = (passwordHash: string, now: Date): CustomerAccount => ({
  password_hash: passwordHash,
  password_updated_at: now,
  auth_epoch: new ObjectId().toHexString(),
  auth_epoch_session_id: null,
  created_at: now,
});

export type SignUpInput = { subdomain: string; email: string; password: string; first_name?: string | null | undefined; last_name?: string | null | undefined };

/**
 * Give a new email an account in a store: a new customer with its account in one write. An
 * email the store already knows gains no access from a sign-up: a customer record without an
 * account (the merchant's, from an order or an import) is sent an activation token to its email
 * (activation.ts), and the account is opened only with it, the password chosen there; an email
 * with an account changes nothing and its owner is told by message. The answer is the same in
 * every case, and for an unknown store too, so sign-up reveals neither which emails a store knows
 * nor which stores exist; every path hashes the password and writes once or twice, so they take
 * about as long.
 */
export async function signUpCustomer(
  platform: Platform,
  input: SignUpInput,
  caller: Caller,
  guestOrders: GuestOrderLinks,
): Promise<typeof CUSTOMER_SIGNUP_ACCEPTED> {
  const store = await findStoreBySubdomain(platform, input.subdomain);
  await consumeRateLimit(platform, limitBy('signup', store ? `${store.id}:${input.email}` : null, caller));
  const account = newAccount(await hashPassword(input.password), platform.clock.now());
  if (!store) return CUSTOMER_SIGNUP_ACCEPTED;
  const storeId = new ObjectId(store.id);
  // An email of the store's guest orders is known too: its record is made without an account, and opened only by activation (which claims the orders).
  const knownByOrders = await guestOrders.known(platform, store.id, input.email);
  // Twice at most: a known email renamed by the merchant between the insert and the read is new on the second round.
  for (let round = 0; round < 2; round++) {
    try {
      const fields = { email: input.email, first_name: input.first_name ?? null, last_name: input.last_name ?? null, accepts_marketing: false, tags: [] };
      const created = await createCustomer(platform, store, fields, knownByOrders ? null : account);
      if (!knownByOrders) {
        platform.log.info({ event: 'customers.account_created', store_id: store.id, customer_id: created.id });
        return CUSTOMER_SIGNUP_ACCEPTED;
      }
    } catch (err) {
      if (!(err instanceof PlatformError && err.code === 'email_taken')) throw err;
    }
    const existing = await customers(platform.db).findOne({ store_id: storeId, email: input.email });
    if (!existing) continue;
    if (existing.account) {
      await sendMessage(platform, {
        kind: 'account_exists',
        to: input.email,
        from: store.email_sender,
        subject: `Someone tried to sign up at ${store.name} with your email`,
        text:
          `Someone (perhaps you) tried to create an account at ${store.name} for ${input.email}, which already has one. Nothing was changed.\n\n` +
          `If it was you, log in with your password, or reset it (POST /v1/storefront/customer/password/reset).\nIf it was not you, you can ignore this message.`,
      });
      platform.log.info({ event: 'customers.signup_for_existing_account', store_id: store.id });
      return CUSTOMER_SIGNUP_ACCEPTED;
    }
    // The password given here is dropped: the account opens with the one chosen at activation.
    await sendActivation(platform, store, existing, 'signup');
    platform.log.info({ event: 'customers.signup_for_known_customer', store_id: store.id, customer_id: existing._id.toHexString() });
    return CUSTOMER_SIGNUP_ACCEPTED;
  }
  throw new PlatformError('conflict', 'edit_conflict', 'The customer kept changing while the account was created; try again');
}

/**
 * Open the account of a customer record with an activation token (sign-up for a known email, or
 * the merchant's invite): the token proves the email, the password is set here, and a session
 * starts. One conditional write adds the account, only while the record has no account and
 * still has the email the token was sent to; the token is used up either way.
 */
export async function activateCustomerAccount(
  platform: Platform,
  input: { token: string; password: string; storeId?: string },
  caller: Caller,
  guestOrders: GuestOrderLinks,
): Promise<NewCustomerSession> {
  await consumeRateLimit(platform, limitBy('activate', null, caller));
  const activation = await takeActivation(platform, input.token, input.storeId);
  if (!activation) throw invalidActivationToken();
  const now = platform.clock.now();
  const account = newAccount(await hashPassword(input.password), now);
  const customer = await customers(platform.db).findOneAndUpdate(
    { _id: activation.customer_id, store_id: activation.store_id, email: activation.email, $or: [{ account: { $exists: false } }, { account: null }] },
    { $set: { account, updated_at: now } },
    { returnDocument: 'after' },
  );
  if (!customer) throw invalidActivationToken();
  await dropActivations(platform, customer._id);
  platform.log.info({
    event: 'customers.account_activated',
    store_id: customer.store_id.toHexString(),
    customer_id: customer._id.toHexString(),
    via: activation.via,
  });
  await guestOrders.claim(platform, customer.store_id.toHexString(), customer._id.toHexString(), customer.email);
  return startCustomerSession(platform, customer, account);
}

export type NewCustomerSession = { token: string; expires_at: string; customer: AccountView };

export async function logInCustomer(
  platform: Platform,
  input: { subdomain: string; email: string; password: string },
  caller: Caller,
): Promise<NewCustomerSession> {
  const store = await findStoreBySubdomain(platform, input.subdomain);
  await consumeRateLimit(platform, limitBy('login', `${store?.id ?? input.subdomain}:${input.email}`, caller));
  const customer = store ? await customers(platform.db).findOne({ store_id: new ObjectId(store.id), email: input.email }) : null;
  // Verify against a decoy when there is no account, so timing does not reveal which emails (or stores) have one.
  const account = customer?.account ?? null;
  const ok = await verifyPassword(input.password, account?.password_hash ?? (await decoyPasswordHash()));
  if (!customer || !account || !ok) throw invalidCredentials();
  return startCustomerSession(platform, customer, account);
}

async function startCustomerSession(platform: Platform, customer: CustomerDocument, account: CustomerAccount): Promise<NewCustomerSession> {
  const now = platform.clock.now();
  const { token, hash } = generateToken(CUSTOMER_SESSION_PREFIX);
  const expiresAt = new Date(now.getTime() + CUSTOMER_SESSION_TTL_MS);
  const sessionId = new ObjectId();
  await customerSessions(platform.db).insertOne({
    _id: sessionId,
    store_id: customer.store_id,
    customer_id: customer._id,
    token_hash: hash,
    // Read with the password that was checked: a change since then makes it dead on arrival.
    auth_epoch: account.auth_epoch,
    created_at: now,
    expires_at: expiresAt,
  });
  platform.log.info({
    event: 'customers.session_started',
    store_id: customer.store_id.toHexString(),
    customer_id: customer._id.toHexString(),
    session_id: sessionId.toHexString(),
  });
  return { token, expires_at: expiresAt.toISOString(), customer: presentAccount(customer) };
}

export type AuthenticatedCustomer = { customerId: string; storeId: string; sessionId: string };

/** A bearer token to its live customer session, or null: expired, logged out, or issued before the password last changed. */
export async function authenticateCustomerSession(platform: Platform, token: string): Promise<AuthenticatedCustomer | null> {
  if (!token.startsWith(`${CUSTOMER_SESSION_PREFIX}_`) || token.length > 200) return null;
  const session = await customerSessions(platform.db).findOne({ token_hash: hashToken(token), expires_at: { $gt: platform.clock.now() } });
  if (!session) return null;
  const customer = await customers(platform.db).findOne({ _id: session.customer_id, store_id: session.store_id }, { projection: { account: 1 } });
  const account = customer?.account;
  const live = account && (account.auth_epoch === session.auth_epoch || account.auth_epoch_session_id?.equals(session._id) === true);
  return live ? { customerId: session.customer_id.toHexString(), storeId: session.store_id.toHexString(), sessionId: session._id.toHexString() } : null;
}

export async function logOutCustomer(platform: Platform, session: AuthenticatedCustomer): Promise<void> {
  await customerSessions(platform.db).deleteOne({ _id: new ObjectId(session.sessionId), customer_id: new ObjectId(session.customerId) });
}

/** The signed-in customer's own record. */
export async function loadAccountHolder(platform: Pick<Platform, 'db'>, storeId: string, customerId: string): Promise<CustomerDocument> {
  const id = parseObjectId(customerId);
  const doc = id ? await customers(platform.db).findOne({ _id: id, store_id: new ObjectId(storeId) }) : null;
  // The session was live a moment ago: a record gone since is a session gone.
  if (!doc?.account)
    throw new PlatformError('unauthenticated', 'unauthenticated', 'A valid customer session is required (Authorization: Bearer <customer token>)');
  return doc;
}

export async function getAccount(platform: Platform, storeId: string, customerId: string): Promise<AccountView> {
  return presentAccount(await loadAccountHolder(platform, storeId, customerId));
}

/** Answers the same whether or not the email has an account in that store. */
export async function requestCustomerPasswordReset(platform: Platform, input: { subdomain: string; email: string }, caller: Caller): Promise<void> {
  const store = await findStoreBySubdomain(platform, input.subdomain);
  await consumeRateLimit(platform, limitBy('resetRequest', `${store?.id ?? input.subdomain}:${input.email}`, caller));
  if (!store) return;
  const customer = await customers(platform.db).findOne({ store_id: new ObjectId(store.id), email: input.email });
  if (!customer?.account) return;
  const now = platform.clock.now();
  const { token, hash } = generateToken(RESET_PREFIX);
  // Only the newest reset token works.
  await customerPasswordResets(platform.db).deleteMany({ customer_id: customer._id });
  await customerPasswordResets(platform.db).insertOne({
    _id: new ObjectId(),
    store_id: customer.store_id,
    customer_id: customer._id,
    token_hash: hash,
    auth_epoch: customer.account.auth_epoch,
    created_at: now,
    expires_at: new Date(now.getTime() + CUSTOMER_RESET_TTL_MS),
  });
  await sendAccountNotification(platform, store, 'password_reset', customer.email, {
    token,
    valid_for: '60 minutes',
    instructions: 'Send it with your new password to POST /v1/storefront/customer/password/update as {"reset_token": "...", "new_password": "..."}.',
  });
}

export type CustomerPasswordUpdate =
  | { via: 'reset_token'; resetToken: string; newPassword: string }
  | { via: 'current_password'; session: AuthenticatedCustomer; currentPassword: string; newPassword: string };

/**
 * A new password, proven by a reset token or by the current password within a session. As for
 * merchants, one write conditional on the account as read sets the hash and a new epoch, so
 * every other session (all of them after a reset) and reset token is dead from that write on;
 * deleting them afterwards is clean-up.
 */
export async function updateCustomerPassword(
  platform: Platform,
  input: CustomerPasswordUpdate,
  caller: Caller,
  guestOrders: GuestOrderLinks,
): Promise<{ revoked_sessions: number }> {
  await consumeRateLimit(platform, limitBy('passwordUpdate', input.via === 'current_password' ? `customer:${input.session.customerId}` : null, caller));
  const now = platform.clock.now();
  let customer: CustomerDocument | null;
  let keepSession: ObjectId | null = null;
  if (input.via === 'reset_token') {
    const reset = await customerPasswordResets(platform.db).findOneAndDelete({ token_hash: hashToken(input.resetToken), expires_at: { $gt: now } });
    if (!reset) throw invalidResetToken();
    customer = await customers(platform.db).findOne({ _id: reset.customer_id, store_id: reset.store_id });
    if (!customer?.account || customer.account.auth_epoch !== reset.auth_epoch) throw invalidResetToken();
  } else {
    customer = await loadAccountHolder(platform, input.session.storeId, input.session.customerId);
    if (!(await verifyPassword(input.currentPassword, customer.account!.password_hash))) {
      throw new PlatformError('unauthenticated', 'invalid_credentials', 'The current password is wrong');
    }
    keepSession = new ObjectId(input.session.sessionId);
  }
  const current = customer.account!;
  const { matchedCount } = await customers(platform.db).updateOne(
    { _id: customer._id, store_id: customer.store_id, 'account.password_hash': current.password_hash, 'account.auth_epoch': current.auth_epoch },
    {
      $set: {
        'account.password_hash': await hashPassword(input.newPassword),
        'account.password_updated_at': now,
        'account.auth_epoch': new ObjectId().toHexString(),
        'account.auth_epoch_session_id': keepSession,
        updated_at: now,
      },
    },
  );
  if (matchedCount !== 1) {
    if (input.via === 'reset_token') throw invalidResetToken();
    throw new PlatformError('conflict', 'password_changed', 'The password was changed by another request meanwhile; nothing was changed by this one');
  }
  const { deletedCount } = await customerSessions(platform.db).deleteMany(
    keepSession ? { customer_id: customer._id, _id: { $ne: keepSession } } : { customer_id: customer._id },
  );
  await customerPasswordResets(platform.db).deleteMany({ customer_id: customer._id });
  // A reset token came by email: the email is proven, so the store's guest orders of it are the customer's.
  if (input.via === 'reset_token') await guestOrders.claim(platform, customer.store_id.toHexString(), customer._id.toHexString(), customer.email);
  platform.log.info({
    event: 'customers.password_updated',
    store_id: customer.store_id.toHexString(),
    customer_id: customer._id.toHexString(),
    via: input.via,
    revoked_sessions: deletedCount,
  });
  return { revoked_sessions: deletedCount };
}

/** Expired customer sessions, reset tokens and activation tokens, for the maintenance sweep of expired credentials. */
export async function sweepExpiredCustomerCredentials(platform: Pick<Platform, 'db' | 'clock'>): Promise<number> {
  const expired = { expires_at: { $lte: platform.clock.now() } };
  const results = await Promise.all([
    customerSessions(platform.db).deleteMany(expired),
    customerPasswordResets(platform.db).deleteMany(expired),
    customerActivations(platform.db).deleteMany(expired),
  ]);
  return results.reduce((n, r) => n + r.deletedCount, 0);
}
