import type { Module } from '../module.js';
import { CATALOG_ERROR_CODES } from './errors.js';
import { CATALOG_EVENT_TYPES } from './events.js';
import { collectionRoutes, productRoutes } from './routes.js';
import { COLLECTIONS, PRODUCTS, catalogIndexes } from './models.js';
export {
  countProducts,
  createProduct,
  deleteProduct,
  findProductByHandle,
  findVariants,
  getProduct,
  listProducts,
  mediaInUse,
  mediaIsPublished,
  productExists,
  productsByIds,
  updateProduct,
  type VariantRef,
} from './products.js';
export {
  collectionIdsHolding,
  collectionsByIds,
  countCollections,
  createCollection,
  deleteCollection,
  findCollectionByHandle,
  getCollection,
  listCollections,
  updateCollection,
} from './collections.js';
export { BROWSE_SORTS, browseProducts, type BrowseQuery, type BrowseSort } from './browse.js';
export { CreateCollectionBody, CreateProductBody, ListProductsQuery, UpdateCollectionBody, UpdateProductBody } from './schemas.js';
export type { ProductView, VariantView, CollectionView } from './present.js';

/** Products and collections: /v1/products, /v1/products/collections. */
export const catalogModule: Module = {
  name: 'catalog',
  errorCodes: CATALOG_ERROR_CODES,
  indexes: catalogIndexes,
  routes: [
    { path: '/v1/products/collections', router: collectionRoutes },
    { path: '/v1/products', router: productRoutes },
  ],
  eventCarriers: [PRODUCTS, COLLECTIONS],
  eventTypes: CATALOG_EVENT_TYPES,
};
