import type { GiftCardDocument } from './models.js';

/** The card as the API shows it: never the code or its hash. */
export const presentGiftCard = (g: GiftCardDocument) => ({
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
export type GiftCardView = ReturnType<typeof presentGiftCard>;
