import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../db.js';
import type { CarriesEvents } from '../events/index.js';

export const GIFT_CARDS = 'gift_cards';

export type GiftCardStatus = 'active' | 'disabled';

export type GiftCardDocument = {
  _id: ObjectId;
  store_id: ObjectId;
  /** keyedHash of the normalised code (`<key id>:<hex>`); the code itself is never stored. */
  code_hash: string;
  last_characters: string;
  initial_value: number;
  balance: number;
  currency: string;
  status: GiftCardStatus;
  /** The last day (UTC) on which the card can be used, `YYYY-MM-DD`, or null. */
  expires_on: string | null;
  /** The instant it stops working (00:00 UTC the day after expires_on): what queries compare. */
  expires_at: Date | null;
  note: string | null;
  customer_id: string | null;
  /** Incremented by every change; names the change in its event's idempotency key. */
  version: number;
  created_at: Date;
  updated_at: Date;
  disabled_at: Date | null;
} & CarriesEvents;

export const giftCardIndexes: IndexDeclaration[] = [
  {
    collection: GIFT_CARDS,
    indexes: [
      { key: { store_id: 1, code_hash: 1 }, name: 'store_id_code_hash_unique', unique: true },
      { key: { store_id: 1, _id: 1 }, name: 'store_id_id' },
      { key: { store_id: 1, status: 1, _id: 1 }, name: 'store_id_status_id' },
    ],
  },
];

export const giftCards = (db: Db) => db.collection<GiftCardDocument>(GIFT_CARDS);
