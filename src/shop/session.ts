import { createHmac, timingSafeEqual } from 'node:crypto';
import { PlatformError } from '../errors.js';
import type { AppContext } from '../http/context.js';
import type { Platform } from '../platform.js';
import { hashToken } from '../secrets/index.js';

/** The shop's cookies (docs/shop.md, Cookies): each HttpOnly, SameSite=Lax, Secure outside development. */
export const CART_COOKIE = 'emporium_cart';
export const CUSTOMER_COOKIE = 'emporium_customer';
export const CHECKOUT_COOKIE = 'emporium_checkout';

/** A cookie's value as the platform wrote it (token characters only); anything else reads as absent. */
export function cookie(ctx: AppContext, name: string): string | null {
  const value = ctx.cookies.get(name);
  return value && value.length <= 400 && /^[A-Za-z0-9_.-]+$/.test(value) ? value : null;
}

/** Whether the shop's cookies carry `Secure`: outside development and tests, or whenever the request came over TLS. */
const secureCookies = (platform: Platform, ctx: AppContext) => ctx.secure || (platform.config.env !== 'development' && platform.config.env !== 'test');

export function setCookie(platform: Platform, ctx: AppContext, name: string, value: string, maxAgeMs: number): void {
  const secure = secureCookies(platform, ctx);
  // Behind a TLS proxy that is not trusted for X-Forwarded-Proto, koa would refuse a Secure cookie on what it takes for plain http.
  if (secure) ctx.cookies.secure = true;
  ctx.cookies.set(name, value, { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: maxAgeMs, overwrite: true });
}

export function clearCookie(platform: Platform, ctx: AppContext, name: string): void {
  const secure = secureCookies(platform, ctx);
  if (secure) ctx.cookies.secure = true;
  ctx.cookies.set(name, '', { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: 0, overwrite: true });
}

/** The browser state a form acts on: its cart token and its customer session token, either may be absent. */
export type Binding = { cart: string | null; session: string | null };

const csrfKeys = new WeakMap<Platform, Buffer>();

/** The key of the shop's CSRF tokens: derived from the platform's first secrets key under a label of its own. */
function csrfKey(platform: Platform): Buffer {
  let key = csrfKeys.get(platform);
  if (!key) {
    const secrets = platform.config.secretsKeys[0];
    if (!secrets) throw new Error('no SECRETS_KEYS: the shop cannot sign its forms');
    key = createHmac('sha256', secrets.key).update('emporium shop csrf v1').digest();
    csrfKeys.set(platform, key);
  }
  return key;
}

/**
 * The `csrf_token` of this browser's forms in this store (docs/shop.md, Forms and CSRF): an HMAC
 * of the store and the hashes of the cart and session tokens its cookies hold, so it is good for
 * exactly that cart and that session (a token from before a checkout, a log-in or a log-out is
 * stale). Null when the browser has neither: its pages are the same for everyone and their one
 * form (add to cart) makes a new cart, so there is nothing of its own to protect.
 */
export function csrfToken(platform: Platform, storeId: string, binding: Binding): string | null {
  if (!binding.cart && !binding.session) return null;
  const material = `${storeId}|${binding.cart ? hashToken(binding.cart) : ''}|${binding.session ? hashToken(binding.session) : ''}`;
  return createHmac('sha256', csrfKey(platform)).update(material).digest('base64url');
}

const csrfRefused = () =>
  new PlatformError('not_allowed', 'csrf_token_invalid', 'This form has expired or was sent from another site: go back, reload the page and try again');

/**
 * Every state-changing form (docs/shop.md, Forms and CSRF):
 * - refused when a browser says it comes from another site (Fetch Metadata's `Sec-Fetch-Site`,
 *   else an `Origin` that is not this host), as Go's `http.CrossOriginProtection` does; a request
 *   with neither is not a browser's and cannot be forged by a page;
 * - refused unless its `csrf_token` is this browser's (`csrfToken`), when it has a cart or a
 *   session, or it sent one at all (a stale token is never let through as if it were absent).
 */
export function checkForm(platform: Platform, ctx: AppContext, storeId: string, binding: Binding, sent: string | undefined): void {
  const site = ctx.get('Sec-Fetch-Site');
  if (site) {
    if (site !== 'same-origin' && site !== 'none') throw csrfRefused();
  } else {
    const origin = ctx.get('Origin');
    if (origin && origin !== 'null') {
      let host: string | null = null;
      try {
        host = new URL(origin).host;
      } catch {
        host = null;
      }
      if (host !== ctx.host) throw csrfRefused();
    } else if (origin === 'null') throw csrfRefused();
  }
  const expected = csrfToken(platform, storeId, binding);
  if (expected === null && !sent) return;
  if (expected === null || !sent || sent.length !== expected.length || !timingSafeEqual(Buffer.from(sent), Buffer.from(expected))) throw csrfRefused();
}

/** A form body's size limit: far above any of the shop's forms. */
const FORM_LIMIT_BYTES = 16 * 1024;

/**
 * The urlencoded body of a form post, each field's first value (duplicates beyond it ignored).
 * Another content type is 415; more than 16 KiB is 413.
 */
export async function readForm(ctx: AppContext): Promise<Map<string, string>> {
  if (!ctx.is('application/x-www-form-urlencoded'))
    throw new PlatformError('unsupported_media_type', 'unsupported_media_type', 'The shop takes forms (application/x-www-form-urlencoded)');
  const declared = Number(ctx.get('Content-Length') || '0');
  if (declared > FORM_LIMIT_BYTES) throw new PlatformError('payload_too_large', 'payload_too_large', 'This form is too large');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > FORM_LIMIT_BYTES) throw new PlatformError('payload_too_large', 'payload_too_large', 'This form is too large');
    chunks.push(chunk);
  }
  const fields = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(Buffer.concat(chunks).toString('utf8'))) if (!fields.has(name)) fields.set(name, value);
  return fields;
}
