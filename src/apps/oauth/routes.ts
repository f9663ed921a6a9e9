import { accessibleStore } from '../../http/auth.js';
import type { AppContext, AppRouter } from '../../http/context.js';
import { routes, takesForm } from '../../http/endpoint.js';
import type { Platform } from '../../platform.js';
import { AuthorizeQuery, authorizationClient, authorizationRedirect } from './authorization.js';
import {
  GRANT_AUTHORIZATION_CODE,
  GRANT_REFRESH_TOKEN,
  GRANT_TOKEN_EXCHANGE,
  answerTokenRequest,
  authorizationCodeGrant,
  refreshTokenGrant,
  tokenExchangeGrant,
  type Grant,
} from './grants.js';

/** The grants of the token endpoint (docs/oauth.md), by the client's `grant_type`: a Map, so `constructor` is no grant. */
export const TOKEN_GRANTS: ReadonlyMap<string, Grant> = new Map([
  [GRANT_AUTHORIZATION_CODE, authorizationCodeGrant],
  [GRANT_REFRESH_TOKEN, refreshTokenGrant],
  [GRANT_TOKEN_EXCHANGE, tokenExchangeGrant],
]);

/** The token exchange endpoint of spec 4.7 takes that grant only (the token endpoint takes it too, as RFC 8693 places it). */
const EXCHANGE_GRANTS: ReadonlyMap<string, Grant> = new Map([[GRANT_TOKEN_EXCHANGE, tokenExchangeGrant]]);

/** /v1/app-store/oauth: the token endpoint (RFC 6749) and token exchange (RFC 8693). Form or JSON bodies. */
export function oauthRoutes(platform: Platform): AppRouter {
  const on = routes(platform);
  on.router.post(
    '/token',
    takesForm((ctx: AppContext) => answerTokenRequest(platform, ctx, TOKEN_GRANTS)),
  );
  on.router.post(
    '/token-exchange',
    takesForm((ctx: AppContext) => answerTokenRequest(platform, ctx, EXCHANGE_GRANTS)),
  );

  // RFC 6749 4.1.1 with the spec's consent rules (docs/oauth.md, "The authorization endpoint"): the
  // same authorization as POST /v1/app-store/apps/:id/oauth/authorize, addressed by client_id with
  // the RFC's parameter names, answered with a redirect to the client. A browser without
  // `Authorization` gets the consent page instead (docs/console.md, The consent page: consentPages).
  on.get('/authorize', { access: 'merchant', query: AuthorizeQuery, respond: 'raw' }, async ({ ctx, merchant, query }) => {
    // Until client and redirect URI are known good, errors are answered here, never redirected (4.1.2.1).
    const app = await authorizationClient(platform, query.client_id, query.redirect_uri);
    const store = await accessibleStore(platform, ctx, merchant, query.store_id);
    ctx.set('Cache-Control', 'no-store');
    const back = await authorizationRedirect(platform, merchant.merchantId, store.id, app, query);
    ctx.status = 302;
    ctx.redirect(back.toString());
  });
  return on.router;
}
