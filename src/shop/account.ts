import { z } from 'zod';
import { addressLines } from '../address-formats.js';
import { activateCustomerAccount, getAccount, listAddresses, logInCustomer, logOutCustomer, signUpCustomer } from '../customers/index.js';
import { PlatformError } from '../errors.js';
import { html, type Markup } from '../html.js';
import { clientAddress } from '../http/client-address.js';
import { blankForm, csrfInput, errorSummary, field, formWithProblem, parseForm, type FormState } from '../http/ui/forms.js';
import { guestOrderLinks, listCustomerOrders } from '../orders/index.js';
import { CheckoutBody } from '../storefront/index.js';
import type { ShopPage } from './context.js';
import { money, shopPage } from './layout.js';
import { CUSTOMER_COOKIE, clearCookie, setCookie } from './session.js';

/**
 * The customer's account as pages (docs/shop.md, Accounts): sign up, log in and out through the
 * customers domain (its rate limits and lockouts), with the session token in the customer cookie.
 */

const LoginForm = z.object({
  // The storefront's own rule for a shopper's email (trimmed, lowercased, an address).
  email: CheckoutBody.shape.email,
  password: z.string({ message: 'is required' }).min(1, 'is required').max(200),
});
const RegisterForm = LoginForm.extend({
  password: z.string({ message: 'is required' }).min(8, 'must be at least 8 characters').max(200),
  first_name: z.string().trim().max(255).optional(),
  last_name: z.string().trim().max(255).optional(),
});

const narrow = (p: ShopPage, title: string, form: Markup) =>
  shopPage({
    storeName: p.viewer.store.name,
    title,
    body: html`<div style="max-width:460px;margin:0 auto">${form}</div>`,
    signedIn: p.viewer.customer !== null,
    csrf: p.viewer.csrf,
    flash: p.takeFlash(),
    look: p.viewer.look,
  });

function loginPage(p: ShopPage, form: FormState, notice?: string): Markup {
  return narrow(
    p,
    'Log in',
    html`<form class="card" method="post" action="/account/login">
      ${csrfOf(p)}
      <h1>Log in</h1>
      ${notice ? html`<p class="notice">${notice}</p>` : null}${errorSummary(
        form.problems,
        'Please check the form.',
      )}${field(form, 'email', 'Email', { type: 'email', required: true, autocomplete: 'email' })}${field(form, 'password', 'Password', {
        type: 'password',
        required: true,
        autocomplete: 'current-password',
      })}
      <p><button type="submit" class="button">Log in</button></p>
      <p class="muted" style="margin-bottom:0">New here? <a href="/account/register">Create an account</a></p>
    </form>`,
  );
}

function registerPage(p: ShopPage, form: FormState): Markup {
  return narrow(
    p,
    'Create an account',
    html`<form class="card" method="post" action="/account/register">
      ${csrfOf(p)}
      <h1>Create an account</h1>
      ${errorSummary(form.problems, 'Please check the form.')}
      <div class="row">
        ${field(form, 'first_name', 'First name', {
          autocomplete: 'given-name',
          markOptional: true,
        })}${field(form, 'last_name', 'Last name', { autocomplete: 'family-name', markOptional: true })}
      </div>
      ${field(form, 'email', 'Email', {
        type: 'email',
        required: true,
        autocomplete: 'email',
      })}${field(form, 'password', 'Password (8 characters or more)', {
        type: 'password',
        required: true,
        autocomplete: 'new-password',
      })}
      <p><button type="submit" class="button">Create account</button></p>
      <p class="muted" style="margin-bottom:0">Have an account? <a href="/account/login">Log in</a></p>
    </form>`,
  );
}

const ActivateForm = z.object({
  token: z.string({ message: 'is required: copy it from the message' }).trim().min(1, 'is required: copy it from the message').max(200),
  password: z.string({ message: 'is required' }).min(10, 'must be at least 10 characters').max(200),
});

function activatePage(p: ShopPage, form: FormState): Markup {
  return narrow(
    p,
    'Activate your account',
    html`<form class="card" method="post" action="/account/activate">
      ${csrfOf(p)}
      <h1>Activate your account</h1>
      <p class="muted">The message we sent to your email holds the activation token: it proves the email is yours, and your earlier orders with this email join your account.</p>
      ${errorSummary(form.problems, 'Please check the form.')}${field(form, 'token', 'Activation token', { required: true, autocomplete: 'off' })}${field(
        form,
        'password',
        'Choose a password (10 characters or more)',
        { type: 'password', required: true, autocomplete: 'new-password' },
      )}
      <p style="margin-bottom:0"><button type="submit" class="button">Activate account</button></p>
    </form>`,
  );
}

