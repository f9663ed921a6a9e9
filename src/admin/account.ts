import { PASSWORD_MIN, PasswordUpdateBody, readMerchant, signOutOtherSessions, UpdateMerchantBody, updateMerchant, updatePassword } from '../auth/index.js';
import { PlatformError, type InputIssue } from '../errors.js';
import { html } from '../html.js';
import { clientAddress } from '../http/client-address.js';
import { blankForm, csrfInput, errorSummary, field, formWithIssues, formWithProblem, type FormState } from '../http/ui/forms.js';
import { facts, heading, when } from '../http/ui/parts.js';
import { zodIssues } from '../http/validate.js';
import { accountPage } from './layout.js';
import type { AdminPage } from './request.js';

/**
 * `/admin/account` (docs/admin.md, Your account): the signed-in merchant's own account, of no one
 * store, through the auth service the REST API uses: the name (`PATCH /v1/auth/custom/merchant`),
 * the email they sign in with (shown; the service does not change it), the password changed with
 * the current one (`POST /v1/auth/password/update`, its rules and rate limit: this session stays
 * signed in, every other ends), and signing out of every other session
 * (`POST /v1/auth/custom/signout-others`) or of this one (Log out).
 */

const ACCOUNT = '/admin/account';
const PASSWORD_FIELDS = new Set(['current_password', 'new_password', 'new_password_again']);
type AccountForms = { profile?: FormState; password?: FormState };

const sessionsWord = (n: number) => `${n} other ${n === 1 ? 'session' : 'sessions'}`;

export async function accountSettingsPage(p: AdminPage, forms: AccountForms = {}, status = 200): Promise<void> {
  const me = await readMerchant(p.platform, p.viewer.merchant.merchantId);
  if (!me) throw new PlatformError('unauthenticated', 'unauthenticated', 'This account no longer exists');
  const profile = forms.profile ?? blankForm(new Map([['name', me.name]]));
  const password = forms.password ?? blankForm();
  const body = html`<p><a href="/admin">« Your stores</a></p>
    ${heading('Your account', `Signed in as ${me.email}.`)}
    <h2>Profile</h2>
    <form class="card" method="post" action="${ACCOUNT}" novalidate>
      ${csrfInput(p.viewer.csrf)}${errorSummary(profile.problems)}
      ${field(profile, 'name', 'Your name', { required: true, autocomplete: 'name' })}
      ${facts([
        ['Email', me.email],
        ['Account since', when(me.created_at)],
      ])}
      <p class="muted">Your email is what you sign in with; it cannot be changed here.</p>
      <button class="button" type="submit">Save name</button>
    </form>
    <h2>Password</h2>
    <form class="card" method="post" action="${ACCOUNT}/password" novalidate>
      ${csrfInput(p.viewer.csrf)}${errorSummary(password.problems)}
      ${field(password, 'current_password', 'Current password', { type: 'password', required: true, autocomplete: 'current-password' })}
      ${field(password, 'new_password', 'New password', { type: 'password', required: true, autocomplete: 'new-password', hint: `At least ${PASSWORD_MIN} characters.` })}
      ${field(password, 'new_password_again', 'New password again', { type: 'password', required: true, autocomplete: 'new-password' })}
      <p class="muted">This browser stays signed in; every other place your account is signed in is signed out.</p>
      <button class="button" type="submit">Change password</button>
    </form>
    <h2>Sessions</h2>
    <div class="card">
      <p>Signing out of your other sessions ends, at once, every other browser signed in to your account and every API session token, with the app tokens made from them; sign-in codes and password reset links already sent stop working too. This browser stays signed in. Apps installed in your stores keep their own access.</p>
      <div class="actions">
        <form method="post" action="${ACCOUNT}/sessions">${csrfInput(p.viewer.csrf)}<button class="button button--secondary" type="submit">Sign out of other sessions</button></form>
        <form method="post" action="/logout">${csrfInput(p.viewer.csrf)}<button class="button button--secondary" type="submit">Sign out of this browser</button></form>
      </div>
    </div>`;
  p.render(accountPage(p, { title: 'Your account', body }), status);
}

export async function updateNameAction(p: AdminPage): Promise<void> {
  const parsed = UpdateMerchantBody.safeParse({ name: p.form.get('name') ?? '' });
  if (!parsed.success) return accountSettingsPage(p, { profile: formWithIssues(p.form, zodIssues(parsed.error)) }, 400);
  await updateMerchant(p.platform, p.viewer.merchant.merchantId, parsed.data);
  p.seeOther(ACCOUNT, 'Your name is saved.');
}

/** The password form through the API's body (a blank field said to be required, the new one typed twice alike), or the form with its issues. */
function passwordInput(form: ReadonlyMap<string, string>) {
  const current = form.get('current_password') ?? '';
  const next = form.get('new_password') ?? '';
  const issues: InputIssue[] = [];
  if (current === '') issues.push({ path: 'current_password', message: 'is required' });
  const parsed = PasswordUpdateBody.safeParse({ current_password: current || undefined, new_password: next });
  if (!parsed.success) issues.push(...zodIssues(parsed.error).filter((i) => i.path !== ''));
  if (next !== (form.get('new_password_again') ?? '')) issues.push({ path: 'new_password_again', message: 'is not the new password typed again' });
  return issues.length || !parsed.success ? { form: formWithIssues(new Map(), issues, PASSWORD_FIELDS) } : { data: parsed.data };
}

export async function changePasswordAction(p: AdminPage): Promise<void> {
  const input = passwordInput(p.form);
  if (input.form) return accountSettingsPage(p, { password: input.form }, 400);
  const { merchantId, sessionId } = p.viewer.merchant;
  let revoked: number;
  try {
    revoked = (
      await updatePassword(
        p.platform,
        { via: 'current_password', merchantId, sessionId, currentPassword: input.data.current_password!, newPassword: input.data.new_password },
        { ip: clientAddress(p.ctx) },
      )
    ).revoked_sessions;
  } catch (err) {
    if (!(err instanceof PlatformError)) throw err;
    if (err.code === 'invalid_credentials') {
      return accountSettingsPage(p, { password: formWithIssues(new Map(), [{ path: 'current_password', message: 'is wrong' }]) }, 401);
    }
    if (err.kind === 'rate_limited') {
      p.ctx.set('Retry-After', String(err.extra.retryAfterSeconds ?? 900));
      return accountSettingsPage(p, { password: formWithProblem(new Map(), 'Too many attempts: wait a few minutes and try again.') }, 429);
    }
    if (err.kind === 'conflict') return accountSettingsPage(p, { password: formWithProblem(new Map(), err.message) }, 409);
    throw err;
  }
  p.seeOther(ACCOUNT, `Your password is changed. ${revoked ? `${sessionsWord(revoked)} signed out; this` : 'This'} browser stays signed in.`);
}

export async function signOutOthersAction(p: AdminPage): Promise<void> {
  const { revoked_sessions } = await signOutOtherSessions(p.platform, p.viewer.merchant.merchantId, p.viewer.merchant.sessionId);
  p.seeOther(
    ACCOUNT,
    revoked_sessions ? `Signed out of ${sessionsWord(revoked_sessions)}; this browser stays signed in.` : 'There was no other session to sign out of.',
  );
}
