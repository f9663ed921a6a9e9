import type { z } from 'zod';
import { merchantEmail } from '../auth/index.js';
import { PlatformError } from '../errors.js';
import { escapeHtml } from '../html.js';
import { browserPrincipal, checkFormToken, readCookie, readForm, sessionFormToken, SESSION_COOKIE } from '../http/browser.js';
import type { AppContext, MerchantPrincipal } from '../http/context.js';
import { STATUS, toPlatformError } from '../http/errors.js';
import { join, markup, platformPage, sendPage } from '../http/page.js';
import type { Module } from '../module.js';
import type { Platform } from '../platform.js';
import { consolePage, type ConsolePage, type Viewer } from './layout.js';

/**
 * One console request (docs/console.md): who is looking (an operator, by the browser session
 * cookie only), the platform, the module list (the operations services read the modules' job
 * contracts and figures), and the page's answers.
 */
export type ConsoleRequest = {
  platform: Platform;
  modules: readonly Module[];
  ctx: AppContext;
  operator: MerchantPrincipal;
  viewer: Viewer;
};

const refused = (message: string) => new PlatformError('not_allowed', 'operator_required', message);

/** A page for a refused or failed request: no console navigation (the reader may be no operator). */
function problemPage(ctx: AppContext, status: number, title: string, message: string, details: readonly string[] = []): void {
  const list = details.length ? `<ul>${details.map((d) => `<li>${escapeHtml(d)}</li>`).join('')}</ul>` : '';
  const body = join(
    markup('<div class="narrow"><div class="card"><h1>'),
    title,
    markup('</h1><p>'),
    message,
    markup(`</p>${list}<p class="actions"><a class="button button--secondary" href="/console">Back to the console</a></p></div></div>`),
  );
  sendPage(ctx, status, platformPage({ title, body }));
}

const TITLES = new Map([
  [400, 'This request has invalid input'],
  [401, 'Sign in first'],
  [403, 'Not allowed'],
  [404, 'Not found'],
  [409, 'That could not be done now'],
  [413, 'Too large'],
  [415, 'Not a form'],
  [429, 'Too many requests'],
  [503, 'Temporarily unavailable'],
]);

/** Any error as a page with its status (a 5xx logged, its detail not shown). */
export function errorPage(platform: Platform, ctx: AppContext, raw: unknown): void {
  const err = toPlatformError(raw);
  if (!err) {
    platform.log.error({ event: 'console.failed', path: ctx.path, err: raw instanceof Error ? raw.message : String(raw) });
    problemPage(ctx, 500, 'Something went wrong', 'The console could not do this. It was logged; try again in a moment.');
    return;
  }
  const status = STATUS[err.kind];
  if (err.extra.retryAfterSeconds !== undefined) ctx.set('Retry-After', String(err.extra.retryAfterSeconds));
  const details = [...(err.extra.details ?? []), ...(err.extra.issues ?? []).map((i) => (i.path ? `${i.path}: ${i.message}` : i.message))];
  problemPage(ctx, status, TITLES.get(status) ?? 'Refused', err.message, details);
}

/**
 * Who may use the console: a browser with a live merchant session cookie (`emporium_session`)
 * whose account is an operator (OPERATOR_EMAILS, the same flag as the API's `operator` access).
 * A request with `Authorization` (any bearer token: an app's, a customer's, even a merchant's) is
 * 403: the console takes the cookie only. A cookie that holds another kind of token is 403; no
 * live session is a 303 to sign-in and back; a merchant who is no operator is 403.
 */
export async function admit(platform: Platform, modules: readonly Module[], ctx: AppContext): Promise<ConsoleRequest | null> {
  if (ctx.get('Authorization')) throw refused('The console is for operators signed in in a browser; it takes no API tokens.');
  const token = readCookie(platform, ctx, SESSION_COOKIE);
  if (token && !token.startsWith('emp_session_')) throw refused('The console is for operators signed in in a browser.');
  const principal = token ? await browserPrincipal(platform, ctx) : null;
  if (!principal || principal.kind !== 'merchant' || !token) {
    const back = ctx.method === 'GET' ? ctx.url : '/console';
    ctx.redirect(`/login?return_to=${encodeURIComponent(back)}`);
    ctx.status = 303;
    return null;
  }
  if (!principal.operator) throw refused('Only an operator of the platform may use the console.');
  // One token for the browser's session, the console's forms and the top bar's log-out alike (src/http/browser.ts).
  const csrf = sessionFormToken(platform, ctx)!;
  const viewer: Viewer = { email: (await merchantEmail(platform, principal.merchantId)) ?? 'operator', csrf, logoutCsrf: csrf };
  return { platform, modules, ctx, operator: principal, viewer };
}

/** Answer a console page (200 unless told). */
export function render(c: ConsoleRequest, page: ConsolePage, status = 200): void {
  sendPage(c.ctx, status, consolePage(c.viewer, page));
}

/** POST-redirect-GET: 303 to a console page. */
export function seeOther(c: ConsoleRequest, to: string): void {
  c.ctx.redirect(to);
  c.ctx.status = 303;
}

/**
 * A posted form's fields (each field's first value), once its CSRF token is checked: the token
 * bound to this session (`console|<hash of the session token>`), and not cross-site. The page reads
 * its own body (the route is marked `pageForm`): another content type is 415, more than 16 KiB
 * 413, each a page.
 */
export async function postedForm(c: ConsoleRequest): Promise<Map<string, string>> {
  const fields = await readForm(c.ctx);
  checkFormToken(c.ctx, c.viewer.csrf, fields.get('csrf_token'));
  return fields;
}

/** A query string parsed by a schema (the API's own), empty values and the console's `done` left out; 400 otherwise. */
export function parseQuery<T extends z.ZodType>(c: ConsoleRequest, schema: T): z.output<T> {
  const given = Object.fromEntries(
    Object.entries(c.ctx.query)
      .map(([k, v]) => [k, Array.isArray(v) ? v[0] : v] as const)
      .filter(([k, v]) => k !== 'done' && v !== undefined && v !== ''),
  );
  const parsed = schema.safeParse(given);
  if (!parsed.success) {
    throw new PlatformError('invalid_data', 'invalid_input', 'The page was asked for with a query it does not take', {
      details: parsed.error.issues.map((i) => `${i.path.join('.') || 'query'}: ${i.message}`),
    });
  }
  return parsed.data;
}

/** A form's fields parsed by a schema; 400 with the issues otherwise. */
export function parseFields<T extends z.ZodType>(schema: T, given: unknown): z.output<T> {
  const parsed = schema.safeParse(given);
  if (!parsed.success) {
    throw new PlatformError('invalid_data', 'invalid_input', 'The form has invalid input', {
      details: parsed.error.issues.map((i) => `${i.path.join('.') || 'form'}: ${i.message}`),
    });
  }
  return parsed.data;
}

/** The `done` notice's key of the page's query. */
export const doneOf = (c: ConsoleRequest) => (typeof c.ctx.query.done === 'string' ? c.ctx.query.done : undefined);
