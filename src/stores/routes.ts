import Router from '@koa/router';
import { z } from 'zod';
import type { AppState } from '../http/context.js';
import { requireMerchant, requireStore } from '../http/auth.js';
import { idempotent } from '../http/idempotency.js';
import { parseInput } from '../http/validate.js';
import { PageQuery } from '../pagination.js';
import type { Platform } from '../platform.js';
import { CreateStoreBody, UpdateStoreBody } from './schemas.js';
import { createStore, getStore, listStores, updateStore } from './service.js';

const ListQuery = PageQuery.strict();
const NoQuery = z.strictObject({});

/** /v1/stores: a merchant's stores. */
export function storeRoutes(platform: Platform): Router<AppState> {
  const router = new Router<AppState>();
  router.use(requireMerchant(platform));

  router.post('/', idempotent(platform), async (ctx) => {
    const body = parseInput(CreateStoreBody, ctx.request.body, 'body');
    ctx.status = 201;
    ctx.body = { data: await createStore(platform, ctx.state.auth!.merchantId, body) };
  });

  router.get('/', async (ctx) => {
    const page = parseInput(ListQuery, ctx.query, 'query');
    const { items, nextCursor } = await listStores(platform, ctx.state.auth!.merchantId, page);
    ctx.body = { data: items, page: { next_cursor: nextCursor } };
  });

  // The store named by X-Store-Id: how store-scoped routes see "the current store".
  router.get('/current', requireStore(platform), async (ctx) => {
    parseInput(NoQuery, ctx.query, 'query');
    ctx.body = { data: ctx.state.store };
  });

  router.get('/:id', async (ctx) => {
    parseInput(NoQuery, ctx.query, 'query');
    ctx.body = { data: await getStore(platform, ctx.state.auth!.merchantId, ctx.params.id!) };
  });

  router.patch('/:id', async (ctx) => {
    const body = parseInput(UpdateStoreBody, ctx.request.body, 'body');
    ctx.body = { data: await updateStore(platform, ctx.state.auth!.merchantId, ctx.params.id!, body) };
  });

  return router;
}
