import { randomBytes } from 'node:crypto';
import Router from '@koa/router';
import { z } from 'zod';
import { PlatformError } from '../errors.js';
import { escapeHtml } from '../html.js';
import {
  SESSION_COOKIE,
  browserPrincipal,
  checkFormToken,
  clearCookie,
  csrfRefused,
  formToken,
  readCookie,
  readForm,
  refuseCrossOrigin,
  sessionFormToken,
  setCookie,
} from '../http/browser.js';
import { clientAddress } from '../http/client-address.js';
import type { AppContext, AppCustom, AppRouter, AppState, MerchantPrincipal } from '../http/context.js';
import { pageForm } from '../http/endpoint.js';
import { pageHandler, postOnlyPage } from '../http/page-errors.js';
import { csrfInput, markup, platformPage, sendPage } from '../http/page.js';
import type { Platform } from '../platform.js';
import { hashToken } from '../secrets/index.js';
import { merchantEmail } from './contact.js';
import { Email } from './schemas.js';
import { requestSigninCode, signIn, signOut, verifySigninCode, type NewSession } from './service.js';

/**
 * Merchant sign-in in a browser (docs/console.md, Signing in): the password and one-time-code
 * sign-ins of /v1/auth as pages, their lockouts and rate limits included (the same service
 * calls), the session token in the HttpOnly `emporium_session` cookie and never in a page.
 */

/** The signed-out browser's pre-session cookie: random bytes its sign-in forms' CSRF tokens are bound to. */
export const LOGIN_COOKIE = 'emporium_login';
const LOGIN_COOKIE_MS = 2 * 60 * 60 * 1000;

/**
 * Where to go after signing in: a same-site relative path (`/`, then not `/` or `\`, no backslash
 * or control character anywhere, at most 4096 characters), else `/`. Nothing else is ever
 * followed: no open redirect.
 */
export function safeReturnTo(value: string | null | undefined): string {
  if (!value || value.length > 4096 || !value.startsWith('/') || value.startsWith('//')) return '/';
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (/[\\\u0000-\u001f\u007f]/.test(value)) return '/';
  return value;
}

const fieldOf = (fields: ReadonlyMap<string, string>, name: string) => fields.get(name) ?? '';

/** The login cookie's value, set when absent or unreadable. */
function loginBinding(platform: Platform, ctx: AppContext): string {
  const held = readCookie(platform, ctx, LOGIN_COOKIE);
  if (held && held.length === 43) return held;
  const fresh = randomBytes(32).toString('base64url');
  setCookie(platform, ctx, LOGIN_COOKIE, fresh, LOGIN_COOKIE_MS);
  return fresh;
}

const loginToken = (platform: Platform, binding: string) => formToken(platform, `login|${hashToken(binding)}`);

/** A signed-out form's checks: not cross-origin, and the token bound to this browser's login cookie (none: refused). */
function checkLoginForm(platform: Platform, ctx: AppContext, fields: ReadonlyMap<string, string>): void {
  refuseCrossOrigin(ctx);
  const held = readCookie(platform, ctx, LOGIN_COOKIE);
  if (!held) throw csrfRefused();
  checkFormToken(ctx, loginToken(platform, held), fields.get('csrf_token'));
}

type LoginView = {
  returnTo: string;
  email?: string;
  problems?: readonly string[];
  notice?: string;
  /** Show the code entry form (after a code was requested) instead of the password form. */
  codeSent?: boolean;
};

const returnField = (returnTo: string) => `<input type="hidden" name="return_to" value="${escapeHtml(returnTo)}">`;
const errorBox = (problems: readonly string[]) =>
  problems.length === 0
    ? ''
    : `<div class="errors" role="alert"><ul style="margin:0;padding-left:18px">${problems.map((p) => `<li>${escapeHtml(p)}</li>`).join('')}</ul></div>`;
const input = (name: string, label: string, type: string, value: string, extra = '') =>
  `<div class="field"><label for="${name}">${escapeHtml(label)}</label><input id="${name}" name="${name}" type="${type}" value="${escapeHtml(value)}" required ${extra}></div>`;

