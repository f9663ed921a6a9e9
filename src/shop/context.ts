import { authenticateCustomerSession } from '../customers/index.js';
import type { AppContext } from '../http/context.js';
import type { CsrfRule, Page, PageAccess } from '../http/pages.js';
import type { Platform } from '../platform.js';
import type { StoreView } from '../stores/index.js';
import { liveRenderableTheme, type RenderableTheme } from '../themes/index.js';
import { shopLook, type ShopLook } from './look.js';
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
  /** The store's live theme (null: none), and its look on the shop's own pages. */
  theme: RenderableTheme | null;
  look: ShopLook;
};

/** A page of the shop's list (src/shop/site.ts): its viewer is the shop visitor. */
export type ShopPage<P = unknown> = Page<Shop, P>;

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
  const theme = await liveRenderableTheme(platform, store.id, store.live_theme_id);
  return { ...shop, csrf: csrfToken(platform, store.id, bindingOf(shop)), theme, look: shopLook(store.subdomain, theme) };
}

/** Each request's shop visitor, once its access ran: what an error page of it knows (the look, whether a customer is signed in). */
const visitors = new WeakMap<AppContext, Shop>();
export const shopVisitorOf = (ctx: AppContext): Shop | undefined => visitors.get(ctx);

/** Who may see the shop's pages: any visitor of the store the host names (found before the list runs), with what its cookies hold. */
export const shopVisitor =
  (storeOf: (ctx: AppContext) => StoreView): PageAccess<Shop> =>
  async (platform, ctx) => {
    const viewer = await shopOf(platform, ctx, storeOf(ctx));
    visitors.set(ctx, viewer);
    return { viewer };
  };

/**
 * Every state-changing form of the shop (docs/shop.md, Forms and CSRF): not cross-origin (the
 * page list's check), and this browser's `csrf_token`, bound to its cart and session.
 */
export const shopForms: CsrfRule<Shop> = (_platform, _ctx, shop) => shop.csrf;
