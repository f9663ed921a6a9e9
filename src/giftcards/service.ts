import { ObjectId } from 'mongodb';
import { dayOf } from '../clock.js';
import { getCustomer } from '../customers/index.js';
import { findInStore, isDuplicateKeyError } from '../db.js';
import { PlatformError, invalidInput, notFound } from '../errors.js';
import { findViewPage, type Page } from '../pagination.js';
import type { Platform } from '../platform.js';
import { keyedHash } from '../secrets/index.js';
import { lockStoreCurrency } from '../stores/index.js';
import { MERCHANT_CODE, generateCode, groupCode, normalizeCode } from './code.js';
import { presentGiftCard, type GiftCardView } from './present.js';
import type { CreateGiftCardBody, ListGiftCardsQuery } from './schemas.js';
import { giftCards, type GiftCardDocument } from './models.js';
import { carried, carrying } from '../events/index.js';
import { parseObjectId } from '../ids.js';

const CODE_PURPOSE = 'giftcards.code';
const GENERATE_ATTEMPTS = 3;
/** Reads and conditional writes of one change before 409 gift_card_busy. */
const WRITE_ATTEMPTS = 5;

const giftCardBusy = () => new PlatformError('conflict', 'gift_card_busy', 'The gift card kept changing while this change was applied; try again');

export type CreatedGiftCard = GiftCardView & { code: string };

/**
 * The code's lookup hash under the current secrets key. Lookups hash with the current key
 * only, so rotating SECRETS_KEYS needs a re-hash of stored codes (docs/giftcards.md).
 */
const hashCode = (platform: Platform, normalized: string) => keyedHash(platform.config.secretsKeys, CODE_PURPOSE, normalized);

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
  if (expiresOn !== null && expiresOn <= dayOf(now)) {
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
    const view = presentGiftCard(doc);
    const pending = [platform.events.pending('gift_card.created', doc.store_id, { gift_card: view }, `gift_card.created:${view.id}`)];
    try {
      await giftCards(platform.db).insertOne({ ...doc, ...carried(pending) });
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      if (input.code !== undefined) throw new PlatformError('conflict', 'gift_card_code_taken', 'This store already has a gift card with that code');
      // 80 random bits make a collision all but impossible; try again rather than fail.
      if (attempt >= GENERATE_ATTEMPTS) throw err;
      continue;
    }
    await platform.events.settle(giftCards(platform.db), doc._id, pending);
    return { ...view, code: input.code === undefined ? groupCode(normalized) : normalized };
  }
}

export async function listGiftCards(
  platform: Platform,
  storeId: string,
  query: ListGiftCardsQuery & Pick<Page, 'backwards'>,
): Promise<{ items: GiftCardView[]; nextCursor: string | null }> {
  const filter = { store_id: new ObjectId(storeId), ...(query.status ? { status: query.status } : {}) };
  return findViewPage(giftCards(platform.db), filter, query, presentGiftCard);
}

export async function getGiftCard(platform: Platform, storeId: string, giftCardId: string): Promise<GiftCardView> {
  const doc = await findInStore(giftCards(platform.db), storeId, giftCardId, 'Gift card');
  return presentGiftCard(doc);
}

/** Disabling is final and idempotent: disabling a disabled card returns it unchanged and emits nothing. */
export async function disableGiftCard(platform: Platform, storeId: string, giftCardId: string): Promise<GiftCardView> {
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    const current = await findInStore(giftCards(platform.db), storeId, giftCardId, 'Gift card');
    if (current.status !== 'active') return presentGiftCard(current);
    const now = platform.clock.now();
    const set = { status: 'disabled' as const, disabled_at: now, updated_at: now };
    // Conditional on the version read: the card as it becomes is known now, and its event travels with the write.
    const view = presentGiftCard({ ...current, ...set, version: current.version + 1 });
    const pending = [
      platform.events.pending('gift_card.disabled', current.store_id, { gift_card: view }, `gift_card.disabled:${view.id}:v${current.version + 1}`),
    ];
    const result = await giftCards(platform.db).updateOne(
      { _id: current._id, store_id: current.store_id, status: 'active', version: current.version },
      carrying({ $set: set, $inc: { version: 1 } }, pending),
    );
    if (result.matchedCount === 0) continue;
    await platform.events.settle(giftCards(platform.db), current._id, pending);
    return view;
  }
  throw giftCardBusy();
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
 * Take `amount` (minor units) off a card: read it, refuse unless it is active, not expired and
 * holds at least `amount`, then write the new balance on the condition that the card is still
 * the version read (and still active, unexpired and holding enough), so concurrent debits can
 * never take the balance below zero, and the card as the debit leaves it (its event's payload)
 * is known before the write. A debit that loses a race (to another process: this one debits a
 * card one at a time) reads again (409 gift_card_busy after WRITE_ATTEMPTS). Returns the new balance.
 */
export async function debitGiftCard(platform: Platform, storeId: string, giftCardId: string, amount: number): Promise<number> {
  if (!Number.isSafeInteger(amount) || amount <= 0)
    throw new PlatformError('invalid_data', 'invalid_amount', 'A debit is a positive integer amount in minor units');
  if (!parseObjectId(giftCardId) || !parseObjectId(storeId)) throw notFound('Gift card');
  return oneDebitAtATime(giftCardId, () => debitOnce(platform, storeId, giftCardId, amount));
}

/**
 * Debits of one card in this process, one after another: only one debit per version read can
 * be written, so debits racing in one process would only take turns losing (a checkout burst
 * on one card would run out of attempts). Debits from other processes still race, on the version.
 */
const debitsInFlight = new Map<string, Promise<unknown>>();
function oneDebitAtATime<T>(giftCardId: string, run: () => Promise<T>): Promise<T> {
  const mine = (debitsInFlight.get(giftCardId) ?? Promise.resolve()).then(run);
  const settled = mine.then(
    () => undefined,
    () => undefined,
  );
  debitsInFlight.set(giftCardId, settled);
  void settled.then(() => {
    if (debitsInFlight.get(giftCardId) === settled) debitsInFlight.delete(giftCardId);
  });
  return mine;
}

async function debitOnce(platform: Platform, storeId: string, giftCardId: string, amount: number): Promise<number> {
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    const now = platform.clock.now();
    const current = await findInStore(giftCards(platform.db), storeId, giftCardId, 'Gift card');
    if (current.status === 'disabled') throw new PlatformError('conflict', 'gift_card_disabled', 'This gift card is disabled');
    if (isExpired(current, now)) throw new PlatformError('conflict', 'gift_card_expired', 'This gift card has expired');
    if (current.balance < amount) throw new PlatformError('conflict', 'insufficient_balance', 'The gift card balance is lower than the amount');
    const next: GiftCardDocument = { ...current, balance: current.balance - amount, updated_at: now, version: current.version + 1 };
    const view = presentGiftCard(next);
    const pending = [
      platform.events.pending('gift_card.debited', current.store_id, { gift_card: view, amount }, `gift_card.debited:${view.id}:v${next.version}`),
    ];
    const result = await giftCards(platform.db).updateOne(
      {
        _id: current._id,
        store_id: current.store_id,
        version: current.version,
        status: 'active',
        balance: { $gte: amount },
        $or: [{ expires_at: null }, { expires_at: { $gt: now } }],
      },
      carrying({ $inc: { balance: -amount, version: 1 }, $set: { updated_at: now } }, pending),
    );
    if (result.matchedCount === 0) continue;
    await platform.events.settle(giftCards(platform.db), current._id, pending);
    return next.balance;
  }
  throw giftCardBusy();
}
