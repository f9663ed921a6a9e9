import type { Module } from '../module.js';
import { GIFTCARDS_ERROR_CODES } from './errors.js';
import { GIFTCARDS_EVENT_TYPES } from './events.js';
import { giftCardRoutes } from './routes.js';
import { GIFT_CARDS, giftCardIndexes } from './models.js';
export { createGiftCard, findGiftCardByCode, debitGiftCard, disableGiftCard, getGiftCard, listGiftCards } from './service.js';
export { CreateGiftCardBody, ListGiftCardsQuery } from './schemas.js';
export type { GiftCardView } from './present.js';

/** Gift cards: /v1/products/gift-cards. */
export const giftCardsModule: Module = {
  name: 'giftcards',
  errorCodes: GIFTCARDS_ERROR_CODES,
  indexes: giftCardIndexes,
  routes: [{ path: '/v1/products/gift-cards', router: giftCardRoutes }],
  eventCarriers: [GIFT_CARDS],
  eventTypes: GIFTCARDS_EVENT_TYPES,
};
