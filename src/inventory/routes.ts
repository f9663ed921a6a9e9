import Router from '@koa/router';
import type { AppRouter } from '../http/context.js';
import { endpoint, storeScoped } from '../http/endpoint.js';
import type { Platform } from '../platform.js';
import { AdjustLevelBody, CreateLocationBody, ListLevelsQuery, ListLocationsQuery, SetLevelBody, UpdateLocationBody } from './schemas.js';
import { adjustInventory, createLocation, getLocation, listLevels, listLocations, setLevel, setLocationActive, updateLocation } from './service.js';

const read = storeScoped('read_inventory');
const write = storeScoped('write_inventory');

/** /v1/inventory: locations and stock levels per variant per location. */
export function inventoryRoutes(platform: Platform): AppRouter {
  const router: AppRouter = new Router();

  router.get(
    '/locations',
    endpoint(platform, { access: read, query: ListLocationsQuery, respond: 'page' }, ({ store, query }) => listLocations(platform, store.id, query)),
  );

  router.post(
    '/locations',
    endpoint(platform, { access: write, body: CreateLocationBody, idempotent: true, status: 201 }, ({ store, body }) =>
      createLocation(platform, store.id, body),
    ),
  );

  router.get(
    '/locations/:id',
    endpoint(platform, { access: read }, ({ store, params }) => getLocation(platform, store.id, params.id)),
  );

  router.patch(
    '/locations/:id',
    endpoint(platform, { access: write, body: UpdateLocationBody }, ({ store, params, body }) => updateLocation(platform, store.id, params.id, body)),
  );

  router.post(
    '/locations/:id/deactivate',
    endpoint(platform, { access: write }, ({ store, params }) => setLocationActive(platform, store.id, params.id, false)),
  );

  router.post(
    '/locations/:id/activate',
    endpoint(platform, { access: write }, ({ store, params }) => setLocationActive(platform, store.id, params.id, true)),
  );

  router.get(
    '/levels',
    endpoint(platform, { access: read, query: ListLevelsQuery, respond: 'page' }, ({ store, query }) => listLevels(platform, store.id, query)),
  );

  router.post(
    '/levels/set',
    endpoint(platform, { access: write, body: SetLevelBody, idempotent: true }, ({ store, body }) => setLevel(platform, store.id, body)),
  );

  router.post(
    '/levels/adjust',
    endpoint(platform, { access: write, body: AdjustLevelBody, idempotent: true }, ({ store, body }) => adjustInventory(platform, store.id, body)),
  );

  return router;
}
