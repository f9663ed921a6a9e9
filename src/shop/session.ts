import { formToken } from '../http/browser.js';
import type { Platform } from '../platform.js';
import { hashToken } from '../secrets/index.js';

export { clearCookie, readCookie as cookie, setCookie } from '../http/browser.js';

/** The shop's cookies (docs/shop.md, Cookies): each HttpOnly, SameSite=Lax, and `__Host-` (so Secure) outside development. */
export const CART_COOKIE = 'emporium_cart';
export const CUSTOMER_COOKIE = 'emporium_customer';
export const CHECKOUT_COOKIE = 'emporium_checkout';

/** The browser state a form acts on: its cart token and its customer session token, either may be absent. */
export type Binding = { cart: string | null; session: string | null };

/**
 * The `csrf_token` of this browser's forms in this store (docs/shop.md, Forms and CSRF): an HMAC
 * of the store and the hashes of the cart and session tokens its cookies hold, so it is good for
 * exactly that cart and that session (a token from before a checkout, a log-in or a log-out is
 * stale). Null when the browser has neither: its pages are the same for everyone and their one
 * form (add to cart) makes a new cart, so there is nothing of its own to protect.
 */
export function csrfToken(platform: Platform, storeId: string, binding: Binding): string | null {
  if (!binding.cart && !binding.session) return null;
  return formToken(platform, `${storeId}|${binding.cart ? hashToken(binding.cart) : ''}|${binding.session ? hashToken(binding.session) : ''}`);
}
