import type Router from '@koa/router';
import { z } from 'zod';
import type { AppState } from '../http/context.js';
import { idempotent } from '../http/idempotency.js';
import { storeScopedRouter } from '../http/scoped.js';
import { parseInput } from '../http/validate.js';
import type { Platform } from '../platform.js';
import { CreateReviewBody, ListReviewsQuery, ReplyBody, SummaryQuery, UpdateReviewBody } from './schemas.js';
import { createReview, deleteReview, deleteReviewReply, getReview, listReviews, replyToReview, summaryForProduct, updateReview } from './service.js';

const NoQuery = z.strictObject({});

/** /v1/reviews: a store's product reviews, their moderation and the merchant's replies. */
export function reviewRoutes(platform: Platform): Router<AppState> {
  const router = storeScopedRouter(platform);

  router.get('/', async (ctx) => {
    const query = parseInput(ListReviewsQuery, ctx.query, 'query');
    const { items, nextCursor } = await listReviews(platform, ctx.state.store!.id, query);
    ctx.body = { data: items, page: { next_cursor: nextCursor } };
  });

  router.post('/', idempotent(platform), async (ctx) => {
    parseInput(NoQuery, ctx.query, 'query');
    const body = parseInput(CreateReviewBody, ctx.request.body, 'body');
    ctx.status = 201;
    ctx.body = { data: await createReview(platform, ctx.state.store!.id, body) };
  });

  // Before /:id.
  router.get('/summary', async (ctx) => {
    const { product_id } = parseInput(SummaryQuery, ctx.query, 'query');
    ctx.body = { data: await summaryForProduct(platform, ctx.state.store!.id, product_id) };
  });

  router.get('/:id', async (ctx) => {
    parseInput(NoQuery, ctx.query, 'query');
    ctx.body = { data: await getReview(platform, ctx.state.store!.id, ctx.params.id!) };
  });

  router.patch('/:id', async (ctx) => {
    parseInput(NoQuery, ctx.query, 'query');
    const body = parseInput(UpdateReviewBody, ctx.request.body, 'body');
    ctx.body = { data: await updateReview(platform, ctx.state.store!.id, ctx.params.id!, body) };
  });

  router.delete('/:id', async (ctx) => {
    parseInput(NoQuery, ctx.query, 'query');
    await deleteReview(platform, ctx.state.store!.id, ctx.params.id!);
    ctx.status = 204;
  });

  router.post('/:id/reply', async (ctx) => {
    parseInput(NoQuery, ctx.query, 'query');
    const body = parseInput(ReplyBody, ctx.request.body, 'body');
    ctx.body = { data: await replyToReview(platform, ctx.state.store!.id, ctx.params.id!, body) };
  });

  router.delete('/:id/reply', async (ctx) => {
    parseInput(NoQuery, ctx.query, 'query');
    await deleteReviewReply(platform, ctx.state.store!.id, ctx.params.id!);
    ctx.status = 204;
  });

  return router;
}
