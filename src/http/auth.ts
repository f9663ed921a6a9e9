import type { Middleware } from 'koa';
import { PlatformError } from '../errors.js';
import type { Platform } from '../platform.js';
import type { AppContext, AppCustom, AppState, Principal, PrincipalKind } from './context.js';

export function bearerToken(header: string): string | null {
  const match = /^Bearer ([\x21-\x7e]+)$/i.exec(header.trim());
  return match?.[1] ?? null;
}

/** The principal behind `Authorization: Bearer <token>`, by the authenticator of the token's prefix, or null. */
export async function resolvePrincipal(platform: Platform, ctx: AppContext): Promise<Principal | null> {
  const token = bearerToken(ctx.get('Authorization'));
  if (!token) return null;
  const authenticator = ctx.access.authenticators.find((a) => token.startsWith(a.prefix));
  return authenticator ? authenticator.authenticate(platform, token) : null;
}

const UNAUTHENTICATED = new Map([
  ['merchant', 'A valid merchant session is required (Authorization: Bearer <session token>)'],
  ['merchant,app', 'A valid merchant session or app access token is required (Authorization: Bearer <token>)'],
  ['app', 'A valid app access token is required (Authorization: Bearer <access token>)'],
  ['customer', 'A valid customer session is required (Authorization: Bearer <customer token>)'],
]);

/**
 * 401 unless the request carries a live credential of one of these kinds; the principal is
 * then `ctx.state.principal`. A credential of another kind is a 401 too: a route that only a
 * merchant may use does not tell an app that its token is valid.
 */
export function requirePrincipal(platform: Platform, kinds: readonly PrincipalKind[]): Middleware<AppState, AppCustom> {
  const message = UNAUTHENTICATED.get(kinds.join(',')) ?? `A valid credential is required (${kinds.join(' or ')})`;
  return async (ctx, next) => {
    const principal = await resolvePrincipal(platform, ctx);
    if (!principal || !kinds.includes(principal.kind)) {
      // RFC 6750 3.1: a presented bearer token that is not live (unknown, expired, revoked) is invalid_token.
      const presented = bearerToken(ctx.get('Authorization')) !== null;
      const headers = presented
        ? { 'WWW-Authenticate': bearerChallenge('invalid_token', 'The access token is not valid (unknown, expired or revoked)') }
        : undefined;
      throw new PlatformError('unauthenticated', 'unauthenticated', message, headers ? { headers } : {});
    }
    ctx.state.principal = principal;
    await next();
  };
}

/** An RFC 6750 challenge: `Bearer realm="emporium", error="…", error_description="…"` (and the scope needed). */
export function bearerChallenge(error: 'invalid_token' | 'insufficient_scope' | 'invalid_request', description: string, scope?: string): string {
  const quote = (v: string) => `"${v.replace(/["\\]/g, '')}"`;
  return `Bearer realm="emporium", error=${quote(error)}, error_description=${quote(description)}${scope ? `, scope=${quote(scope)}` : ''}`;
}

/** 403 `insufficient_scope` for an app token without `scope` (RFC 6750 3.1), naming the scope needed. */
export function insufficientScope(scope: string): PlatformError {
  const message = `This app's access token was not granted the ${scope} scope`;
  return new PlatformError('not_allowed', 'insufficient_scope', message, {
    headers: { 'WWW-Authenticate': bearerChallenge('insufficient_scope', message, scope) },
  });
}

/** After requirePrincipal(['merchant']): 403 unless the account has the operator role. */
export const requireOperator: Middleware<AppState, AppCustom> = async (ctx, next) => {
  const principal = ctx.state.principal;
  if (principal?.kind !== 'merchant' || !principal.operator) {
    throw new PlatformError('not_allowed', 'operator_required', 'Only an operator of the platform may do this');
  }
  await next();
};

/** 401 unless a merchant session: the principal is a merchant. */
export const requireMerchant = (platform: Platform) => requirePrincipal(platform, ['merchant']);

const STORE_ID = /^[0-9a-f]{24}$/;

/**
 * For store-scoped routes (after requirePrincipal): the store the request acts on, checked
 * against the principal by the stores domain. A merchant names it with `X-Store-Id`; an app
 * acts on the store it is installed in (an `X-Store-Id`, if sent, must be that store); a
 * customer on the store they shop in. A store that does not exist and one the principal may
 * not act on both answer 403, so the answer does not reveal which ids exist.
 *
 * `scope`: the permission an app's token must have been granted (a merchant has every
 * permission on its own stores); 403 `insufficient_scope` otherwise.
 */
export function requireStore(platform: Platform, options: { scope: string | null }): Middleware<AppState, AppCustom> {
  return async (ctx, next) => {
    const principal = ctx.state.principal!;
    const header = ctx.get('X-Store-Id');
    let storeId: string;
    if (principal.kind === 'merchant') {
      if (!header) throw new PlatformError('invalid_data', 'store_required', 'The X-Store-Id header is required');
      if (!STORE_ID.test(header)) throw new PlatformError('invalid_data', 'invalid_store_id', 'X-Store-Id must be a store id');
      storeId = header;
    } else {
      if (header && header !== principal.storeId) throw new PlatformError('not_allowed', 'store_forbidden', 'You do not have access to this store');
      storeId = principal.storeId;
    }
    if (principal.kind === 'app' && options.scope !== null && !principal.scopes.includes(options.scope)) throw insufficientScope(options.scope);
    const store = await ctx.access.storeAccess(platform, principal, storeId);
    if (!store) throw new PlatformError('not_allowed', 'store_forbidden', 'You do not have access to this store');
    ctx.state.store = store;
    for (const observe of ctx.access.storeRequestObservers) observe(platform, { principal, store, scope: options.scope });
    await next();
  };
}
