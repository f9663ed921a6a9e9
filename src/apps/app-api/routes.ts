import { ListProductsQuery, getProduct, listProducts } from '../../catalog/index.js';
import type { AppRouter } from '../../http/context.js';
import { appScoped, routes } from '../../http/endpoint.js';
import { ListOrdersQuery, getOrder, listOrders } from '../../orders/index.js';
import type { Platform } from '../../platform.js';
import { getMetadata, putMetadata } from '../installations/service.js';
import { MetadataBody } from '../installations/schemas.js';

/**
 * /v1/app: what an installed app reads and writes with its access token (spec 4.7). The store is
 * always the token's installation's store; each route needs its scope (403 insufficient_scope).
 */
export function appApiRoutes(platform: Platform): AppRouter {
  const on = routes(platform);

  on.get('/products', { access: appScoped('read_products'), query: ListProductsQuery, respond: 'page' }, ({ store, query }) =>
    listProducts(platform, store.id, query),
  );
  on.get('/products/:id', { access: appScoped('read_products') }, ({ store, params }) => getProduct(platform, store.id, params.id));

  on.get('/orders', { access: appScoped('read_orders'), query: ListOrdersQuery, respond: 'page' }, ({ store, query }) => listOrders(platform, store.id, query));
  on.get('/orders/:id', { access: appScoped('read_orders') }, ({ store, params }) => getOrder(platform, store.id, params.id));

  // The app's own metadata for its store: any token of the installation reads it; a change needs write_app_metadata.
  on.get('/installation/metadata', { access: appScoped(null) }, ({ principal }) => getMetadata(platform, principal.installationId));
  on.put('/installation/metadata', { access: appScoped('write_app_metadata'), body: MetadataBody }, ({ principal, body }) =>
    putMetadata(platform, principal.installationId, body.metadata),
  );

  return on.router;
}
