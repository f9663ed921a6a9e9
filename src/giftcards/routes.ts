import type { AppRouter } from '../http/context.js';
import { routes, storeScoped } from '../http/endpoint.js';
import type { Platform } from '../platform.js';
import { CreateGiftCardBody, ListGiftCardsQuery } from './schemas.js';
import { createGiftCard, disableGiftCard, getGiftCard, listGiftCards } from './service.js';

const read = storeScoped('read_gift_cards');
const write = storeScoped('write_gift_cards');

/** /v1/products/gift-cards: a store's gift cards (mounted before the product routes, whose `/:id` would match it). */
export function giftCardRoutes(platform: Platform): AppRouter {
  const on = routes(platform);

  on.get('/', { access: read, query: ListGiftCardsQuery, respond: 'page' }, ({ store, query }) => listGiftCards(platform, store.id, query));

  // The whole store, not its id: a card is issued in the store's currency.
  on.post('/', { access: write, body: CreateGiftCardBody, idempotent: true, status: 201 }, ({ store, body }) => createGiftCard(platform, store, body));

  on.get('/:id', { access: read }, ({ store, params }) => getGiftCard(platform, store.id, params.id));

  on.post('/:id/disable', { access: write }, ({ store, params }) => disableGiftCard(platform, store.id, params.id));

  return on.router;
}
