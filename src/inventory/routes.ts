import type Router from '@koa/router';
import { z } from 'zod';
import type { AppState } from '../http/context.js';
import { idempotent } from '../http/idempotency.js';
import { storeScopedRouter } from '../http/scoped.js';
import { parseInput } from '../http/validate.js';
import type { Platform } from '../platform.js';
import { AdjustLevelBody, CreateLocationBody, ListLevelsQuery, ListLocationsQuery, SetLevelBody, UpdateLocationBody } from './schemas.js';
import { adjustInventory, createLocation, getLocation, listLevels, listLocations, setLevel, setLocationActive, updateLocation } from './service.js';

const Empty = z.strictObject({});

/** /v1/inventory: locations and stock levels per variant per location. */
export function inventoryRoutes(platform: Platform): Router<AppState> {
  const router = storeScopedRouter(platform);
  const storeId = (ctx: { state: AppState }) => ctx.state.store!.id;

  router.get('/locations', async (ctx) => {
    const query = parseInput(ListLocationsQuery, ctx.query, 'query');
    const { items, nextCursor } = await listLocations(platform, storeId(ctx), query);
    ctx.body = { data: items, page: { next_cursor: nextCursor } };
  });
  router.post('/locations', idempotent(platform), async (ctx) => {
    const body = parseInput(CreateLocationBody, ctx.request.body, 'body');
    ctx.status = 201;
    ctx.body = { data: await createLocation(platform, storeId(ctx), body) };
  });
  router.get('/locations/:id', async (ctx) => {
    parseInput(Empty, ctx.query, 'query');
    ctx.body = { data: await getLocation(platform, storeId(ctx), ctx.params.id!) };
  });
  router.patch('/locations/:id', async (ctx) => {
    const body = parseInput(UpdateLocationBody, ctx.request.body, 'body');
    ctx.body = { data: await updateLocation(platform, storeId(ctx), ctx.params.id!, body) };
  });
  router.post('/locations/:id/deactivate', async (ctx) => {
    parseInput(Empty, ctx.request.body, 'body');
    ctx.body = { data: await setLocationActive(platform, storeId(ctx), ctx.params.id!, false) };
  });
  router.post('/locations/:id/activate', async (ctx) => {
    parseInput(Empty, ctx.request.body, 'body');
    ctx.body = { data: await setLocationActive(platform, storeId(ctx), ctx.params.id!, true) };
  });

  router.get('/levels', async (ctx) => {
    const query = parseInput(ListLevelsQuery, ctx.query, 'query');
    const { items, nextCursor } = await listLevels(platform, storeId(ctx), query);
    ctx.body = { data: items, page: { next_cursor: nextCursor } };
  });
  router.post('/levels/set', idempotent(platform), async (ctx) => {
    const body = parseInput(SetLevelBody, ctx.request.body, 'body');
    ctx.body = { data: await setLevel(platform, storeId(ctx), body) };
  });
  router.post('/levels/adjust', idempotent(platform), async (ctx) => {
    const body = parseInput(AdjustLevelBody, ctx.request.body, 'body');
    ctx.body = { data: await adjustInventory(platform, storeId(ctx), body) };
  });
  return router;
}
