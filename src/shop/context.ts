import { authenticateCustomerSession } from '../customers/index.js';
import type { AppContext } from '../http/context.js';
import type { Platform } from '../platform.js';
import type { StoreView } from '../stores/index.js';
import { CART_COOKIE, clearCookie, cookie, csrfToken, CUSTOMER_COOKIE, type Binding } from './session.js';

/** One request to a store's shop: the store, and what this browser's cookies hold in it. */
export type Shop = {
  store: StoreView;
  /** The cart token of the cart cookie (it may name a cart that is gone: reads treat that as no cart). */
  cartToken: string | null;
  /** The customer signed in by the customer cookie, when its session is live and of this store. */
  customer: { id: string; token: string; sessionId: string } | null;
  /** This browser's forms' CSRF token, null when it has neither a cart nor a session. */
  csrf: string | null;
};

export const bindingOf = (shop: Pick<Shop, 'cartToken' | 'customer'>): Binding => ({ cart: shop.cartToken, session: shop.customer?.token ?? null });

/**
 * The shop request's state from its cookies. A customer cookie whose session is dead or of another
 * store is cleared (the browser is signed out), never an error.
 */
export async function shopOf(platform: Platform, ctx: AppContext, store: StoreView): Promise<Shop> {
  const cartToken = cookie(platform, ctx, CART_COOKIE);
  const sessionToken = cookie(platform, ctx, CUSTOMER_COOKIE);
  let customer: Shop['customer'] = null;
  if (sessionToken) {
    const session = await authenticateCustomerSession(platform, sessionToken);
    if (session && session.storeId === store.id) customer = { id: session.customerId, token: sessionToken, sessionId: session.sessionId };
    else clearCookie(platform, ctx, CUSTOMER_COOKIE);
  }
  const shop = { store, cartToken, customer };
  return { ...shop, csrf: csrfToken(platform, store.id, bindingOf(shop)) };
}

/** A path parameter of the shop's route (its router sets `params`), '' when absent. */
export function pathParam(ctx: AppContext, name: 'id' | 'handle'): string {
  const params = (ctx as AppContext & { params?: Partial<Record<'id' | 'handle', string>> }).params;
  return params?.[name] ?? '';
}
