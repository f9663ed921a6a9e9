import { z } from 'zod';
import { html, type Markup } from '../html.js';
import { clearCookie, sessionFormToken, setCookie, SESSION_COOKIE } from '../http/browser.js';
import { clientAddress } from '../http/client-address.js';
import type { AppContext, AppRouter, MerchantPrincipal } from '../http/context.js';
import { sessionForms, visitor, type Visitor } from '../http/page-access.js';
import { platformErrorPage } from '../http/page-errors.js';
import { pages } from '../http/pages.js';
import { flashNotice } from '../http/ui/flash.js';
import { blankForm, csrfInput, errorSummary, field, formWithProblem, hiddenInput, type FormState } from '../http/ui/forms.js';
import type { Platform } from '../platform.js';
import { accountPages } from './account-pages.js';
import { merchantEmail } from './contact.js';
import { LOGIN_COOKIE, loginForms, parseSignedOutForm, refusal, showSignedOut, SIGNED_IN_HOME, type SignedOutPage } from './page-forms.js';
import { Email } from './schemas.js';
import { requestSigninCode, signIn, signOut, verifySigninCode, type NewSession } from './service.js';

export { LOGIN_COOKIE };

/**
 * Merchant sign-in in a browser (docs/auth.md, The pages): the password and one-time-code
 * sign-ins of /v1/auth as pages, their lockouts and rate limits included (the same service
 * calls), the session token in the HttpOnly `emporium_session` cookie and never in a page.
 * Sign-up and password reset are src/auth/account-pages.ts, on the same list.
 */

/**
 * Where to go after signing in: a same-site relative path (`/`, then not `/` or `\`, no backslash
 * or control character anywhere, at most 4096 characters), else the admin. Nothing else is ever
 * followed: no open redirect.
 */
export function safeReturnTo(value: string | null | undefined): string {
  if (!value || value.length > 4096 || !value.startsWith('/') || value.startsWith('//')) return SIGNED_IN_HOME;
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (/[\\\u0000-\u001f\u007f]/.test(value)) return SIGNED_IN_HOME;
  return value;
}

type SignIn = SignedOutPage;

type LoginView = {
  returnTo: string;
  form: FormState;
  notice?: string | null;
  /** Show the code entry form (after a code was requested) instead of the password form. */
  codeSent?: boolean;
};

function loginBody(csrf: string, v: LoginView): Markup {
  const installing = v.returnTo.startsWith('/v1/app-store/oauth/authorize');
  const notice = v.notice ? flashNotice(v.notice) : null;
  const top = html`${csrfInput(csrf)}${hiddenInput('return_to', v.returnTo)}`;
  if (v.codeSent)
    return html`<form class="card" method="post" action="/login/code/verify">
      ${top}
      <h1>Enter your code</h1>
      ${notice}${errorSummary(v.form.problems)}${field(v.form, 'email', 'Email', {
        type: 'email',
        required: true,
        autocomplete: 'email',
      })}${field(v.form, 'code', 'Sign-in code (6 digits)', {
        required: true,
        autocomplete: 'one-time-code',
        attrs: html`inputmode="numeric" pattern="[0-9]{6}" maxlength="6" autofocus`,
      })}
      <div class="actions">
        <button type="submit" class="button">Sign in</button><a href="/login?return_to=${encodeURIComponent(v.returnTo)}">Use your password instead</a>
      </div>
    </form>`;
  return html`<form class="card" method="post" action="/login">
      ${top}
      <h1>Sign in to Emporium</h1>
      ${
        installing
          ? html`<p class="notice">Sign in to review the app that asks to be installed in your store.</p>`
          : html`<p class="muted">Sign in with your merchant account.</p>`
      }${notice}${errorSummary(v.form.problems)}${field(v.form, 'email', 'Email', { type: 'email', required: true, autocomplete: 'email' })}${field(
        v.form,
        'password',
        'Password',
        {
          type: 'password',
          required: true,
          autocomplete: 'current-password',
        },
      )}
      <div class="actions"><button type="submit" class="button">Sign in</button><a href="/password/reset">Forgot your password?</a></div>
    </form>
    <form class="card" method="post" action="/login/code">
      ${top}
      <h2 style="margin-top:0">Sign in with a one-time code</h2>
      <p class="muted">We email you a 6-digit code, good for 10 minutes.</p>
      ${field(blankForm(new Map([['email', v.form.values.get('email') ?? '']])), 'email', 'Email', {
        type: 'email',
        required: true,
        autocomplete: 'email',
        id: 'f-code-email',
      })}<button type="submit" class="button button--secondary">Email me a code</button>
    </form>
    <p class="muted">New to Emporium? <a href="/signup">Create an account</a></p>`;
}

function showLogin(p: SignIn, status: number, v: LoginView): void {
  showSignedOut(p, v.codeSent ? 'Enter your code' : 'Sign in', status, (csrf) => loginBody(csrf, v));
}

function signedIn(p: SignIn, session: NewSession, returnTo: string): void {
  const age = Math.max(0, new Date(session.session.expires_at).getTime() - p.platform.clock.now().getTime());
  setCookie(p.platform, p.ctx, SESSION_COOKIE, session.session.token, age);
  clearCookie(p.platform, p.ctx, LOGIN_COOKIE);
  p.seeOther(returnTo);
}

