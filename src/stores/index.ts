import type { Module } from '../module.js';
import { STORES_ERROR_CODES } from './errors.js';
import { STORES_EVENT_TYPES } from './events.js';
import { storeAccess } from './access.js';
import { storeRoutes } from './routes.js';
import { STORES, storeIndexes } from './models.js';
export {
  createStore,
  findOwnedStore,
  findStoreById,
  findStoreOwnerId,
  findStoreBySubdomain,
  isCurrencyLocked,
  listStoresOwnedBy,
  lockStoreCurrency,
  setLiveTheme,
  updateStore,
} from './service.js';
export { CreateStoreBody, EmailSender, UpdateStoreBody } from './schemas.js';
export type { StoreView } from './present.js';

/** A merchant's stores: /v1/stores, and who may act on which store. */
export const storesModule: Module = {
  name: 'stores',
  errorCodes: STORES_ERROR_CODES,
  indexes: storeIndexes,
  routes: [{ path: '/v1/stores', router: storeRoutes }],
  eventCarriers: [STORES],
  eventTypes: STORES_EVENT_TYPES,
  storeAccess,
};
