import { ObjectId } from 'mongodb';
import { isDuplicateKeyError } from '../db.js';
import { PlatformError } from '../errors.js';
import type { ScopedStore } from '../http/context.js';
import { sendAccountNotification } from '../notifications/index.js';
import type { Platform } from '../platform.js';
import { consumeRateLimit } from '../ratelimit/index.js';
import { generateToken, hashToken } from '../secrets/index.js';
import { loadCustomer } from './service.js';
import { customerActivations, type CustomerActivationDocument, type CustomerDocument } from './models.js';

/**
 * Activation of a customer record that has no account (docs/customer-accounts.md, "Emails the
 * store already knows"). A record the merchant has (an import, an order) holds personal data,
 * so an account is added to it only by whoever proves its email: the holder of a one-time token
 * sent to that email, who sets the password with it (POST /v1/storefront/customer/activate).
 * A storefront sign-up for the email sends one, and so does the merchant's invite.
 */

/** Activation tokens: `emp_csact_` + 256 random bits; only the SHA-256 is stored. */
export const ACTIVATION_PREFIX = 'emp_csact';
/** How long a token works: the sign-up's reader is waiting for it; an invite arrives unasked and may be read days later. */
export const ACTIVATION_TTL: Readonly<Record<CustomerActivationDocument['via'], { ms: number; words: string }>> = {
  signup: { ms: 24 * 60 * 60 * 1000, words: '24 hours' },
  invite: { ms: 7 * 24 * 60 * 60 * 1000, words: '7 days' },
};
/** Invites of one customer, per store: each sends an email, so an app or a merchant cannot flood a mailbox. */
const INVITE_LIMIT = { limit: 5, windowSeconds: 60 * 60 };

const ACTIVATE_ROUTE = 'POST /v1/storefront/customer/activate';

/**
 * A new activation token for a customer without an account, sent to the record's email. It
 * replaces any earlier one of the customer (one document per customer), so only the newest works.
 */
export async function sendActivation(
  platform: Platform,
  store: ScopedStore,
  customer: CustomerDocument,
  via: CustomerActivationDocument['via'],
): Promise<{ expires_at: Date }> {
  const now = platform.clock.now();
  const { token, hash } = generateToken(ACTIVATION_PREFIX);
  const expiresAt = new Date(now.getTime() + ACTIVATION_TTL[via].ms);
  const fields = { store_id: customer.store_id, email: customer.email, token_hash: hash, via, created_at: now, expires_at: expiresAt };
  try {
    await customerActivations(platform.db).updateOne({ customer_id: customer._id }, { $set: fields, $setOnInsert: { _id: new ObjectId() } }, { upsert: true });
  } catch (err) {
    // Two at once for one customer: the other inserted it first; this one replaces it all the same.
    if (!isDuplicateKeyError(err)) throw err;
    await customerActivations(platform.db).updateOne({ customer_id: customer._id }, { $set: fields });
  }
  const how = `An app opens the account instead by sending the token with a password to ${ACTIVATE_ROUTE} as {"token": "...", "password": "..."}.`;
  await sendAccountNotification(platform, store, via === 'signup' ? 'account_activation' : 'account_invite', customer.email, {
    token,
    valid_for: ACTIVATION_TTL[via].words,
    instructions: how,
  });
  platform.log.info({ event: 'customers.activation_sent', store_id: customer.store_id.toHexString(), customer_id: customer._id.toHexString(), via });
  return { expires_at: expiresAt };
}

/** A live activation by its token (of this store's customer, when `storeId` is given: the shop's), taken out of service (single use: whoever takes it first), or null. */
export async function takeActivation(platform: Pick<Platform, 'db' | 'clock'>, token: string, storeId?: string): Promise<CustomerActivationDocument | null> {
  if (!token.startsWith(`${ACTIVATION_PREFIX}_`) || token.length > 200) return null;
  const store = storeId ? { store_id: new ObjectId(storeId) } : {};
  return customerActivations(platform.db).findOneAndDelete({ token_hash: hashToken(token), expires_at: { $gt: platform.clock.now() }, ...store });
}

export async function dropActivations(platform: Pick<Platform, 'db'>, customerId: ObjectId): Promise<void> {
  await customerActivations(platform.db).deleteMany({ customer_id: customerId });
}

export type InviteView = { customer_id: string; sent_to: string; expires_at: string };

/**
 * `POST /v1/customers/:id/invite`: the merchant (or an app with write_customers) invites a
 * customer of the store who has no account to open one. A customer with an account is a
 * conflict (they log in, or reset their password).
 */
export async function inviteCustomer(platform: Platform, store: ScopedStore, customerId: string): Promise<InviteView> {
  const customer = await loadCustomer(platform, store.id, customerId);
  if (customer.account) throw new PlatformError('conflict', 'account_exists', 'This customer already has an account: they log in, or reset their password');
  await consumeRateLimit(platform, [{ bucket: `customer.invite:customer:${customer._id.toHexString()}`, ...INVITE_LIMIT }]);
  const { expires_at } = await sendActivation(platform, store, customer, 'invite');
  return { customer_id: customer._id.toHexString(), sent_to: customer.email, expires_at: expires_at.toISOString() };
}
