export { findOwnedStore, findStoreBySubdomain, listStoresOwnedBy } from './service.js';
export type { StoreView } from './present.js';
export { storeIndexes } from './store.js';