function loginPage(csrf: string, v: LoginView): string {
  const installing = v.returnTo.startsWith('/v1/app-store/oauth/authorize');
  const intro = installing
    ? '<p class="notice">Sign in to review the app that asks to be installed in your store.</p>'
    : '<p class="muted">Sign in with your merchant account.</p>';
  const email = v.email ?? '';
  const body = v.codeSent
    ? `<form class="card" method="post" action="/login/code/verify">${csrfInput(csrf)}${returnField(v.returnTo)}<h1>Enter your code</h1>` +
      (v.notice ? `<p class="notice" role="status">${escapeHtml(v.notice)}</p>` : '') +
      errorBox(v.problems ?? []) +
      input('email', 'Email', 'email', email, 'autocomplete="email"') +
      input('code', 'Sign-in code (6 digits)', 'text', '', 'inputmode="numeric" pattern="[0-9]{6}" maxlength="6" autocomplete="one-time-code" autofocus') +
      `<div class="actions"><button type="submit" class="button">Sign in</button><a href="/login?return_to=${encodeURIComponent(v.returnTo)}">Use your password instead</a></div></form>`
    : `<form class="card" method="post" action="/login">${csrfInput(csrf)}${returnField(v.returnTo)}<h1>Sign in to Emporium</h1>${intro}` +
      (v.notice ? `<p class="notice" role="status">${escapeHtml(v.notice)}</p>` : '') +
      errorBox(v.problems ?? []) +
      input('email', 'Email', 'email', email, 'autocomplete="email"') +
      input('password', 'Password', 'password', '', 'autocomplete="current-password"') +
      `<div class="actions"><button type="submit" class="button">Sign in</button></div></form>` +
      `<form class="card" method="post" action="/login/code">${csrfInput(csrf)}${returnField(v.returnTo)}<h2 style="margin-top:0">Sign in with a one-time code</h2>` +
      `<p class="muted">We email you a 6-digit code, good for 10 minutes.</p>` +
      `<div class="field"><label for="code-email">Email</label><input id="code-email" name="email" type="email" value="${escapeHtml(email)}" required autocomplete="email"></div>` +
      `<button type="submit" class="button button--secondary">Email me a code</button></form>`;
  return platformPage({ title: v.codeSent ? 'Enter your code' : 'Sign in', body: markup(`<div class="narrow">${body}</div>`) });
}

function showLogin(platform: Platform, ctx: AppContext, status: number, v: LoginView): void {
  sendPage(ctx, status, loginPage(loginToken(platform, loginBinding(platform, ctx)), v));
}

/** A refusal of the sign-in service shown on the form: 401 with one message for every wrong answer, 429 with Retry-After. */
function refusal(ctx: AppContext, err: unknown): { status: number; message: string } {
  if (!(err instanceof PlatformError) || (err.kind !== 'unauthenticated' && err.kind !== 'rate_limited')) throw err;
  if (err.kind === 'rate_limited') {
    ctx.set('Retry-After', String(err.extra.retryAfterSeconds ?? 900));
    return { status: 429, message: 'Too many attempts: this sign-in is locked for a while. Wait a few minutes and try again.' };
  }
  return { status: 401, message: err.code === 'invalid_code' ? 'That code is wrong, used up or expired.' : 'The email or password is wrong.' };
}

function signedIn(platform: Platform, ctx: AppContext, session: NewSession, returnTo: string): void {
  const age = Math.max(0, new Date(session.session.expires_at).getTime() - platform.clock.now().getTime());
  setCookie(platform, ctx, SESSION_COOKIE, session.session.token, age);
  clearCookie(platform, ctx, LOGIN_COOKIE);
  ctx.status = 303;
  ctx.redirect(returnTo);
}

const seeOther = (ctx: AppContext, to: string) => {
  ctx.status = 303;
  ctx.redirect(to);
};

const PasswordForm = z.object({ email: Email, password: z.string().min(1, 'is required').max(200) });
const CodeRequestForm = z.object({ email: Email });
const CodeForm = z.object({
  email: Email,
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'must be the 6-digit code'),
});
const problemsOf = (error: z.ZodError) => error.issues.map((i) => `${String(i.path[0] ?? 'form')}: ${i.message}`);

/** GET /login: the forms, or straight on to `return_to` for a browser already signed in. */
async function loginForm(platform: Platform, ctx: AppContext): Promise<void> {
  const returnTo = safeReturnTo(typeof ctx.query.return_to === 'string' ? ctx.query.return_to : null);
  if (await browserPrincipal(platform, ctx)) return seeOther(ctx, returnTo);
  showLogin(platform, ctx, 200, { returnTo });
}

/** POST /login: email and password through the API's sign-in (its lockout included). */
async function passwordLogin(platform: Platform, ctx: AppContext): Promise<void> {
  const fields = await readForm(ctx);
  checkLoginForm(platform, ctx, fields);
  const returnTo = safeReturnTo(fields.get('return_to'));
  const parsed = PasswordForm.safeParse({ email: fieldOf(fields, 'email'), password: fieldOf(fields, 'password') });
  if (!parsed.success) return showLogin(platform, ctx, 400, { returnTo, email: fieldOf(fields, 'email'), problems: problemsOf(parsed.error) });
  try {
    signedIn(platform, ctx, await signIn(platform, parsed.data, { ip: clientAddress(ctx) }), returnTo);
  } catch (err) {
    const { status, message } = refusal(ctx, err);
    showLogin(platform, ctx, status, { returnTo, email: parsed.data.email, problems: [message] });
  }
}

