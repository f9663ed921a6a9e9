import type { AppContext, AppRouter } from '../../http/context.js';
import { bearerToken, resolvePrincipal } from '../../http/auth.js';
import { routes } from '../../http/endpoint.js';
import { PlatformError } from '../../errors.js';
import type { Platform } from '../../platform.js';
import type { StoreView } from '../../stores/index.js';
import { CART_TOKEN_HEADER, storefrontStore } from '../../storefront/index.js';
import { graphqlMiddleware, type Meter } from '../transport.js';
import type { StorefrontContext } from './context.js';
import { storefrontSchema } from './schema.js';

/** The header that names the store a storefront query is for (docs/graphql.md, The storefront schema). */
export const STORE_SUBDOMAIN_HEADER = 'X-Store-Subdomain';

/** The signed-in customer of this store, when the request carries Authorization: any other token is 401, as in the REST storefront. */
async function customerOf(platform: Platform, ctx: AppContext, storeId: string): Promise<string | null> {
  if (!bearerToken(ctx.get('Authorization'))) return null;
  const principal = await resolvePrincipal(platform, ctx);
  if (principal?.kind === 'customer' && principal.storeId === storeId) return principal.customerId;
  throw new PlatformError('unauthenticated', 'unauthenticated', 'Query as a guest (no Authorization) or with a customer token of this store');
}

/**
 * `GET|POST /v1/storefront/graphql` and `/v1/graphql/storefront` (docs/graphql.md): public, the
 * store named by `X-Store-Subdomain`; a customer's token adds `customer`. Introspection only in
 * development. Metered per client address in the store and per store.
 */
/** The store each storefront GraphQL request is for, resolved before anything else. */
const storeOfRequest = new WeakMap<AppContext, StoreView>();
export const storefrontOf = (ctx: AppContext): StoreView => {
  const store = storeOfRequest.get(ctx);
  if (!store) throw new Error('storefrontOf: the store was not resolved for this request');
  return store;
};

export function storefrontGraphqlRoutes(meter: (platform: Platform) => Meter) {
  return (platform: Platform): AppRouter => {
    const on = routes(platform);
    const development = platform.config.env === 'development';
    const graphql = graphqlMiddleware<StorefrontContext>(platform, {
      schema: storefrontSchema,
      contextOf: async (ctx) => {
        const store = storefrontOf(ctx);
        return { platform, store, cartToken: ctx.get(CART_TOKEN_HEADER) || null, customerId: await customerOf(platform, ctx, store.id) };
      },
      meter: meter(platform),
      introspection: () => development,
    });
    const store = async (ctx: AppContext, next: () => Promise<unknown>) => {
      const subdomain = ctx.get(STORE_SUBDOMAIN_HEADER);
      if (!subdomain) throw new PlatformError('invalid_data', 'store_required', `Name the store with the ${STORE_SUBDOMAIN_HEADER} header`);
      storeOfRequest.set(ctx, await storefrontStore(platform, subdomain.slice(0, 63)));
      await next();
    };
    on.router.get('/', store, graphql);
    on.router.post('/', store, graphql);
    return on.router;
  };
}
