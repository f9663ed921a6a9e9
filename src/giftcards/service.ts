import { ObjectId } from 'mongodb';
import { getCustomer } from '../customers/index.js';
import { isDuplicateKeyError } from '../db.js';
import { PlatformError, invalidInput, notFound } from '../errors.js';
import { afterCursor, pageOf } from '../pagination.js';
import type { Platform } from '../platform.js';
import { keyedHash } from '../secrets/index.js';
import { lockStoreCurrency } from '../stores/index.js';
import { MERCHANT_CODE, generateCode, groupCode, normalizeCode } from './code.js';
import { presentGiftCard, type GiftCardView } from './present.js';
import type { CreateGiftCardBody, ListGiftCardsQuery } from './schemas.js';
import { giftCards, type GiftCardDocument } from './store.js';
import { parseObjectId } from '../ids.js';

const CODE_PURPOSE = 'giftcards.code';
const GENERATE_ATTEMPTS = 3;

export type CreatedGiftCard = GiftCardView & { code: string };


/**
 * The code's lookup hash under the current secrets key. Lookups hash with the current key
 * only, so rotating SECRETS_KEYS needs a re-hash of stored codes (docs/giftcards.md).
 */
const hashCode = (platform: Platform, normalized: string) => keyedHash(platform.config.secretsKeys, CODE_PURPOSE, normalized);

const todayUtc = (now: Date) => now.toISOString().slice(0, 10);

/** 00:00 UTC of the day after `expiresOn`: the card works through the whole of its last day. */
function expiryInstant(expiresOn: string): Date {
  const day = new Date(`${expiresOn}T00:00:00.000Z`);
  return new Date(day.getTime() + 24 * 60 * 60 * 1000);
}

const isExpired = (doc: GiftCardDocument, now: Date) => doc.expires_at !== null && doc.expires_at <= now;

/** A customer id given with a card must be a customer of the store: otherwise 400 at `path`, nothing written. */
async function checkCustomer(platform: Platform, storeId: string, customerId: string, path: string): Promise<void> {
  try {
    await getCustomer(platform, storeId, customerId);
  } catch (err) {
    if (err instanceof PlatformError && err.kind === 'not_found') throw invalidInput([{ path, message: 'is not a customer of this store' }]);
    throw err;
  }
}

/**
 * Issue a card in the store's currency. The full code is in this response only; the database
 * keeps its keyed hash and last four characters.
 */
export async function createGiftCard(platform: Platform, store: { id: string; currency: string }, input: CreateGiftCardBody): Promise<CreatedGiftCard> {
  const now = platform.clock.now();
  const expiresOn = input.expires_on ?? null;
  if (expiresOn !== null && expiresOn <= todayUtc(now)) {
    throw invalidInput([{ path: 'expires_on', message: 'must be a date after today (UTC)' }]);
  }
  if (input.customer_id) await checkCustomer(platform, store.id, input.customer_id, 'customer_id');
  // A balance in the store's currency: from now on the store keeps that currency.
  await lockStoreCurrency(platform, store);
  for (let attempt = 1; ; attempt++) {
    const normalized = input.code ?? generateCode();
    const doc: GiftCardDocument = {
      _id: new ObjectId(),
      store_id: new ObjectId(store.id),
      code_hash: hashCode(platform, normalized),
      last_characters: normalized.slice(-4),
      initial_value: input.initial_value,
      balance: input.initial_value,
      currency: store.currency,
      status: 'active',
      expires_on: expiresOn,
      expires_at: expiresOn === null ? null : expiryInstant(expiresOn),
      note: input.note || null,
      customer_id: input.customer_id ?? null,
      version: 1,
      created_at: now,
      updated_at: now,
      disabled_at: null,
    };
    try {
      await giftCards(platform.db).insertOne(doc);
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      if (input.code !== undefined) throw new PlatformError('conflict', 'gift_card_code_taken', 'This store already has a gift card with that code');
      // 80 random bits make a collision all but impossible; try again rather than fail.
      if (attempt >= GENERATE_ATTEMPTS) throw err;
      continue;
    }
    const view = presentGiftCard(doc);
    await platform.events.emit('gift_card.created', doc.store_id, { gift_card: view }, `gift_card.created:${view.id}`);
    return { ...view, code: input.code === undefined ? groupCode(normalized) : normalized };
  }
}

