import type { GiftCardDocument } from './models.js';
import { stamps } from '../allow-list.js';

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
  ...stamps(g),
  disabled_at: g.disabled_at ? g.disabled_at.toISOString() : null,
});
export type GiftCardView = ReturnType<typeof presentGiftCard>;
