import { issueDetails, PlatformError } from '../errors.js';
import { html, type Markup } from '../html.js';
import type { AppContext } from './context.js';
import { STATUS, toPlatformError } from './errors.js';
import { sendPage } from './page.js';
import { platformPage } from './ui/layout.js';

/**
 * What went wrong on a page (docs/console.md, Pages): its status and a title for it, the error's
 * message and details (an input issue each), and the request id, which every error page shows so
 * a report can be matched with the log. Never the API's JSON envelope.
 */
export type Problem = { status: number; code: string; title: string; message: string; details: readonly string[]; requestId: string };

const TITLES = new Map([
  [400, 'That did not work'],
  [401, 'Sign in first'],
  [402, 'Payment required'],
  [403, 'Not allowed'],
  [404, 'Page not found'],
  [405, 'This address takes a form'],
  [409, 'That could not be done now'],
  [413, 'Too large'],
  [415, 'Not a form'],
  [429, 'Too many attempts'],
  [503, 'Temporarily unavailable'],
]);

/** An error as a page shows it; an error of ours (no PlatformError) says only that, with the request id. */
export function problemOf(raw: unknown, requestId: string): Problem {
  const err = toPlatformError(raw);
  if (!err) {
    return {
      status: 500,
      code: 'internal_error',
      title: 'Something went wrong',
      message: 'Something went wrong on our side. Please try again; if it keeps happening, quote the reference below.',
      details: [],
      requestId,
    };
  }
  const status = STATUS[err.kind];
  // Issues are relative to the form (or query) the page read: shown as they are.
  const details = [...(err.extra.details ?? []), ...issueDetails(err.extra.issues ?? [], null)];
  return { status, code: err.code, title: TITLES.get(status) ?? 'That did not work', message: err.message, details, requestId };
}

/** The headers an error names for its answer: `Retry-After` (429, 503), and its own (a 405's `Allow`). */
export function setProblemHeaders(ctx: AppContext, raw: unknown): void {
  if (!(raw instanceof PlatformError)) return;
  if (raw.extra.retryAfterSeconds !== undefined) ctx.set('Retry-After', String(raw.extra.retryAfterSeconds));
  for (const [name, value] of Object.entries(raw.extra.headers ?? {})) ctx.set(name, value);
}

/** What an error page says, in any look: its title, message (or a page's own words for it), details and the request id to quote. */
export const problemText = (problem: Problem, message: string = problem.message): Markup =>
  html`<h1>${problem.title}</h1>
    <p>${message}</p>
    ${problem.details.length ? html`<ul>${problem.details.map((d) => html`<li>${d}</li>`)}</ul>` : null}
    <p class="muted">Reference: <code>${problem.requestId}</code></p>`;

/** The body of an error page in the platform's look: what went wrong, and the way on. */
export function problemCard(problem: Problem, back: { href: string; label: string }): Markup {
  return html`<div class="narrow">
    <div class="card">
      ${problemText(problem)}
      <p class="actions"><a class="button button--secondary" href="${back.href}">${back.label}</a></p>
    </div>
  </div>`;
}

/** An error as a whole page of the platform's own (sign-in, the consent page), leading back to the start. */
export const platformErrorPage = (problem: Problem): Markup =>
  platformPage({ title: problem.title, body: problemCard(problem, { href: '/', label: 'Go to Emporium' }) });

/** An error page of the platform's own outside any page list: the database outage's 503 to a browser. */
export function sendErrorPage(ctx: AppContext, raw: unknown): void {
  const problem = problemOf(raw, ctx.state.requestId);
  setProblemHeaders(ctx, raw);
  sendPage(ctx, problem.status, platformErrorPage(problem));
}
