export { catalogIndexes } from './store.js';
export { findVariants, type VariantRef } from './products.js';
export type { ProductView, VariantView, CollectionView } from './present.js';
