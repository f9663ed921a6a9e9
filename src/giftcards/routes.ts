import type Router from '@koa/router';
import { z } from 'zod';
import type { AppState } from '../http/context.js';
import { idempotent } from '../http/idempotency.js';
import { storeScopedRouter } from '../http/scoped.js';
import { parseInput } from '../http/validate.js';
import type { Platform } from '../platform.js';
import { CreateGiftCardBody, ListGiftCardsQuery } from './schemas.js';
import { createGiftCard, disableGiftCard, getGiftCard, listGiftCards } from './service.js';

const NoQuery = z.strictObject({});

/**
 * /v1/products/gift-cards: a store's gift cards. Mounted at its own prefix, before the
 * products router, so its store check runs only for its own paths.
 */
export function giftCardRoutes(platform: Platform): Router<AppState> {
  const router = storeScopedRouter(platform);

  router.get('/', async (ctx) => {
    const query = parseInput(ListGiftCardsQuery, ctx.query, 'query');
    const { items, nextCursor } = await listGiftCards(platform, ctx.state.store!.id, query);
    ctx.body = { data: items, page: { next_cursor: nextCursor } };
  });

  router.post('/', idempotent(platform), async (ctx) => {
    const body = parseInput(CreateGiftCardBody, ctx.request.body, 'body');
    ctx.status = 201;
    ctx.body = { data: await createGiftCard(platform, ctx.state.store!, body) };
  });

  router.get('/:id', async (ctx) => {
    parseInput(NoQuery, ctx.query, 'query');
    ctx.body = { data: await getGiftCard(platform, ctx.state.store!.id, ctx.params.id!) };
  });

  router.post('/:id/disable', async (ctx) => {
    parseInput(NoQuery, ctx.query, 'query');
    parseInput(NoQuery, ctx.request.body, 'body');
    ctx.body = { data: await disableGiftCard(platform, ctx.state.store!.id, ctx.params.id!) };
  });

  return router;
}
