import { z } from 'zod';
import { html } from '../html.js';
import { clientAddress } from '../http/client-address.js';
import type { Visitor } from '../http/page-access.js';
import type { Pages } from '../http/pages.js';
import { flashNotice } from '../http/ui/flash.js';
import { blankForm, csrfInput, errorSummary, field, formWithProblem, hiddenInput, type FormState } from '../http/ui/forms.js';
import { parseSignedOutForm, refusal, showSignedOut, SIGNED_IN_HOME, type SignedOutPage } from './page-forms.js';
import { Email, NewPassword, PASSWORD_MIN } from './schemas.js';
import { requestPasswordReset, signUp, SIGNUP_ACCEPTED, updatePassword } from './service.js';

/**
 * Sign-up and password reset in a browser (docs/auth.md, The pages): the API's services with
 * their rate limits and their answers, which never tell whether an email has an account (a new
 * email and a known one get the same redirect and flash). Their forms are bound to the login
 * cookie as sign-in's are.
 */

type AccountPage = SignedOutPage & { viewer: Visitor };

const SignUpForm = z.object({ name: z.string().trim().min(1, 'is required').max(120), email: Email, password: NewPassword });
const ResetRequestForm = z.object({ email: Email });
const NewPasswordForm = z.object({ token: z.string().min(1).max(200), new_password: NewPassword });

const TOO_MANY = 'Too many attempts for this email or from this address. Wait a few minutes and try again.';
const passwordHint = `At least ${PASSWORD_MIN} characters.`;

function showSignUp(p: SignedOutPage, status: number, form: FormState): void {
  showSignedOut(
    p,
    'Create your account',
    status,
    (csrf) => html`<form class="card" method="post" action="/signup">
        ${csrfInput(csrf)}
        <h1>Create your Emporium account</h1>
        <p class="muted">One account runs all your stores.</p>
        ${errorSummary(form.problems)}${field(form, 'name', 'Your name', { required: true, autocomplete: 'name' })}${field(form, 'email', 'Email', {
          type: 'email',
          required: true,
          autocomplete: 'email',
        })}${field(form, 'password', 'Password', { type: 'password', required: true, autocomplete: 'new-password', hint: passwordHint })}
        <div class="actions"><button type="submit" class="button">Create account</button></div>
      </form>
      <p class="muted">Already have an account? <a href="/login">Sign in</a></p>`,
  );
}

/** GET /signup: the form, or the admin for a browser already signed in. */
function signUpForm(p: AccountPage): void {
  if (p.viewer.merchant) return p.seeOther(SIGNED_IN_HOME);
  showSignUp(p, 200, blankForm());
}

/**
 * POST /signup: the API's sign-up, then sign-in with the flash the API's answer gives. The same
 * for a new email and one with an account (whose owner is emailed), so the page tells no one
 * which emails have an account; the sign-in that follows is the API's next step too.
 */
async function submitSignUp(p: AccountPage): Promise<void> {
  const parsed = parseSignedOutForm(SignUpForm, p.form, ['name', 'email', 'password']);
  if (!parsed.data) return showSignUp(p, 400, parsed.form);
  try {
    await signUp(p.platform, parsed.data, { ip: clientAddress(p.ctx) });
  } catch (err) {
    const { status, message } = refusal(p.ctx, err, TOO_MANY);
    return showSignUp(p, status, formWithProblem(p.form, message));
  }
  p.seeOther('/login', `${SIGNUP_ACCEPTED.message}.`);
}

function showResetRequest(p: SignedOutPage, status: number, form: FormState, notice: string | null = null): void {
  showSignedOut(
    p,
    'Reset your password',
    status,
    (csrf) => html`<form class="card" method="post" action="/password/reset">
        ${csrfInput(csrf)}
        <h1>Reset your password</h1>
        ${notice ? flashNotice(notice) : html`<p class="muted">We email you a link to choose a new password. It works once, for 60 minutes.</p>`}${errorSummary(
          form.problems,
        )}${field(form, 'email', 'Email', { type: 'email', required: true, autocomplete: 'email' })}
        <div class="actions"><button type="submit" class="button">Email me a link</button></div>
      </form>
      <p class="muted"><a href="/login">Back to sign in</a> · <a href="/signup">Create an account</a></p>`,
  );
}

/** GET /password/reset: the request form (with the flash of a request sent). */
function resetRequestForm(p: AccountPage): void {
  showResetRequest(p, 200, blankForm(), p.takeFlash());
}

/** POST /password/reset: the API's reset request; the same answer whether or not the email has an account. */
async function submitResetRequest(p: AccountPage): Promise<void> {
  const parsed = parseSignedOutForm(ResetRequestForm, p.form, ['email']);
  if (!parsed.data) return showResetRequest(p, 400, parsed.form);
  try {
    await requestPasswordReset(p.platform, parsed.data, { ip: clientAddress(p.ctx) });
  } catch (err) {
    const { status, message } = refusal(p.ctx, err, TOO_MANY);
    return showResetRequest(p, status, formWithProblem(p.form, message));
  }
  p.seeOther('/password/reset', `If ${parsed.data.email} has an account, a link to choose a new password is on its way to it. It works once, for 60 minutes.`);
}

function showNewPassword(p: SignedOutPage, status: number, token: string, form: FormState): void {
  showSignedOut(
    p,
    'Choose a new password',
    status,
    (csrf) => html`<form class="card" method="post" action="/password/reset/new">
        ${csrfInput(csrf)}${hiddenInput('token', token)}
        <h1>Choose a new password</h1>
        <p class="muted">Every place your account is signed in is signed out; then you sign in with the new password.</p>
        ${errorSummary(form.problems)}${field(form, 'new_password', 'New password', {
          type: 'password',
          required: true,
          autocomplete: 'new-password',
          hint: passwordHint,
        })}
        <div class="actions"><button type="submit" class="button">Set the new password</button><a href="/password/reset">Ask for a new link</a></div>
      </form>`,
  );
}

/** GET /password/reset/new?token=…: the emailed link's page (without a token: the request form). */
function newPasswordForm(p: AccountPage): void {
  const token = typeof p.ctx.query.token === 'string' ? p.ctx.query.token : '';
  if (!token) return p.seeOther('/password/reset');
  showNewPassword(p, 200, token, blankForm());
}

/** POST /password/reset/new: the API's password update by reset token (every session ends), then sign-in. */
async function submitNewPassword(p: AccountPage): Promise<void> {
  const token = p.form.get('token') ?? '';
  const parsed = parseSignedOutForm(NewPasswordForm, p.form, ['token', 'new_password']);
  if (!parsed.data) return showNewPassword(p, 400, token, parsed.form);
  try {
    await updatePassword(
      p.platform,
      { via: 'reset_token', resetToken: parsed.data.token, newPassword: parsed.data.new_password },
      { ip: clientAddress(p.ctx) },
    );
  } catch (err) {
    const { status, message } = refusal(p.ctx, err, TOO_MANY);
    return showNewPassword(p, status, token, formWithProblem(new Map(), message));
  }
  p.seeOther('/login', 'Your password is changed and every session of your account has ended: sign in with the new password.');
}

/** Sign-up and password reset, on the sign-in pages' list (src/auth/pages.ts). */
export function accountPages(on: Pages<Visitor>): void {
  on.get('/signup', signUpForm);
  on.post('/signup', submitSignUp);
  on.get('/password/reset', resetRequestForm);
  on.post('/password/reset', submitResetRequest);
  on.get('/password/reset/new', newPasswordForm);
  on.post('/password/reset/new', submitNewPassword);
}