/** GET /account/activate: the activation form, the token prefilled from the message's link (`?token=`). */
export function activateForm(p: ShopPage): void {
  const token = typeof p.ctx.query.token === 'string' ? p.ctx.query.token.slice(0, 200) : '';
  p.render(activatePage(p, blankForm(new Map(token ? [['token', token]] : []))));
}

/** POST /account/activate: the customers domain's activation (the store's guest orders of the email become the customer's), signed in, then the account. */
export async function activate(p: ShopPage): Promise<void> {
  const parsed = parseForm(ActivateForm, p.form);
  if (!parsed.data) return p.render(activatePage(p, parsed.form), 400);
  try {
    // Only a token of this store's customer works here (another store's is refused, and stays unused).
    const input = { ...parsed.data, storeId: p.viewer.store.id };
    const session = await activateCustomerAccount(p.platform, input, { ip: clientAddress(p.ctx) }, guestOrderLinks);
    setCookie(p.platform, p.ctx, CUSTOMER_COOKIE, session.token, sessionAge(session.expires_at, p.platform.clock.now()));
    p.seeOther('/account', 'Welcome: your account is active.');
  } catch (err) {
    if (!(err instanceof PlatformError) || (err.kind !== 'unauthenticated' && err.kind !== 'rate_limited')) throw err;
    const message =
      err.kind === 'rate_limited'
        ? 'Too many attempts: wait a few minutes and try again.'
        : 'That activation token is wrong, used or expired: sign up again for a new one.';
    p.render(activatePage(p, formWithProblem(new Map(), message)), err.kind === 'rate_limited' ? 429 : 401);
  }
}

const csrfOf = (p: ShopPage) => csrfInput(p.viewer.csrf);
const sessionAge = (expiresAt: string, now: Date) => Math.max(0, new Date(expiresAt).getTime() - now.getTime());

export function loginForm(p: ShopPage): void {
  if (p.viewer.customer) return p.seeOther('/account');
  p.render(loginPage(p, blankForm()));
}

export function registerForm(p: ShopPage): void {
  if (p.viewer.customer) return p.seeOther('/account');
  p.render(registerPage(p, blankForm()));
}

/** POST /account/login: a wrong email or password shows the form again (401), a lockout says when to retry (429). */
export async function logIn(p: ShopPage): Promise<void> {
  const parsed = parseForm(LoginForm, p.form);
  if (!parsed.data) return p.render(loginPage(p, parsed.form), 400);
  try {
    const session = await logInCustomer(p.platform, { subdomain: p.viewer.store.subdomain, ...parsed.data }, { ip: clientAddress(p.ctx) });
    setCookie(p.platform, p.ctx, CUSTOMER_COOKIE, session.token, sessionAge(session.expires_at, p.platform.clock.now()));
    p.seeOther('/account');
  } catch (err) {
    if (!(err instanceof PlatformError) || (err.kind !== 'unauthenticated' && err.kind !== 'rate_limited')) throw err;
    if (err.extra.retryAfterSeconds !== undefined) p.ctx.set('Retry-After', String(err.extra.retryAfterSeconds));
    const message =
      err.kind === 'rate_limited' ? 'Too many attempts: wait a few minutes and try again.' : 'That email and password do not match an account of this store.';
    p.render(loginPage(p, formWithProblem(new Map([['email', parsed.data.email]]), message)), err.kind === 'rate_limited' ? 429 : 401);
  }
}

/**
 * POST /account/register: the customers domain's sign-up (the same answer whatever the store knows
 * of the email), then a log-in with the password: it works for a new account; for an email the
 * store already knew, the page says to look for the message the sign-up sent.
 */
