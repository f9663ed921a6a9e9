export { inventoryIndexes } from './store.js';
export { adjustInventory, getLocation, type Adjustment } from './service.js';
export type { LevelView, LocationView } from './present.js';
