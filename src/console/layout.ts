import { html, type Markup } from '../html.js';
import type { Problem } from '../http/pages.js';
import { problemCard } from '../http/page-errors.js';
import { csrfInput } from '../http/ui/forms.js';
import { platformPage } from '../http/ui/layout.js';
import type { ScriptName } from '../http/ui/scripts.js';
import { badge, type Tone } from '../http/ui/parts.js';
import type { ConsoleRequest } from './request.js';

/**
 * The console's pieces of page (docs/console.md): the platform layout with the console's sections
 * as its left navigation, its status badges, the small POST forms of its actions and their
 * notices. Everything is built with the `html` tag (text escaped); every action form carries the
 * console's CSRF token.
 */

export const NAV = [
  { href: '/console', label: 'Overview' },
  { href: '/console/jobs', label: 'Jobs' },
  { href: '/console/deliveries', label: 'Deliveries' },
  { href: '/console/incidents', label: 'Incidents' },
  { href: '/console/gates', label: 'Health gates' },
  { href: '/console/security', label: 'Security' },
  { href: '/console/readiness', label: 'Readiness' },
  { href: '/console/reviews', label: 'Reviews' },
] as const;

export type ConsolePage = { title: string; section: (typeof NAV)[number]['href']; body: Markup; scripts?: readonly ScriptName[] };

/** A whole console page: the console's sections in the left navigation (the current one marked), the operator and Log out in the top bar. */
export function consolePage(c: ConsoleRequest, page: ConsolePage): Markup {
  return platformPage({
    title: `${page.title} · Console`,
    body: page.body,
    nav: { label: 'Console', items: NAV.map((l) => ({ href: l.href, label: l.label, current: l.href === page.section })) },
    user: { email: c.viewer.email, csrf: c.viewer.csrf },
    ...(page.scripts ? { scripts: page.scripts } : {}),
  });
}

/** Answer a console page (200 unless told). */
export function render(c: ConsoleRequest, page: ConsolePage, status = 200): void {
  c.render(consolePage(c, page), status);
}

/** A refused or failed request: no console navigation (the reader may be no operator). */
export const consoleErrorPage = (problem: Problem): Markup =>
  platformPage({ title: problem.title, body: problemCard(problem, { href: '/console', label: 'Back to the console' }) });

const TONES = new Map<string, Tone>([
  ['alive', 'ok'],
  ['passed', 'ok'],
  ['pass', 'ok'],
  ['successful', 'ok'],
  ['approved', 'ok'],
  ['resolved', 'ok'],
  ['finished', 'ok'],
  ['awaiting_review', 'warn'],
  ['submitted', 'warn'],
  ['pending_checks', 'warn'],
  ['acknowledged', 'warn'],
  ['queued', 'warn'],
  ['retrying', 'warn'],
  ['due', 'warn'],
  ['running', 'warn'],
  ['inconclusive', 'warn'],
  ['warning', 'warn'],
  ['failed', 'bad'],
  ['fail', 'bad'],
  ['gone', 'bad'],
  ['open', 'bad'],
  ['critical', 'bad'],
  ['rejected', 'bad'],
  ['checks_failed', 'bad'],
  ['in force', 'bad'],
]);

/** A state of the operations API as a badge: its words (underscores as spaces), its tone by what it means. */
export const stateBadge = (state: string) => badge(state.replace(/_/g, ' '), TONES.get(state) ?? 'neutral');

type ButtonStyle = 'primary' | 'secondary' | 'danger';
const buttonClass = (style: ButtonStyle | undefined) =>
  style === 'secondary' ? 'button button--secondary' : style === 'danger' ? 'button button--danger' : 'button';

/** A small POST form of one action: its button, and optionally a text field (a note, a reason). */
export function actionForm(
  c: ConsoleRequest,
  action: string,
  label: string,
  options: {
    style?: ButtonStyle;
    field?: { name: string; label: string; required?: boolean; multiline?: boolean };
  } = {},
): Markup {
  const f = options.field;
  const id = f ? `f-${action.replace(/[^a-z0-9]+/gi, '-')}-${f.name}` : '';
  const input = f
    ? html`<div class="field" style="margin-bottom:8px">
        <label for="${id}">${f.label}</label>${
          f.multiline
            ? html`<textarea id="${id}" name="${f.name}" rows="3"${f.required ? html` required` : null}></textarea>`
            : html`<input type="text" id="${id}" name="${f.name}"${f.required ? html` required` : null}>`
        }
      </div>`
    : null;
  return html`<form method="post" action="${action}"${f ? html` style="flex:1;min-width:min(260px,100%)"` : null}>
    ${csrfInput(c.viewer.csrf)}${input}<button class="${buttonClass(options.style)}" type="submit">${label}</button>
  </form>`;
}

/** A destructive action's button: a link to its confirm step (a GET of its own address), which works without JavaScript. */
export const confirmLink = (action: string, label: string) => html`<a class="button button--danger" href="${action}">${label}</a>`;

/** Tabs over a list's states: each a link keeping the other filters, the current one marked. */
export function tabs(label: string, states: readonly string[], current: string, href: (state: string) => string): Markup {
  return html`<nav class="actions" aria-label="${label}" style="margin-bottom:14px">
    ${states.map((s) => {
      const here = s === current;
      return html`<a class="button${here ? '' : ' button--secondary'}"${here ? html` aria-current="page"` : null} href="${href(s)}"
        >${s ? s.replace(/_/g, ' ') : 'all'}</a
      >`;
    })}
  </nav>`;
}

/** What an action did, shown once on the page it redirected to (`?done=`): a fixed set of messages, so a link cannot put words in the console's mouth. */
const DONE = new Map([
  ['rerun', 'The job is due again: a worker of its group runs it now.'],
  ['canceled', 'The job was canceled.'],
  ['released', 'The lock was released: the job is due again.'],
  ['redelivered', 'The delivery is queued again: a new attempt series starts now.'],
  ['opened', 'The incident was opened.'],
  ['acknowledged', 'The incident was acknowledged.'],
  ['resolved', 'The incident was resolved.'],
  ['noted', 'The note was added to the timeline.'],
  ['gate', 'The health gate ran: its verdict is below.'],
  ['undone', 'The enforcement was undone.'],
  ['approved', 'Approved.'],
  ['rejected', 'Rejected, with the reasons given.'],
]);
export function doneNotice(c: ConsoleRequest): Markup | null {
  const done = c.ctx.query.done;
  const text = typeof done === 'string' ? DONE.get(done) : undefined;
  return text ? html`<p class="notice" role="status">${text}</p>` : null;
}

/** A figure of the overview. */
export const stat = (label: string, value: string | number, tone?: 'bad' | 'warn') =>
  html`<div class="stat">
    <div class="stat__label">${label}</div>
    <div class="stat__value"${tone ? html` style="color:var(--${tone})"` : null}>${value}</div>
  </div>`;
