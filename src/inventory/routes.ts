import type { AppRouter } from '../http/context.js';
import { routes, storeScoped } from '../http/endpoint.js';
import type { Platform } from '../platform.js';
import { AdjustLevelBody, CreateLocationBody, ListLevelsQuery, ListLocationsQuery, SetLevelBody, UpdateLocationBody } from './schemas.js';
import { adjustInventory, createLocation, getLocation, listLevels, listLocations, setLevel, setLocationActive, updateLocation } from './service.js';

const read = storeScoped('read_inventory');
const write = storeScoped('write_inventory');

/** /v1/inventory: locations and stock levels per variant per location. */
export function inventoryRoutes(platform: Platform): AppRouter {
  const on = routes(platform);

  on.get('/locations', { access: read, query: ListLocationsQuery, respond: 'page' }, ({ store, query }) => listLocations(platform, store.id, query));

  on.post('/locations', { access: write, body: CreateLocationBody, idempotent: true, status: 201 }, ({ store, body }) =>
    createLocation(platform, store.id, body),
  );

  on.get('/locations/:id', { access: read }, ({ store, params }) => getLocation(platform, store.id, params.id));

  on.patch('/locations/:id', { access: write, body: UpdateLocationBody }, ({ store, params, body }) => updateLocation(platform, store.id, params.id, body));

  on.post('/locations/:id/deactivate', { access: write }, ({ store, params }) => setLocationActive(platform, store.id, params.id, false));

  on.post('/locations/:id/activate', { access: write }, ({ store, params }) => setLocationActive(platform, store.id, params.id, true));

  on.get('/levels', { access: read, query: ListLevelsQuery, respond: 'page' }, ({ store, query }) => listLevels(platform, store.id, query));

  on.post('/levels/set', { access: write, body: SetLevelBody, idempotent: true }, ({ store, body }) => setLevel(platform, store.id, body));

  on.post('/levels/adjust', { access: write, body: AdjustLevelBody, idempotent: true }, ({ store, body }) => adjustInventory(platform, store.id, body));

  return on.router;
}