export async function register(p: ShopPage): Promise<void> {
  const parsed = parseForm(RegisterForm, p.form);
  if (!parsed.data) return p.render(registerPage(p, parsed.form), 400);
  const caller = { ip: clientAddress(p.ctx) };
  const subdomain = p.viewer.store.subdomain;
  try {
    await signUpCustomer(p.platform, { subdomain, ...parsed.data }, caller, guestOrderLinks);
    const session = await logInCustomer(p.platform, { subdomain, email: parsed.data.email, password: parsed.data.password }, caller);
    setCookie(p.platform, p.ctx, CUSTOMER_COOKIE, session.token, sessionAge(session.expires_at, p.platform.clock.now()));
    p.seeOther('/account', 'Welcome: your account is ready.');
  } catch (err) {
    if (!(err instanceof PlatformError) || (err.kind !== 'unauthenticated' && err.kind !== 'rate_limited')) throw err;
    if (err.kind === 'rate_limited') return p.render(registerPage(p, formWithProblem(p.form, 'Too many attempts: wait a few minutes and try again.')), 429);
    // A known email (an account, an order, the merchant's record): the message sent to it proves it, on the activation page.
    p.seeOther(
      '/account/activate',
      'Thanks. If this email already had an account or an order with us, we sent it a message to prove it is yours: paste its activation token here (or follow its link), or log in if you have an account.',
    );
  }
}

/** POST /account/logout: the session ends and the cookie goes. */
export async function logOut(p: ShopPage): Promise<void> {
  const customer = p.viewer.customer;
  if (customer) await logOutCustomer(p.platform, { customerId: customer.id, storeId: p.viewer.store.id, sessionId: customer.sessionId });
  clearCookie(p.platform, p.ctx, CUSTOMER_COOKIE);
  p.seeOther('/');
}

/** GET /account: the customer's orders (latest first) and addresses; signed out, the login page. */
export async function accountPage(p: ShopPage): Promise<void> {
  const { store, customer } = p.viewer;
  if (!customer) return p.seeOther('/account/login');
  const [account, orders, addresses] = await Promise.all([
    getAccount(p.platform, store.id, customer.id),
    listCustomerOrders(p.platform, store.id, customer.id, { limit: 20, backwards: true }),
    listAddresses(p.platform, store.id, customer.id, { limit: 10 }),
  ]);
  const status = (s: string) => html`<span class="status">${s.replace(/_/g, ' ')}</span>`;
  const orderRows = orders.items.map(
    (o) =>
      html`<tr>
        <td><a href="/checkout/orders/${o.id}">#${o.number}</a></td>
        <td>${new Date(o.created_at).toISOString().slice(0, 10)}</td>
        <td data-label="Payment">${status(o.financial_status)}</td>
        <td data-label="Fulfillment">${status(o.fulfillment_status ?? 'unfulfilled')}</td>
        <td>${money(o.total, o.currency)}</td>
      </tr>`,
  );
  const addressList = addresses.items.map(
    (a) =>
      html`<li class="card" style="list-style:none;margin-bottom:10px">
        ${addressLines(a).map((x, i) => html`${i ? html`<br>` : null}${x}`)}${a.default ? html` <span class="status">Default</span>` : null}
      </li>`,
  );
  const name = [account.first_name, account.last_name].filter(Boolean).join(' ') || account.email;
  const body = html`<h1>Your account</h1>
    <p class="muted">Signed in as ${name} (${account.email})</p>
    <h2>Orders</h2>
    ${
      orderRows.length
        ? html`<div class="table-wrap" role="region" aria-label="Your orders" tabindex="0">
            <table class="orders">
              <caption class="visually-hidden">
                Your orders
              </caption>
              <thead>
                <tr>
                  <th scope="col">Order</th>
                  <th scope="col">Date</th>
                  <th scope="col">Payment</th>
                  <th scope="col">Fulfillment</th>
                  <th scope="col">Total</th>
                </tr>
              </thead>
              <tbody>
                ${orderRows}
              </tbody>
            </table>
          </div>`
        : html`<p class="card">You have not placed any orders yet. <a href="/collections/all">Start shopping</a>.</p>`
    }
    <h2>Addresses</h2>
    ${
      addressList.length
        ? html`<ul style="padding:0">
            ${addressList}
          </ul>`
        : html`<p class="muted">No saved addresses.</p>`
    }
    <form method="post" action="/account/logout">${csrfOf(p)}<button type="submit" class="button button--secondary">Log out</button></form>`;
  p.render(shopPage({ storeName: store.name, title: 'Your account', body, signedIn: true, csrf: p.viewer.csrf, flash: p.takeFlash(), look: p.viewer.look }));
}
