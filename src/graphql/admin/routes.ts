import type { AppRouter } from '../../http/context.js';
import { requirePrincipal, requireStore } from '../../http/auth.js';
import { routes } from '../../http/endpoint.js';
import { idempotent } from '../../http/idempotency/index.js';
import type { Platform } from '../../platform.js';
import type { Meter } from '../transport.js';
import { graphqlMiddleware } from '../transport.js';
import { adminLoaders, type AdminContext } from './context.js';
import { adminSchema } from './schema.js';

/**
 * `GET|POST /v1/admin/graphql` and `/v1/graphql/admin` (docs/graphql.md): a merchant session with
 * `X-Store-Id`, or an app's access token (its store); each field checks the scope its REST twin
 * needs. Metered by query cost on the caller's bucket in the store, not by the REST request budget.
 */
export function adminGraphqlRoutes(meter: (platform: Platform) => Meter) {
  return (platform: Platform): AppRouter => {
    const on = routes(platform);
    const graphql = graphqlMiddleware<AdminContext>(platform, {
      schema: adminSchema,
      contextOf: (ctx) => ({
        platform,
        store: ctx.state.store!,
        principal: ctx.state.principal as AdminContext['principal'],
        loaders: adminLoaders(platform, ctx.state.store!.id),
      }),
      meter: meter(platform),
      // Every admin caller is authenticated: introspection is theirs.
      introspection: () => true,
    });
    const access = [requirePrincipal(platform, ['merchant', 'app']), requireStore(platform, { scope: null })] as const;
    on.router.get('/', ...access, graphql);
    // A retry of a POST with the same Idempotency-Key and body answers the first response (mutations: as REST's writes).
    on.router.post('/', ...access, idempotent(platform), graphql);
    return on.router;
  };
}
