import { z } from 'zod';
import { getAccount, listAddresses, logInCustomer, logOutCustomer, signUpCustomer } from '../customers/index.js';
import { PlatformError } from '../errors.js';
import { clientAddress } from '../http/client-address.js';
import type { AppContext } from '../http/context.js';
import { listCustomerOrders } from '../orders/index.js';
import type { Platform } from '../platform.js';
import { escapeHtml } from '../rendering/index.js';
import { CheckoutBody } from '../storefront/index.js';
import { formInput, postedForm, seeOther } from './cart.js';
import type { Shop } from './context.js';
import { csrfField, errorList, field, html, money, page } from './layout.js';
import { CUSTOMER_COOKIE, clearCookie, setCookie } from './session.js';

/**
 * The customer's account as pages (docs/shop.md, Accounts): sign up, log in and out through the
 * customers domain (its rate limits and lockouts), with the session token in the customer cookie.
 */

const LoginForm = z.object({
  // The storefront's own rule for a shopper's email (trimmed, lowercased, an address).
  email: CheckoutBody.shape.email,
  password: z.string().min(1, 'is required').max(200),
});
const RegisterForm = LoginForm.extend({
  password: z.string().min(8, 'must be at least 8 characters').max(200),
  first_name: z.string().trim().max(255).optional(),
  last_name: z.string().trim().max(255).optional(),
});

function sendHtml(ctx: AppContext, status: number, body: string): void {
  ctx.status = status;
  ctx.set('Cache-Control', 'private, no-store');
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = body;
}

function loginPage(shop: Shop, email: string, problems: readonly string[], notice?: string): string {
  const body = html(
    `<div style="max-width:460px;margin:0 auto"><form class="card" method="post" action="/account/login">${csrfField(shop.csrf)}<h1>Log in</h1>` +
      (notice ? `<p class="notice">${escapeHtml(notice)}</p>` : '') +
      errorList(problems) +
      field('email', 'Email', email, { type: 'email', required: true, autocomplete: 'email' }) +
      field('password', 'Password', '', { type: 'password', required: true, autocomplete: 'current-password' }) +
      `<p><button type="submit" class="button">Log in</button></p><p class="muted" style="margin-bottom:0">New here? <a href="/account/register">Create an account</a></p></form></div>`,
  );
  return page({ storeName: shop.store.name, title: 'Log in', body, signedIn: false, csrf: shop.csrf });
}

function registerPage(shop: Shop, values: ReadonlyMap<string, string>, problems: readonly string[]): string {
  const v = (k: string) => values.get(k) ?? '';
  const body = html(
    `<div style="max-width:460px;margin:0 auto"><form class="card" method="post" action="/account/register">${csrfField(shop.csrf)}<h1>Create an account</h1>` +
      errorList(problems) +
      `<div class="row">${field('first_name', 'First name', v('first_name'), { autocomplete: 'given-name' })}${field('last_name', 'Last name', v('last_name'), { autocomplete: 'family-name' })}</div>` +
      field('email', 'Email', v('email'), { type: 'email', required: true, autocomplete: 'email' }) +
      field('password', 'Password (8 characters or more)', '', { type: 'password', required: true, autocomplete: 'new-password' }) +
      `<p><button type="submit" class="button">Create account</button></p><p class="muted" style="margin-bottom:0">Have an account? <a href="/account/login">Log in</a></p></form></div>`,
  );
  return page({ storeName: shop.store.name, title: 'Create an account', body, signedIn: false, csrf: shop.csrf });
}

const issues = (error: z.ZodError) => error.issues.map((i) => `${String(i.path[0] ?? 'form').replace(/_/g, ' ')}: ${i.message}`);
const sessionAge = (expiresAt: string, now: Date) => Math.max(0, new Date(expiresAt).getTime() - now.getTime());

export async function loginForm(_platform: Platform, ctx: AppContext, shop: Shop): Promise<void> {
  if (shop.customer) return seeOther(ctx, '/account');
  sendHtml(ctx, 200, loginPage(shop, '', []));
}

export async function registerForm(_platform: Platform, ctx: AppContext, shop: Shop): Promise<void> {
  if (shop.customer) return seeOther(ctx, '/account');
  sendHtml(ctx, 200, registerPage(shop, new Map(), []));
}

/** POST /account/login: a wrong email or password shows the form again (401), a lockout says when to retry (429). */
export async function logIn(platform: Platform, ctx: AppContext, shop: Shop): Promise<void> {
  const fields = await postedForm(platform, ctx, shop);
  const parsed = LoginForm.safeParse(formInput(fields));
  if (!parsed.success) return sendHtml(ctx, 400, loginPage(shop, fields.get('email') ?? '', issues(parsed.error)));
  try {
    const session = await logInCustomer(platform, { subdomain: shop.store.subdomain, ...parsed.data }, { ip: clientAddress(ctx) });
    setCookie(platform, ctx, CUSTOMER_COOKIE, session.token, sessionAge(session.expires_at, platform.clock.now()));
    seeOther(ctx, '/account');
  } catch (err) {
    if (!(err instanceof PlatformError) || (err.kind !== 'unauthenticated' && err.kind !== 'rate_limited')) throw err;
    if (err.extra.retryAfterSeconds !== undefined) ctx.set('Retry-After', String(err.extra.retryAfterSeconds));
    const message =
      err.kind === 'rate_limited' ? 'Too many attempts: wait a few minutes and try again.' : 'That email and password do not match an account of this store.';
    sendHtml(ctx, err.kind === 'rate_limited' ? 429 : 401, loginPage(shop, parsed.data.email, [message]));
  }
}

