import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { PlatformError } from '../errors.js';
import { html, type Markup } from '../html.js';
import { csrfRefused, formToken, readCookie, setCookie } from '../http/browser.js';
import type { AppContext } from '../http/context.js';
import type { Visitor } from '../http/page-access.js';
import type { CsrfRule, Page } from '../http/pages.js';
import { formWithIssues } from '../http/ui/forms.js';
import { platformPage } from '../http/ui/layout.js';
import { zodIssues } from '../http/validate.js';
import type { Platform } from '../platform.js';
import { hashToken } from '../secrets/index.js';

/**
 * What the signed-out browser's forms share (sign-in, sign-up, password reset): the pre-session
 * login cookie their CSRF tokens are bound to, their one-column page, their schemas' issues at
 * their fields, and the services' refusals shown on the form.
 */

/** The signed-out browser's pre-session cookie: random bytes its forms' CSRF tokens are bound to. */
export const LOGIN_COOKIE = 'emporium_login';
const LOGIN_COOKIE_MS = 2 * 60 * 60 * 1000;

export type SignedOutPage = Page<Visitor, unknown>;

/** Where a signed-in browser goes when nothing else was asked for: the merchant admin. */
export const SIGNED_IN_HOME = '/admin';

/** The login cookie's value, set when absent or unreadable. */
function loginBinding(platform: Platform, ctx: AppContext): string {
  const held = readCookie(platform, ctx, LOGIN_COOKIE);
  if (held && held.length === 43) return held;
  const fresh = randomBytes(32).toString('base64url');
  setCookie(platform, ctx, LOGIN_COOKIE, fresh, LOGIN_COOKIE_MS);
  return fresh;
}

const loginToken = (platform: Platform, binding: string) => formToken(platform, `login|${hashToken(binding)}`);

/** The signed-out forms' CSRF rule: the token bound to this browser's login cookie; without that cookie, refused (login CSRF). */
export const loginForms: CsrfRule<Visitor> = (platform, ctx) => {
  const held = readCookie(platform, ctx, LOGIN_COOKIE);
  if (!held) throw csrfRefused();
  return loginToken(platform, held);
};

/** A signed-out page: one narrow column, its forms given this browser's CSRF token (the login cookie set when missing). */
export function showSignedOut(p: SignedOutPage, title: string, status: number, body: (csrf: string) => Markup): void {
  const csrf = loginToken(p.platform, loginBinding(p.platform, p.ctx));
  p.render(platformPage({ title, body: html`<div class="narrow">${body(csrf)}</div>` }), status);
}

/** A signed-out form's fields through its schema (a field not sent as empty), or the form with each issue at its field. */
export function parseSignedOutForm<S extends z.ZodType>(schema: S, fields: ReadonlyMap<string, string>, names: readonly string[]) {
  const parsed = schema.safeParse(Object.fromEntries(names.map((n) => [n, fields.get(n) ?? ''])));
  return parsed.success ? { data: parsed.data as z.output<S> } : { form: formWithIssues(fields, zodIssues(parsed.error)) };
}

const TOO_MANY = 'Too many attempts: this sign-in is locked for a while. Wait a few minutes and try again.';

/**
 * A refusal of an auth service shown on its form: 401 with one message for every wrong answer,
 * 429 with Retry-After (the rate limits: `tooMany` says which); any other error goes on to the error page.
 */
export function refusal(ctx: AppContext, err: unknown, tooMany = TOO_MANY): { status: number; message: string } {
  if (!(err instanceof PlatformError) || (err.kind !== 'unauthenticated' && err.kind !== 'rate_limited')) throw err;
  if (err.kind === 'rate_limited') {
    ctx.set('Retry-After', String(err.extra.retryAfterSeconds ?? 900));
    return { status: 429, message: tooMany };
  }
  const messages: Record<string, string> = {
    invalid_code: 'That code is wrong, used up or expired.',
    invalid_reset_token: 'This reset link is wrong, used or expired: ask for a new one below.',
  };
  return { status: 401, message: Object.hasOwn(messages, err.code) ? messages[err.code]! : 'The email or password is wrong.' };
}
