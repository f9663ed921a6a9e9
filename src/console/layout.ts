import { escapeHtml } from '../html.js';
import { csrfInput, join, markup, platformPage, type Markup } from '../http/page.js';

/**
 * The console's pieces of page (docs/console.md): its top bar, tables, badges, pagers and the
 * small POST forms of its actions. Every text goes through `escapeHtml` (`join`, `cell`), every
 * action form carries the console's CSRF token.
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

/** Who is looking: the operator's email, the console's form token and the log-out form's. */
export type Viewer = { email: string; csrf: string; logoutCsrf: string };

export type ConsolePage = { title: string; section: (typeof NAV)[number]['href']; body: Markup; script?: string };

/** A whole console page: the top bar with the console's sections (the current one marked) and the operator's log-out form. */
export function consolePage(viewer: Viewer, page: ConsolePage): string {
  return platformPage({
    title: `${page.title} · Console`,
    body: page.body,
    nav: NAV.map((l) => ({ href: l.href, label: l.label, current: l.href === page.section })),
    user: { email: viewer.email, csrf: viewer.logoutCsrf },
    ...(page.script ? { script: page.script } : {}),
  });
}

/** The heading of a page, with a line of muted text under it. */
export const heading = (title: string, lead?: string) =>
  join(markup('<h1>'), title, markup('</h1>'), lead ? join(markup('<p class="muted" style="margin-top:-10px">'), lead, markup('</p>')) : '');

type Tone = 'ok' | 'warn' | 'bad' | 'plain';
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
  ['stopped', 'plain'],
  ['scheduled', 'plain'],
  ['failed', 'bad'],
  ['fail', 'bad'],
  ['gone', 'bad'],
  ['open', 'bad'],
  ['critical', 'bad'],
  ['rejected', 'bad'],
  ['checks_failed', 'bad'],
  ['in force', 'bad'],
]);

/** A state as a coloured pill (its words, underscores as spaces). */
export function badge(state: string): Markup {
  const tone = TONES.get(state) ?? 'plain';
  return join(
    markup(`<span class="badge${tone === 'plain' ? '' : ` badge--${tone}`}" style="white-space:nowrap">`),
    state.replace(/_/g, ' '),
    markup('</span>'),
  );
}

export type Cell = string | number | null | Markup;
const cellHtml = (c: Cell) => (c === null ? '<span class="muted">–</span>' : typeof c === 'object' ? c.html : escapeHtml(c));

/** A table: its headings and rows (text escaped, markup as is); a line saying so when empty. */
export function table(headings: readonly string[], rows: readonly (readonly Cell[])[], empty = 'Nothing here.'): Markup {
  if (rows.length === 0) return join(markup('<p class="card muted">'), empty, markup('</p>'));
  const head = headings.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${cellHtml(c)}</td>`).join('')}</tr>`).join('');
  return markup(`<div class="card" style="padding:0;overflow-x:auto"><table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div>`);
}

/** A link (its href built by the console, its text escaped). */
export const link = (href: string, text: string) => join(markup(`<a href="${escapeHtml(href)}">`), text, markup('</a>'));

/** A path with its query: only the given parameters, in order. */
export function withQuery(path: string, params: Record<string, string | number | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/** The pager under a list: back to the first page, and the next page's link when there is one (the API's keyset cursor). */
export function pager(
  path: string,
  params: Record<string, string | number | null | undefined>,
  nextCursor: string | null,
  onFirst: boolean,
  cursorParam = 'cursor',
): Markup {
  const first = onFirst ? '' : link(withQuery(path, params), '« First page').html;
  const next = nextCursor
    ? `<a class="button button--secondary" rel="next" href="${escapeHtml(withQuery(path, { ...params, [cursorParam]: nextCursor }))}">Next page »</a>`
    : '';
  return first || next ? markup(`<nav class="pager" aria-label="Pages">${first}${next}</nav>`) : markup('');
}

/** A time as `2026-05-04 13:05:09 UTC` (the page's readers are in many zones), with the ISO value kept for machines. */
export function when(iso: string | null): Markup | null {
  if (!iso) return null;
  return markup(`<time datetime="${escapeHtml(iso)}">${escapeHtml(iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ''))} UTC</time>`);
}

/** A small POST form of one action: its button, hidden fields, and optionally a text field (a note, a reason). */
export function actionForm(
  viewer: Viewer,
  action: string,
  label: string,
  options: {
    style?: 'primary' | 'secondary' | 'danger';
    hidden?: Record<string, string>;
    field?: { name: string; label: string; required?: boolean; multiline?: boolean; placeholder?: string };
  } = {},
): Markup {
  const hidden = Object.entries(options.hidden ?? {})
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join('');
  const f = options.field;
  const id = f ? `f-${action.replace(/[^a-z0-9]+/gi, '-')}-${f.name}` : '';
  const input = f
    ? `<div class="field" style="margin-bottom:8px"><label for="${id}">${escapeHtml(f.label)}</label>${
        f.multiline
          ? `<textarea id="${id}" name="${escapeHtml(f.name)}" rows="3"${f.required ? ' required' : ''}${f.placeholder ? ` placeholder="${escapeHtml(f.placeholder)}"` : ''}></textarea>`
          : `<input type="text" id="${id}" name="${escapeHtml(f.name)}"${f.required ? ' required' : ''}${f.placeholder ? ` placeholder="${escapeHtml(f.placeholder)}"` : ''}>`
      }</div>`
    : '';
  const cls = options.style === 'secondary' ? 'button button--secondary' : options.style === 'danger' ? 'button button--danger' : 'button';
  return markup(
    `<form method="post" action="${escapeHtml(action)}"${f ? ' style="flex:1;min-width:260px"' : ''}>${csrfInput(viewer.csrf)}${hidden}${input}<button class="${cls}" type="submit">${escapeHtml(label)}</button></form>`,
  );
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
export function doneNotice(done: string | undefined): Markup {
  const text = done ? DONE.get(done) : undefined;
  return text ? join(markup('<p class="notice" role="status">'), text, markup('</p>')) : markup('');
}

/** A definition list of a record's fields. */
export function facts(rows: readonly [string, Cell][]): Markup {
  return markup(
    `<dl class="card" style="display:grid;grid-template-columns:max-content 1fr;gap:6px 18px;margin-top:0">${rows
      .map(([k, v]) => `<dt class="muted">${escapeHtml(k)}</dt><dd style="margin:0">${cellHtml(v)}</dd>`)
      .join('')}</dl>`,
  );
}

/** A figure of the overview. */
export const stat = (label: string, value: string | number, tone?: 'bad' | 'warn') =>
  markup(
    `<div class="stat"><div class="stat__label">${escapeHtml(label)}</div><div class="stat__value"${tone ? ` style="color:var(--${tone})"` : ''}>${escapeHtml(value)}</div></div>`,
  );