const PasswordForm = z.object({ email: Email, password: z.string().min(1, 'is required').max(200) });
const CodeRequestForm = z.object({ email: Email });
const CodeForm = z.object({
  email: Email,
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'must be the 6-digit code'),
});

/** GET /login: the forms (with the flash of a sign-out), or straight on to `return_to` for a browser already signed in. */
function loginForm(p: SignIn & { viewer: Visitor }): void {
  const returnTo = safeReturnTo(typeof p.ctx.query.return_to === 'string' ? p.ctx.query.return_to : null);
  if (p.viewer.merchant) return p.seeOther(returnTo);
  showLogin(p, 200, { returnTo, form: blankForm(), notice: p.takeFlash() });
}

/** POST /login: email and password through the API's sign-in (its lockout included). */
async function passwordLogin(p: SignIn): Promise<void> {
  const returnTo = safeReturnTo(p.form.get('return_to'));
  const parsed = parseSignedOutForm(PasswordForm, p.form, ['email', 'password']);
  if (!parsed.data) return showLogin(p, 400, { returnTo, form: parsed.form });
  try {
    signedIn(p, await signIn(p.platform, parsed.data, { ip: clientAddress(p.ctx) }), returnTo);
  } catch (err) {
    const { status, message } = refusal(p.ctx, err);
    showLogin(p, status, { returnTo, form: formWithProblem(new Map([['email', parsed.data.email]]), message) });
  }
}

/** POST /login/code: a one-time code by email (the same answer whether or not the email has an account), then its form. */
async function requestCode(p: SignIn): Promise<void> {
  const returnTo = safeReturnTo(p.form.get('return_to'));
  const parsed = parseSignedOutForm(CodeRequestForm, p.form, ['email']);
  if (!parsed.data) return showLogin(p, 400, { returnTo, form: parsed.form });
  const email = parsed.data.email;
  try {
    await requestSigninCode(p.platform, parsed.data, { ip: clientAddress(p.ctx) });
  } catch (err) {
    const { status, message } = refusal(p.ctx, err);
    return showLogin(p, status, { returnTo, form: formWithProblem(new Map([['email', email]]), message) });
  }
  showLogin(p, 200, {
    returnTo,
    form: blankForm(new Map([['email', email]])),
    codeSent: true,
    notice: `If ${email} has an account, a 6-digit code is on its way to it. It works once, for 10 minutes.`,
  });
}

/** POST /login/code/verify: the code through the API's verification (its attempt limits and lockout included). */
async function verifyCode(p: SignIn): Promise<void> {
  const returnTo = safeReturnTo(p.form.get('return_to'));
  const parsed = parseSignedOutForm(CodeForm, p.form, ['email', 'code']);
  if (!parsed.data) return showLogin(p, 400, { returnTo, form: parsed.form, codeSent: true });
  try {
    signedIn(p, await verifySigninCode(p.platform, parsed.data, { ip: clientAddress(p.ctx) }), returnTo);
  } catch (err) {
    const { status, message } = refusal(p.ctx, err);
    showLogin(p, status, { returnTo, form: formWithProblem(new Map([['email', parsed.data.email]]), message), codeSent: true });
  }
}

/** POST /logout: the session ends (the same sign-out as the API's), the cookie goes, and sign-in says so. */
async function logout(p: SignIn & { viewer: Visitor }): Promise<void> {
  if (p.viewer.merchant) await signOut(p.platform, p.viewer.merchant.sessionId);
  clearCookie(p.platform, p.ctx, SESSION_COOKIE);
  p.seeOther('/login', 'You are signed out.');
}

/** The signed-in merchant as the pages' top bar shows them: email and the log-out form's token. */
export async function pageUser(platform: Platform, ctx: AppContext, merchant: MerchantPrincipal): Promise<{ email: string; csrf: string }> {
  return { email: (await merchantEmail(platform, merchant.merchantId)) ?? '', csrf: sessionFormToken(platform, ctx) ?? '' };
}

/** GET / on the platform's host, for a browser: the admin when signed in, else sign-in (an API client gets the API's 404: `answers`). */
function landing(p: SignIn & { viewer: Visitor }): void {
  p.seeOther(p.viewer.merchant ? SIGNED_IN_HOME : '/login');
}

/**
 * The sign-in pages (mounted at the root, path `''`, by the auth module: koa-router matches
 * nothing under a `/` prefix), any browser's: their forms bound to the login cookie, Log out to
 * the session. GET of a form's address is a 405 page.
 */
export function signInPages(platform: Platform): AppRouter {
  const on = pages(platform, { name: 'sign-in', access: visitor, csrf: loginForms, errorPage: platformErrorPage });
  on.get('/', { answers: (ctx) => ctx.get('Accept').includes('text/html') }, landing);
  on.get('/login', loginForm);
  on.post('/login', passwordLogin);
  on.post('/login/code', requestCode);
  on.post('/login/code/verify', verifyCode);
  on.post('/logout', { csrf: sessionForms }, logout);
  accountPages(on);
  return on.router;
}
