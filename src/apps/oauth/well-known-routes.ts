import type { AppRouter } from '../../http/context.js';
import { routes } from '../../http/endpoint.js';
import type { Platform } from '../../platform.js';
import { requestIssuer } from './issuer.js';
import { publishedSigningKeys } from '../session-tokens/signing-keys.js';
import { SCOPE_NAMES } from './scopes.js';

/** /.well-known: OAuth authorization server metadata (RFC 8414) and the JWKS. */
export function wellKnownRoutes(platform: Platform): AppRouter {
  const on = routes(platform);

  // --- RFC 8414: everything a generic OAuth client discovers ---
  on.router.get('/oauth-authorization-server', (ctx) => {
    const issuer = requestIssuer(platform, ctx);
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

  // --- JWKS (RFC 7517): the public keys that verify session tokens and install links (docs/oauth.md, Signing keys).
  // A JWK Set, not the platform envelope: what every JOSE library's remote key set fetches. Five minutes of caching;
  // a rotated-out key stays listed for a day, and a client shown an unknown kid fetches again.
  on.get('/jwks.json', { access: 'public', respond: 'raw' }, async ({ ctx }) => {
    const keys = await publishedSigningKeys(platform);
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = { keys };
  });
  // --- end JWKS

  return on.router;
}
