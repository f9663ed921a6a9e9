export { catalogIndexes } from './store.js';
export type { ProductView, VariantView, CollectionView } from './present.js';