/** POST /login/code: a one-time code by email (the same answer whether or not the email has an account), then its form. */
async function requestCode(platform: Platform, ctx: AppContext): Promise<void> {
  const fields = await readForm(ctx);
  checkLoginForm(platform, ctx, fields);
  const returnTo = safeReturnTo(fields.get('return_to'));
  const parsed = CodeRequestForm.safeParse({ email: fieldOf(fields, 'email') });
  if (!parsed.success) return showLogin(platform, ctx, 400, { returnTo, email: fieldOf(fields, 'email'), problems: problemsOf(parsed.error) });
  try {
    await requestSigninCode(platform, parsed.data, { ip: clientAddress(ctx) });
  } catch (err) {
    const { status, message } = refusal(ctx, err);
    return showLogin(platform, ctx, status, { returnTo, email: parsed.data.email, problems: [message] });
  }
  showLogin(platform, ctx, 200, {
    returnTo,
    email: parsed.data.email,
    codeSent: true,
    notice: `If ${parsed.data.email} has an account, a 6-digit code is on its way to it. It works once, for 10 minutes.`,
  });
}

/** POST /login/code/verify: the code through the API's verification (its attempt limits and lockout included). */
async function verifyCode(platform: Platform, ctx: AppContext): Promise<void> {
  const fields = await readForm(ctx);
  checkLoginForm(platform, ctx, fields);
  const returnTo = safeReturnTo(fields.get('return_to'));
  const parsed = CodeForm.safeParse({ email: fieldOf(fields, 'email'), code: fieldOf(fields, 'code') });
  if (!parsed.success) return showLogin(platform, ctx, 400, { returnTo, email: fieldOf(fields, 'email'), codeSent: true, problems: problemsOf(parsed.error) });
  try {
    signedIn(platform, ctx, await verifySigninCode(platform, parsed.data, { ip: clientAddress(ctx) }), returnTo);
  } catch (err) {
    const { status, message } = refusal(ctx, err);
    showLogin(platform, ctx, status, { returnTo, email: parsed.data.email, codeSent: true, problems: [message] });
  }
}

/** POST /logout: the session ends (the same sign-out as the API's) and the cookie goes. */
async function logout(platform: Platform, ctx: AppContext): Promise<void> {
  const fields = await readForm(ctx);
  checkFormToken(ctx, sessionFormToken(platform, ctx), fields.get('csrf_token'));
  const principal = await browserPrincipal(platform, ctx);
  if (principal?.kind === 'merchant') await signOut(platform, principal.sessionId);
  clearCookie(platform, ctx, SESSION_COOKIE);
  seeOther(ctx, '/login');
}

/** The signed-in merchant as the pages' top bar shows them: email and the log-out form's token. */
export async function pageUser(platform: Platform, ctx: AppContext, merchant: MerchantPrincipal): Promise<{ email: string; csrf: string }> {
  return { email: (await merchantEmail(platform, merchant.merchantId)) ?? '', csrf: sessionFormToken(platform, ctx) ?? '' };
}

/**
 * GET / on the platform's host, for a browser (it asks for text/html): where to go. Anything else
 * (an API client's `Accept: application/json` or `*\/*`) gets the API's 404 as before.
 */
async function landing(platform: Platform, ctx: AppContext, next: () => Promise<unknown>): Promise<void> {
  if (!ctx.get('Accept').includes('text/html')) {
    await next();
    return;
  }
  const principal = await browserPrincipal(platform, ctx);
  const merchant = principal?.kind === 'merchant' ? principal : null;
  const user = merchant ? await pageUser(platform, ctx, merchant) : undefined;
  const links = merchant
    ? `<p>You are signed in as <strong>${escapeHtml(user!.email)}</strong>.</p>` +
      (merchant.operator
        ? '<p><a class="button" href="/console">Open the operator console</a></p>'
        : '<p class="muted">Apps you install from the App Store ask for your consent here.</p>')
    : '<p class="muted">The commerce platform’s pages for merchants and operators.</p><p><a class="button" href="/login">Sign in</a></p>';
  const body = markup(
    `<div class="narrow"><div class="card"><h1>Emporium</h1>${links}<p class="muted" style="margin-bottom:0"><a href="/docs">API reference</a></p></div></div>`,
  );
  sendPage(ctx, 200, platformPage({ title: merchant ? 'Welcome' : 'Emporium', body, user }));
}

/** The sign-in pages (mounted at the root, path `''`, by the auth module: koa-router matches nothing under a `/` prefix): GET /, GET and POST /login, POST /login/code, POST /login/code/verify, POST /logout. */
export function signInPages(platform: Platform): AppRouter {
  const router = new Router<AppState, AppCustom>();
  const page = (run: (platform: Platform, ctx: AppContext) => Promise<void>) => pageHandler(platform, (ctx) => run(platform, ctx));
  const form = (run: (platform: Platform, ctx: AppContext) => Promise<void>) => pageForm(page(run));
  router.get('/', (ctx, next) => landing(platform, ctx, next));
  router.get('/login', page(loginForm));
  router.post('/login', form(passwordLogin));
  router.post('/login/code', form(requestCode));
  router.post('/login/code/verify', form(verifyCode));
  router.post('/logout', form(logout));
  for (const path of ['/login/code', '/login/code/verify', '/logout']) router.get(path, postOnlyPage(platform));
  return router;
}
