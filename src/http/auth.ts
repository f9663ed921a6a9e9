import type { Middleware } from 'koa';
import { authenticateSession } from '../auth/index.js';
import { PlatformError } from '../errors.js';
import type { Platform } from '../platform.js';
import { findOwnedStore } from '../stores/index.js';
import type { AppContext, AppState, MerchantAuth } from './context.js';

export function bearerToken(header: string): string | null {
  const match = /^Bearer ([\x21-\x7e]+)$/i.exec(header.trim());
  return match?.[1] ?? null;
}

/** The merchant behind `Authorization: Bearer <session token>`, or null. */
export async function resolveMerchant(platform: Platform, ctx: AppContext): Promise<MerchantAuth | null> {
  const token = bearerToken(ctx.get('Authorization'));
  const auth = token ? await authenticateSession(platform, token) : null;
  return auth ? { merchantId: auth.merchant.id, sessionId: auth.session.id, ...auth } : null;
}

/** 401 unless the request carries a live merchant session. */
export function requireMerchant(platform: Platform): Middleware<AppState> {
  return async (ctx, next) => {
    const auth = await resolveMerchant(platform, ctx);
    if (!auth) throw new PlatformError('unauthenticated', 'unauthenticated', 'A valid merchant session is required (Authorization: Bearer <session token>)');
    ctx.state.auth = auth;
    await next();
  };
}

/**
 * For store-scoped merchant routes (after requireMerchant): `X-Store-Id` names the store, and
 * it must be one the caller owns. A store that does not exist and one owned by someone else
 * both answer 403, so the answer does not reveal which ids exist.
 */
export function requireStore(platform: Platform): Middleware<AppState> {
  return async (ctx, next) => {
    const storeId = ctx.get('X-Store-Id');
    if (!storeId) throw new PlatformError('invalid_data', 'store_required', 'The X-Store-Id header is required');
    if (!/^[0-9a-f]{24}$/.test(storeId)) throw new PlatformError('invalid_data', 'invalid_store_id', 'X-Store-Id must be a store id');
    const store = await findOwnedStore(platform, ctx.state.auth!.merchantId, storeId);
    if (!store) throw new PlatformError('not_allowed', 'store_forbidden', 'You do not have access to this store');
    ctx.state.store = store;
    await next();
  };
}
