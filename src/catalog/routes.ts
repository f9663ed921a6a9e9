import type Router from '@koa/router';
import { z } from 'zod';
import type { AppState } from '../http/context.js';
import { idempotent } from '../http/idempotency.js';
import { storeScopedRouter } from '../http/scoped.js';
import { parseInput } from '../http/validate.js';
import { PageQuery } from '../pagination.js';
import type { Platform } from '../platform.js';
import { createCollection, deleteCollection, getCollection, listCollections, updateCollection } from './collections.js';
import { createProduct, deleteProduct, getProduct, listProducts, updateProduct } from './products.js';
import { CreateCollectionBody, CreateProductBody, ListProductsQuery, UpdateCollectionBody, UpdateProductBody } from './schemas.js';

const Empty = z.strictObject({});

/** /v1/products/collections (mounted before the product routes, whose `/:id` would match it). */
export function collectionRoutes(platform: Platform): Router<AppState> {
  const router = storeScopedRouter(platform);
  const storeId = (ctx: { state: AppState }) => ctx.state.store!.id;

  router.get('/', async (ctx) => {
    const page = parseInput(PageQuery.strict(), ctx.query, 'query');
    const { items, nextCursor } = await listCollections(platform, storeId(ctx), page);
    ctx.body = { data: items, page: { next_cursor: nextCursor } };
  });
  router.post('/', idempotent(platform), async (ctx) => {
    const body = parseInput(CreateCollectionBody, ctx.request.body, 'body');
    ctx.status = 201;
    ctx.body = { data: await createCollection(platform, storeId(ctx), body) };
  });
  router.get('/:id', async (ctx) => {
    parseInput(Empty, ctx.query, 'query');
    ctx.body = { data: await getCollection(platform, storeId(ctx), ctx.params.id!) };
  });
  router.patch('/:id', async (ctx) => {
    const body = parseInput(UpdateCollectionBody, ctx.request.body, 'body');
    ctx.body = { data: await updateCollection(platform, storeId(ctx), ctx.params.id!, body) };
  });
  router.delete('/:id', async (ctx) => {
    parseInput(Empty, ctx.request.body, 'body');
    await deleteCollection(platform, storeId(ctx), ctx.params.id!);
    ctx.status = 204;
  });
  return router;
}

/** /v1/products: the catalog. */
export function productRoutes(platform: Platform): Router<AppState> {
  const router = storeScopedRouter(platform);
  const storeId = (ctx: { state: AppState }) => ctx.state.store!.id;

  router.get('/', async (ctx) => {
    const query = parseInput(ListProductsQuery, ctx.query, 'query');
    const { items, nextCursor } = await listProducts(platform, storeId(ctx), query);
    ctx.body = { data: items, page: { next_cursor: nextCursor } };
  });
  router.post('/', idempotent(platform), async (ctx) => {
    const body = parseInput(CreateProductBody, ctx.request.body, 'body');
    ctx.status = 201;
    ctx.body = { data: await createProduct(platform, ctx.state.store!, body) };
  });
  router.get('/:id', async (ctx) => {
    parseInput(Empty, ctx.query, 'query');
    ctx.body = { data: await getProduct(platform, storeId(ctx), ctx.params.id!) };
  });
  router.patch('/:id', async (ctx) => {
    const body = parseInput(UpdateProductBody, ctx.request.body, 'body');
    ctx.body = { data: await updateProduct(platform, storeId(ctx), ctx.params.id!, body) };
  });
  router.delete('/:id', async (ctx) => {
    parseInput(Empty, ctx.request.body, 'body');
    await deleteProduct(platform, storeId(ctx), ctx.params.id!);
    ctx.status = 204;
  });
  return router;
}
