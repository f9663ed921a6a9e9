export { findGiftCardByCode, debitGiftCard } from './service.js';
export type { GiftCardView } from './present.js';
export { giftCardIndexes } from './store.js';
