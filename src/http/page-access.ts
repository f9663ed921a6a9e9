import { PlatformError } from '../errors.js';
import type { Platform } from '../platform.js';
import { browserPrincipal, readCookie, sessionFormToken, SESSION_COOKIE } from './browser.js';
import type { AppContext, MerchantPrincipal } from './context.js';
import type { CsrfRule, PageAccess } from './pages.js';

/**
 * The access rules of the platform's own pages (src/http/pages.ts) and their CSRF rule: who may
 * see a page, from the browser's session cookie (`emporium_session`, docs/console.md) and never
 * from an `Authorization` header. The shop's rule (a store's visitor) is the shop's own.
 */

/** Any browser, with the merchant its session cookie signs in, if any (sign-in, the consent page). */
export type Visitor = { merchant: MerchantPrincipal | null };
export const visitor: PageAccess<Visitor> = async (platform, ctx) => ({ viewer: { merchant: await browserPrincipal(platform, ctx) } });

/** A merchant signed in in this browser, and the token of its forms (bound to the session: `sessionForms`). */
export type SignedIn = { merchant: MerchantPrincipal; csrf: string };

const backToSignIn = (ctx: AppContext, mount: string) => `/login?return_to=${encodeURIComponent(ctx.method === 'GET' ? ctx.url : mount)}`;

/**
 * A merchant signed in in a browser: the session cookie holding a live merchant session. A request
 * with `Authorization` (any bearer token, even a merchant's) is 403: these pages take the cookie
 * only, so no app, customer or script with an API token can use them; a cookie holding another
 * kind of token is 403 too. Without a live session: 303 to sign in, and back to the page (for a
 * form post: back to `mount`).
 */
export function signedInMerchant(mount: string): PageAccess<SignedIn> {
  return async (platform, ctx) => {
    if (ctx.get('Authorization'))
      throw new PlatformError('not_allowed', 'browser_session_required', 'These pages are for a browser signed in at /login; they take no API tokens.');
    const token = readCookie(platform, ctx, SESSION_COOKIE);
    if (token && !token.startsWith('emp_session_'))
      throw new PlatformError('not_allowed', 'browser_session_required', 'These pages are for a merchant signed in at /login.');
    const merchant = token ? await browserPrincipal(platform, ctx) : null;
    if (!merchant) return { redirect: backToSignIn(ctx, mount) };
    return { viewer: { merchant, csrf: sessionFormToken(platform, ctx)! } };
  };
}

/** An operator of the platform (OPERATOR_EMAILS, the API's `operator` access) signed in in a browser; any other merchant is 403 `operator_required`. */
export function operator(mount: string): PageAccess<SignedIn> {
  const signedIn = signedInMerchant(mount);
  return async (platform: Platform, ctx: AppContext) => {
    const admitted = await signedIn(platform, ctx);
    if ('viewer' in admitted && !admitted.viewer.merchant.operator)
      throw new PlatformError('not_allowed', 'operator_required', 'Only an operator of the platform may use the console.');
    return admitted;
  };
}

/** The CSRF rule of a signed-in browser's forms (the console, the consent page, Log out): the token bound to its session cookie. */
export const sessionForms: CsrfRule<unknown> = (platform, ctx) => sessionFormToken(platform, ctx);
