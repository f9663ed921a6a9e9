import type { AppRouter } from '../../http/context.js';
import { routes } from '../../http/endpoint.js';
import type { Platform } from '../../platform.js';
import { BUNDLE_JSON_SCHEMA } from './schema.js';

/**
 * /v1/themes/bundle-schema: the bundle's JSON Schema (spec 2.5), public. The document itself, not
 * the `{ data }` envelope: it is what editors and validators (`"$schema"` in a bundle, ajv,
 * VS Code) fetch and use as is. It changes only with the platform, so caches may keep it an hour.
 */
export function bundleSchemaRoutes(platform: Platform): AppRouter {
  const on = routes(platform);
  on.get('/', { access: 'public', respond: 'raw' }, async ({ ctx }) => {
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.type = 'application/schema+json';
    ctx.body = BUNDLE_JSON_SCHEMA;
  });
  return on.router;
}
