import type { AppRouter } from '../http/context.js';
import { routes, storeScoped } from '../http/endpoint.js';
import { PageQuery } from '../pagination.js';
import type { Platform } from '../platform.js';
import { createCollection, deleteCollection, getCollection, listCollections, updateCollection } from './collections.js';
import { createProduct, deleteProduct, getProduct, listProducts, updateProduct } from './products.js';
import { CreateCollectionBody, CreateProductBody, ListProductsQuery, UpdateCollectionBody, UpdateProductBody } from './schemas.js';

const read = storeScoped('read_products');
const write = storeScoped('write_products');

/** /v1/products/collections (mounted before the product routes, whose `/:id` would match it). */
export function collectionRoutes(platform: Platform): AppRouter {
  const on = routes(platform);

  on.get('/', { access: read, query: PageQuery.strict(), respond: 'page' }, ({ store, query }) => listCollections(platform, store.id, query));

  on.post('/', { access: write, body: CreateCollectionBody, idempotent: true, status: 201 }, ({ store, body }) => createCollection(platform, store.id, body));

  on.get('/:id', { access: read }, ({ store, params }) => getCollection(platform, store.id, params.id));

  on.patch('/:id', { access: write, body: UpdateCollectionBody }, ({ store, params, body }) => updateCollection(platform, store.id, params.id, body));

  on.delete('/:id', { access: write, respond: 'empty' }, ({ store, params }) => deleteCollection(platform, store.id, params.id));

  return on.router;
}

/** /v1/products: the catalog. */
export function productRoutes(platform: Platform): AppRouter {
  const on = routes(platform);

  on.get('/', { access: read, query: ListProductsQuery, respond: 'page' }, ({ store, query }) => listProducts(platform, store.id, query));

  // The whole store, not its id: a product takes the store's currency.
  on.post('/', { access: write, body: CreateProductBody, idempotent: true, status: 201 }, ({ store, body }) => createProduct(platform, store, body));

  on.get('/:id', { access: read }, ({ store, params }) => getProduct(platform, store.id, params.id));

  on.patch('/:id', { access: write, body: UpdateProductBody }, ({ store, params, body }) => updateProduct(platform, store.id, params.id, body));

  on.delete('/:id', { access: write, respond: 'empty' }, ({ store, params }) => deleteProduct(platform, store.id, params.id));

  return on.router;
}
