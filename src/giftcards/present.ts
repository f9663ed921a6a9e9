import type { GiftCardDocument, GiftCardStatus } from './store.js';

export type GiftCardView = {
  id: string;
  last_characters: string;
  initial_value: number;
  balance: number;
  currency: string;
  status: GiftCardStatus;
  expires_on: string | null;
  note: string | null;
  customer_id: string | null;
  created_at: string;
  updated_at: string;
  disabled_at: string | null;
};

/** The card as the API shows it: never the code or its hash. */
export const presentGiftCard = (g: GiftCardDocument): GiftCardView => ({
  id: g._id.toHexString(),
  last_characters: g.last_characters,
  initial_value: g.initial_value,
  balance: g.balance,
  currency: g.currency,
  status: g.status,
  expires_on: g.expires_on,
  note: g.note,
  customer_id: g.customer_id,
  created_at: g.created_at.toISOString(),
  updated_at: g.updated_at.toISOString(),
  disabled_at: g.disabled_at ? g.disabled_at.toISOString() : null,
});