export async function listGiftCards(platform: Platform, storeId: string, query: ListGiftCardsQuery): Promise<{ items: GiftCardView[]; nextCursor: string | null }> {
  const docs = await giftCards(platform.db)
    .find({ store_id: new ObjectId(storeId), ...(query.status ? { status: query.status } : {}), ...afterCursor(query) })
    .sort({ _id: 1 })
    .limit(query.limit + 1)
    .toArray();
  const { items, nextCursor } = pageOf(docs, query.limit);
  return { items: items.map(presentGiftCard), nextCursor };
}

async function findGiftCard(platform: Platform, storeId: string, giftCardId: string): Promise<GiftCardDocument | null> {
  const id = parseObjectId(giftCardId);
  return id ? giftCards(platform.db).findOne({ _id: id, store_id: new ObjectId(storeId) }) : null;
}

export async function getGiftCard(platform: Platform, storeId: string, giftCardId: string): Promise<GiftCardView> {
  const doc = await findGiftCard(platform, storeId, giftCardId);
  if (!doc) throw notFound('Gift card');
  return presentGiftCard(doc);
}

/** Disabling is final and idempotent: disabling a disabled card returns it unchanged and emits nothing. */
export async function disableGiftCard(platform: Platform, storeId: string, giftCardId: string): Promise<GiftCardView> {
  const id = parseObjectId(giftCardId);
  if (!id) throw notFound('Gift card');
  const now = platform.clock.now();
  const doc = await giftCards(platform.db).findOneAndUpdate(
    { _id: id, store_id: new ObjectId(storeId), status: 'active' },
    { $set: { status: 'disabled', disabled_at: now, updated_at: now }, $inc: { version: 1 } },
    { returnDocument: 'after' },
  );
  if (!doc) return getGiftCard(platform, storeId, giftCardId);
  const view = presentGiftCard(doc);
  await platform.events.emit('gift_card.disabled', doc.store_id, { gift_card: view }, `gift_card.disabled:${view.id}:v${doc.version}`);
  return view;
}

/**
 * The store's card with this code (any spacing, dashes or case), whatever its status or
 * expiry, or null. For the checkout.
 */
export async function findGiftCardByCode(platform: Platform, storeId: string, code: string): Promise<GiftCardView | null> {
  const normalized = normalizeCode(code);
  if (!MERCHANT_CODE.test(normalized) || !parseObjectId(storeId)) return null;
  const doc = await giftCards(platform.db).findOne({ store_id: new ObjectId(storeId), code_hash: hashCode(platform, normalized) });
  return doc ? presentGiftCard(doc) : null;
}

/**
 * Take `amount` (minor units) off a card in one conditional update: it happens only if the
 * card is active, not expired and holds at least `amount`, so concurrent debits can never
 * take the balance below zero. Returns the new balance.
 */
export async function debitGiftCard(platform: Platform, storeId: string, giftCardId: string, amount: number): Promise<number> {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new PlatformError('invalid_data', 'invalid_amount', 'A debit is a positive integer amount in minor units');
  const id = parseObjectId(giftCardId);
  if (!id || !parseObjectId(storeId)) throw notFound('Gift card');
  const now = platform.clock.now();
  const storeObjectId = new ObjectId(storeId);
  const doc = await giftCards(platform.db).findOneAndUpdate(
    { _id: id, store_id: storeObjectId, status: 'active', balance: { $gte: amount }, $or: [{ expires_at: null }, { expires_at: { $gt: now } }] },
    { $inc: { balance: -amount, version: 1 }, $set: { updated_at: now } },
    { returnDocument: 'after' },
  );
  if (!doc) {
    const current = await giftCards(platform.db).findOne({ _id: id, store_id: storeObjectId });
    if (!current) throw notFound('Gift card');
    if (current.status === 'disabled') throw new PlatformError('conflict', 'gift_card_disabled', 'This gift card is disabled');
    if (isExpired(current, now)) throw new PlatformError('conflict', 'gift_card_expired', 'This gift card has expired');
    throw new PlatformError('conflict', 'insufficient_balance', 'The gift card balance is lower than the amount');
  }
  const view = presentGiftCard(doc);
  await platform.events.emit('gift_card.debited', doc.store_id, { gift_card: view, amount }, `gift_card.debited:${view.id}:v${doc.version}`);
  return doc.balance;
}
