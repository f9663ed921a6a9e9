import type Router from '@koa/router';
import { z } from 'zod';
import { notFound } from '../errors.js';
import type { AppState } from '../http/context.js';
import { storeScopedRouter } from '../http/scoped.js';
import { parseInput } from '../http/validate.js';
import type { Platform } from '../platform.js';
import { ProviderName, TransactionsQuery, UpdateProviderBody } from './schemas.js';
import { listProviderSettings, listTransactions, updateProviderSettings } from './service.js';

const NoQuery = z.strictObject({});

/** /v1/payments: a store's payment provider settings and its payment transactions. */
export function paymentRoutes(platform: Platform): Router<AppState> {
  const router = storeScopedRouter(platform);

  router.get('/providers', async (ctx) => {
    parseInput(NoQuery, ctx.query, 'query');
    ctx.body = { data: await listProviderSettings(platform, ctx.state.store!.id), page: { next_cursor: null } };
  });

  router.put('/providers/:provider', async (ctx) => {
    const provider = ProviderName.safeParse(ctx.params.provider);
    if (!provider.success) throw notFound('Payment provider');
    parseInput(NoQuery, ctx.query, 'query');
    const body = parseInput(UpdateProviderBody[provider.data], ctx.request.body, 'body');
    ctx.body = { data: await updateProviderSettings(platform, ctx.state.store!.id, provider.data, body) };
  });

  router.get('/transactions', async (ctx) => {
    const query = parseInput(TransactionsQuery, ctx.query, 'query');
    const { items, nextCursor } = await listTransactions(platform, ctx.state.store!.id, query.order_id, query);
    ctx.body = { data: items, page: { next_cursor: nextCursor } };
  });

  return router;
}
