import type { Module } from '../module.js';
import { giftCardRoutes } from './routes.js';
import { GIFT_CARDS, giftCardIndexes } from './store.js';
export { findGiftCardByCode, debitGiftCard } from './service.js';
export type { GiftCardView } from './present.js';

/** Gift cards: /v1/products/gift-cards. */
export const giftCardsModule: Module = {
  name: 'giftcards',
  indexes: giftCardIndexes,
  routes: [{ path: '/v1/products/gift-cards', router: giftCardRoutes }],
  eventCarriers: [GIFT_CARDS],
  eventTypes: ['gift_card.created', 'gift_card.debited', 'gift_card.disabled'],
};