/**
 * POST /account/register: the customers domain's sign-up (the same answer whatever the store knows
 * of the email), then a log-in with the password: it works for a new account; for an email the
 * store already knew, the page says to look for the message the sign-up sent.
 */
export async function register(platform: Platform, ctx: AppContext, shop: Shop): Promise<void> {
  const fields = await postedForm(platform, ctx, shop);
  const parsed = RegisterForm.safeParse(formInput(fields));
  if (!parsed.success) return sendHtml(ctx, 400, registerPage(shop, fields, issues(parsed.error)));
  const caller = { ip: clientAddress(ctx) };
  try {
    await signUpCustomer(platform, { subdomain: shop.store.subdomain, ...parsed.data }, caller);
    const session = await logInCustomer(platform, { subdomain: shop.store.subdomain, email: parsed.data.email, password: parsed.data.password }, caller);
    setCookie(platform, ctx, CUSTOMER_COOKIE, session.token, sessionAge(session.expires_at, platform.clock.now()));
    seeOther(ctx, '/account');
  } catch (err) {
    if (!(err instanceof PlatformError) || (err.kind !== 'unauthenticated' && err.kind !== 'rate_limited')) throw err;
    if (err.kind === 'rate_limited') return sendHtml(ctx, 429, registerPage(shop, fields, ['Too many attempts: wait a few minutes and try again.']));
    sendHtml(
      ctx,
      200,
      loginPage(
        shop,
        parsed.data.email,
        [],
        'Thanks. If this email already had an account or an order with us, we sent it a message to prove it is yours: follow it, then log in.',
      ),
    );
  }
}

/** POST /account/logout: the session ends and the cookie goes. */
export async function logOut(platform: Platform, ctx: AppContext, shop: Shop): Promise<void> {
  await postedForm(platform, ctx, shop);
  if (shop.customer) await logOutCustomer(platform, { customerId: shop.customer.id, storeId: shop.store.id, sessionId: shop.customer.sessionId });
  clearCookie(platform, ctx, CUSTOMER_COOKIE);
  seeOther(ctx, '/');
}

/** GET /account: the customer's orders (latest first) and addresses; signed out, the login page. */
export async function accountPage(platform: Platform, ctx: AppContext, shop: Shop): Promise<void> {
  if (!shop.customer) return seeOther(ctx, '/account/login');
  const storeId = shop.store.id;
  const [account, orders, addresses] = await Promise.all([
    getAccount(platform, storeId, shop.customer.id),
    listCustomerOrders(platform, storeId, shop.customer.id, { limit: 20, backwards: true }),
    listAddresses(platform, storeId, shop.customer.id, { limit: 10 }),
  ]);
  const orderRows = orders.items
    .map(
      (o) =>
        `<tr><td><a href="/checkout/orders/${escapeHtml(o.id)}">#${o.number}</a></td><td>${escapeHtml(new Date(o.created_at).toISOString().slice(0, 10))}</td><td><span class="status">${escapeHtml(o.financial_status.replace(/_/g, ' '))}</span></td><td><span class="status">${escapeHtml((o.fulfillment_status ?? 'unfulfilled').replace(/_/g, ' '))}</span></td><td>${money(o.total, o.currency)}</td></tr>`,
    )
    .join('');
  const addressList = addresses.items
    .map(
      (a) =>
        `<li class="card" style="list-style:none;margin-bottom:10px">${[
          a.first_name && a.last_name ? `${a.first_name} ${a.last_name}` : a.last_name,
          a.address1,
          a.address2,
          a.city,
          a.zip,
          a.country_code,
        ]
          .filter(Boolean)
          .map((x) => escapeHtml(x))
          .join('<br>')}</li>`,
    )
    .join('');
  const name = [account.first_name, account.last_name].filter(Boolean).join(' ') || account.email;
  const body = html(
    `<h1>Your account</h1><p class="muted">Signed in as ${escapeHtml(name)} (${escapeHtml(account.email)})</p>` +
      `<h2>Orders</h2>${orderRows ? `<table class="orders"><thead><tr><th scope="col">Order</th><th scope="col">Date</th><th scope="col">Payment</th><th scope="col">Fulfillment</th><th scope="col">Total</th></tr></thead><tbody>${orderRows}</tbody></table>` : '<p class="card">You have not placed any orders yet. <a href="/collections/all">Start shopping</a>.</p>'}` +
      `<h2>Addresses</h2>${addressList ? `<ul style="padding:0">${addressList}</ul>` : '<p class="muted">No saved addresses.</p>'}` +
      `<form method="post" action="/account/logout">${csrfField(shop.csrf)}<button type="submit" class="button button--secondary">Log out</button></form>`,
  );
  sendHtml(ctx, 200, page({ storeName: shop.store.name, title: 'Your account', body, signedIn: true, csrf: shop.csrf }));
}
