import { createHmac, timingSafeEqual } from 'node:crypto';
import { isLocalEnv } from '../config.js';
import { PlatformError } from '../errors.js';
import type { Platform } from '../platform.js';
import { hashToken } from '../secrets/index.js';
import type { AppContext, MerchantPrincipal } from './context.js';

/**
 * What the platform's server-rendered pages share (the shop, docs/shop.md; the console and the
 * OAuth consent page, docs/console.md): their cookies, their forms' bodies, and their two CSRF
 * checks (a cross-origin refusal and an HMAC token bound to what the browser's cookies hold).
 */

/**
 * The name a cookie has in the browser. Outside development and tests it is `__Host-<name>`: a
 * browser keeps such a cookie only when this very host set it Secure, with Path=/ and no Domain,
 * so a page on another host under the same parent domain (another store's, on the storefront
 * base domain) can neither set nor overwrite it, and a cookie of the plain name, which it could
 * have set, is never read. Development and tests run plain http, where a Secure cookie cannot be
 * set: the plain name there.
 */
const cookieName = (platform: Platform, name: string) => (isLocalEnv(platform.config) ? name : `__Host-${name}`);

/** A cookie's value as the platform wrote it (token characters only); anything else reads as absent. */
export function readCookie(platform: Platform, ctx: AppContext, name: string): string | null {
  const value = ctx.cookies.get(cookieName(platform, name));
  return value && value.length <= 400 && /^[A-Za-z0-9_.-]+$/.test(value) ? value : null;
}

/** A cookie of the platform's pages: HttpOnly, SameSite=Lax, Path=/, no Domain; Secure (and `__Host-`) outside development and tests, Secure whenever the request came over TLS. */
export function setCookie(platform: Platform, ctx: AppContext, name: string, value: string, maxAgeMs: number): void {
  const secure = ctx.secure || !isLocalEnv(platform.config);
  // Behind a TLS proxy that is not trusted for X-Forwarded-Proto, koa would refuse a Secure cookie on what it takes for plain http.
  if (secure) ctx.cookies.secure = true;
  ctx.cookies.set(cookieName(platform, name), value, { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: maxAgeMs, overwrite: true });
}

export function clearCookie(platform: Platform, ctx: AppContext, name: string): void {
  setCookie(platform, ctx, name, '', 0);
}

const formKeys = new WeakMap<Platform, Buffer>();

/** The key of the pages' CSRF tokens: derived from the platform's first secrets key under a label of its own. */
function formKey(platform: Platform): Buffer {
  let key = formKeys.get(platform);
  if (!key) {
    const secrets = platform.config.secretsKeys[0];
    if (!secrets) throw new Error('no SECRETS_KEYS: the pages cannot sign their forms');
    key = createHmac('sha256', secrets.key).update('emporium shop csrf v1').digest();
    formKeys.set(platform, key);
  }
  return key;
}

/**
 * A form token: an HMAC of `material` (what the browser's cookies hold, hashed: a cart, a session)
 * under the pages' key, so it is good for exactly that state and stale once it changes. Nothing is
 * stored for it.
 */
export function formToken(platform: Platform, material: string): string {
  return createHmac('sha256', formKey(platform)).update(material).digest('base64url');
}

export const csrfRefused = () =>
  new PlatformError('not_allowed', 'csrf_token_invalid', 'This form has expired or was sent from another site: go back, reload the page and try again');

/**
 * Refuse a request a browser says comes from another site, as Go's `http.CrossOriginProtection`
 * does: `Sec-Fetch-Site` must be `same-origin` or `none`; without it, an `Origin` must name this
 * host (`null` is refused). A request with neither is not a browser's: no page can forge it.
 */
export function refuseCrossOrigin(ctx: AppContext): void {
  const site = ctx.get('Sec-Fetch-Site');
  if (site) {
    if (site !== 'same-origin' && site !== 'none') throw csrfRefused();
    return;
  }
  const origin = ctx.get('Origin');
  if (!origin) return;
  let host: string | null = null;
  try {
    host = origin === 'null' ? null : new URL(origin).host;
  } catch {
    host = null;
  }
  if (host !== ctx.host) throw csrfRefused();
}

/**
 * A state-changing form's checks: not cross-origin, and its `csrf_token` the expected one (null:
 * the browser holds nothing of its own, and then no token may be sent either, so a stale one is
 * never let through as if it were absent). 403 `csrf_token_invalid` otherwise.
 */
export function checkFormToken(ctx: AppContext, expected: string | null, sent: string | undefined): void {
  refuseCrossOrigin(ctx);
  if (expected === null && !sent) return;
  if (expected === null || !sent || sent.length !== expected.length || !timingSafeEqual(Buffer.from(sent), Buffer.from(expected))) throw csrfRefused();
}

/** A form body's size limit: far above any of the pages' forms. */
const FORM_LIMIT_BYTES = 16 * 1024;

/**
 * The urlencoded body of a form post, each field's first value (duplicates beyond it ignored).
 * Another content type is 415; more than 16 KiB is 413. A page's route on the API app is marked
 * `pageForm` (src/http/endpoint.ts), so the body is still unread here.
 */
export async function readForm(ctx: AppContext): Promise<Map<string, string>> {
  if (!ctx.is('application/x-www-form-urlencoded'))
    throw new PlatformError('unsupported_media_type', 'unsupported_media_type', 'This page takes forms (application/x-www-form-urlencoded)');
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

/** The merchant's browser session cookie (docs/console.md; `__Host-emporium_session` outside development): a merchant session token, as `Authorization: Bearer` would carry it. */
export const SESSION_COOKIE = 'emporium_session';

/**
 * The principal of the browser's session cookie: the same sessions as the API's bearer tokens,
 * through the same authenticators, but only a merchant session (`emp_session_`) counts; an app
 * token or a customer's in that cookie is no one. Null without a live one.
 */
export async function browserPrincipal(platform: Platform, ctx: AppContext): Promise<MerchantPrincipal | null> {
  const token = readCookie(platform, ctx, SESSION_COOKIE);
  if (!token || !token.startsWith('emp_session_')) return null;
  const authenticator = ctx.access.authenticators.find((a) => token.startsWith(a.prefix));
  const principal = authenticator ? await authenticator.authenticate(platform, token) : null;
  return principal?.kind === 'merchant' ? principal : null;
}

/**
 * The `csrf_token` of a signed-in merchant's forms (the log-out form, the consent page, the
 * console): an HMAC of the session cookie's token hash, so it is good for that session only.
 * Null when the browser holds no session cookie.
 */
export function sessionFormToken(platform: Platform, ctx: AppContext): string | null {
  const token = readCookie(platform, ctx, SESSION_COOKIE);
  return token ? formToken(platform, `session|${hashToken(token)}`) : null;
}
