export { inventoryIndexes } from './store.js';
export { adjustInventory, type Adjustment } from './service.js';
export type { LevelView, LocationView } from './present.js';
