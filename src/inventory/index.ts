import type { Module } from '../module.js';
import { INVENTORY_ERROR_CODES } from './errors.js';
import { INVENTORY_EVENT_TYPES } from './events.js';
import { inventoryRoutes } from './routes.js';
import { LEVELS, LOCATIONS, inventoryIndexes } from './models.js';
export {
  adjustInventory,
  createLocation,
  getLocation,
  levelsOfProducts,
  listLevels,
  listLocations,
  lowStockLevels,
  setLevel,
  setLocationActive,
  updateLocation,
  type LowStockLevel,
} from './service.js';
export { AdjustLevelBody, CreateLocationBody, ListLocationsQuery, SetLevelBody, UpdateLocationBody } from './schemas.js';
export {
  activeLocationIds,
  announceStockChange,
  applyStockChange,
  availableAt,
  productIdsInStock,
  clearStockKeys,
  readStockLevel,
  undoStockChange,
  type StockChange,
  type StockOutcome,
} from './commitments.js';
export type { LevelView, LocationView } from './present.js';

/** Locations and stock levels: /v1/inventory. */
export const inventoryModule: Module = {
  name: 'inventory',
  errorCodes: INVENTORY_ERROR_CODES,
  indexes: inventoryIndexes,
  routes: [{ path: '/v1/inventory', router: inventoryRoutes }],
  eventCarriers: [LOCATIONS, LEVELS],
  eventTypes: INVENTORY_EVENT_TYPES,
};
