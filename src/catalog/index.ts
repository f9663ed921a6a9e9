export { catalogIndexes } from './store.js';
export { findVariants, productExists, type VariantRef } from './products.js';
export type { ProductView, VariantView, CollectionView } from './present.js';
