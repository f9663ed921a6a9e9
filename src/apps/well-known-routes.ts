import Router from '@koa/router';
import type { AppContext, AppRouter } from '../http/context.js';
import type { Platform } from '../platform.js';
import { SCOPE_NAMES } from './scopes.js';

/** The issuer: PUBLIC_BASE_URL, or (unset, in development and tests) the origin the request came to. */
export const issuerOf = (platform: Platform, ctx: AppContext) => platform.config.apps.issuer ?? `${ctx.protocol}://${ctx.host}`;

/** /.well-known: OAuth authorization server metadata (RFC 8414) and the JWKS. */
export function wellKnownRoutes(platform: Platform): AppRouter {
  const router: AppRouter = new Router();

  // --- RFC 8414: everything a generic OAuth client discovers ---
  router.get('/oauth-authorization-server', (ctx) => {
    const issuer = issuerOf(platform, ctx);
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = {
      issuer,
      // Merchant-authenticated (docs/oauth.md, "The authorization endpoint"); POST /v1/app-store/apps/:id/oauth/authorize is the same consent as an API call.
      authorization_endpoint: `${issuer}/v1/app-store/oauth/authorize`,
      token_endpoint: `${issuer}/v1/app-store/oauth/token`,
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      scopes_supported: SCOPE_NAMES,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:token-exchange'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      code_challenge_methods_supported: ['S256'],
      service_documentation: `${issuer}/docs/oauth.md`,
    };
  });

  return router;
}
