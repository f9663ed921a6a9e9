import { z } from 'zod';
import { PlatformError } from '../../errors.js';
import { accessibleStore } from '../../http/auth.js';
import type { AppContext, AppRouter } from '../../http/context.js';
import { routes, takesForm } from '../../http/endpoint.js';
import type { Platform } from '../../platform.js';
import { authorize } from '../installations/service.js';
import { AuthorizeBody } from '../installations/schemas.js';
import { apps } from '../partners/store.js';
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

class RedirectError extends Error {
  constructor(
    readonly error: string,
    message: string,
  ) {
    super(message);
  }
}

const AuthorizeQuery = z.strictObject({
  client_id: z.string().min(1).max(100),
  redirect_uri: z.string().min(1).max(2048),
  store_id: z.string().regex(/^[0-9a-f]{24}$/, 'must be a store id'),
  response_type: z.string().max(100).optional(),
  scope: z.string().max(2048).optional(),
  state: z.string().max(1024).optional(),
  code_challenge: z.string().max(200).optional(),
  code_challenge_method: z.string().max(20).optional(),
  webhook_url: z.string().max(2048).optional(),
});

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
  // the RFC's parameter names, answered with a redirect to the client.
  on.get('/authorize', { access: 'merchant', query: AuthorizeQuery, respond: 'raw' }, async ({ ctx, merchant, query }) => {
    const app = await apps(platform.db).findOne({ client_id: query.client_id });
    if (!app?.published) throw new PlatformError('not_found', 'not_found', 'App not found');
    // Until client and redirect URI are known good, errors are answered here, never redirected (4.1.2.1).
    if (!app.published.redirect_urls.includes(query.redirect_uri)) {
      throw new PlatformError('invalid_data', 'invalid_redirect_uri', "redirect_uri must be exactly one of the app's redirect URLs");
    }
    const store = await accessibleStore(platform, ctx, merchant, query.store_id);
    const back = new URL(query.redirect_uri);
    ctx.set('Cache-Control', 'no-store');
    try {
      if (query.response_type !== 'code') throw new RedirectError('unsupported_response_type', 'response_type must be code');
      const body = AuthorizeBody.safeParse({
        store_id: query.store_id,
        redirect_uri: query.redirect_uri,
        code_challenge: query.code_challenge,
        code_challenge_method: query.code_challenge_method,
        scopes: (query.scope ?? '').split(' ').filter(Boolean),
        state: query.state,
        webhook_url: query.webhook_url,
      });
      if (!body.success) throw new RedirectError('invalid_request', body.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
      const granted = await authorize(platform, merchant.merchantId, store.id, app._id.toHexString(), body.data);
      back.searchParams.set('code', granted.code);
    } catch (err) {
      const [error, description] =
        err instanceof RedirectError
          ? [err.error, err.message]
          : err instanceof PlatformError && err.kind !== 'rate_limited'
            ? [err.code === 'invalid_scope' ? 'invalid_scope' : 'invalid_request', [err.message, ...(err.extra.details ?? [])].join('; ')]
            : [null, null];
      if (!error) throw err;
      back.searchParams.set('error', error);
      back.searchParams.set('error_description', description!);
    }
    if (query.state) back.searchParams.set('state', query.state);
    ctx.status = 302;
    ctx.redirect(back.toString());
  });
  return on.router;
}
