export { orderIndexes } from './store.js';
export type { OrderView } from './present.js';
