import { html, safeHref, type Interpolation, type Markup } from '../../html.js';
import { csrfInput } from './forms.js';

/**
 * The pieces the platform's pages are built of (docs/console.md, Pages), each through the `html`
 * tag: headings, links, status badges, tables, empty states, facts, times, and the confirm step
 * of a destructive action.
 */

/** The heading of a page, with a line of muted text under it. */
export const heading = (title: string, lead?: string) =>
  html`<h1>${title}</h1>
    ${lead ? html`<p class="muted lead">${lead}</p>` : null}`;

/** A link whose address is a site path or an http(s) URL (`safeHref`); any other address (`javascript:`) leaves the text unlinked. */
export function link(href: string, text: Interpolation): Markup {
  const safe = safeHref(href);
  return safe ? html`<a href="${safe}">${text}</a>` : html`<span>${text}</span>`;
}

export type Tone = 'ok' | 'warn' | 'bad' | 'neutral';

/** A status as a coloured pill: ok (green), warn (amber), bad (red) or neutral (grey), its text in words. */
export const badge = (text: string, tone: Tone = 'neutral') => html`<span class="badge${tone === 'neutral' ? '' : ` badge--${tone}`}">${text}</span>`;

/** What to do when a list is empty: a sentence, and the action that fills it. */
export function emptyState(text: string, action?: { href: string; label: string }): Markup {
  return html`<div class="card empty">
    <p class="muted">${text}</p>
    ${action ? html`<a class="button" href="${action.href}">${action.label}</a>` : null}
  </div>`;
}

/** A cell: text, a number, markup, or null (a dash). */
export type Cell = Interpolation;
const cell = (c: Cell) => (c === null || c === undefined || c === '' ? html`<span class="muted">–</span>` : c);

/**
 * A table with its accessible name (a caption for readers of the page), its column headings and
 * rows; it scrolls sideways within itself on a narrow screen, never the page. `empty` when it has no rows.
 * `stack`: on a phone (≤ 600 px) each row is a block of its cells, each labelled with its column's
 * heading, for a list too wide to read by scrolling (the orders list: its state and total would be out of view).
 */
export function table(o: { label: string; headings: readonly string[]; rows: readonly (readonly Cell[])[]; empty: string | Markup; stack?: boolean }): Markup {
  if (o.rows.length === 0) return typeof o.empty === 'string' ? emptyState(o.empty) : o.empty;
  return html`<div class="table-wrap${o.stack ? ' table-wrap--stack' : ''}" role="region" aria-label="${o.label}" tabindex="0">
    <table>
      <caption class="visually-hidden">
        ${o.label}
      </caption>
      <thead>
        <tr>
          ${o.headings.map((h) => html`<th scope="col">${h}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${o.rows.map(
          (r) =>
            html`<tr>
              ${r.map((c, i) => (o.stack ? html`<td data-label="${o.headings[i] ?? ''}"><div>${cell(c)}</div></td>` : html`<td>${cell(c)}</td>`))}
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

/** A record's fields as a definition list. */
export const facts = (rows: readonly (readonly [string, Cell])[]) =>
  html`<dl class="card facts">
    ${rows.map(
      ([k, v]) =>
        html`<dt class="muted">${k}</dt>
          <dd>${cell(v)}</dd>`,
    )}
  </dl>`;

/** A time as `2026-05-04 13:05:09 UTC` (the pages' readers are in many zones), the ISO value kept for machines. */
export function when(iso: string | null): Markup | null {
  if (!iso) return null;
  return html`<time datetime="${iso}">${iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, '')} UTC</time>`;
}

/**
 * The confirm step of a destructive action, which works without JavaScript: the action's button
 * is a link to a GET of its own address, which shows this; its form posts the action.
 */
export function confirmStep(o: {
  question: string;
  detail: string;
  action: string;
  csrf: string | null;
  button: string;
  back: { href: string; label: string };
}): Markup {
  return html`<div class="narrow">
    <form class="card" method="post" action="${o.action}">
      ${csrfInput(o.csrf)}
      <h1>${o.question}</h1>
      <p>${o.detail}</p>
      <div class="actions"><button class="button button--danger" type="submit">${o.button}</button><a href="${o.back.href}">${o.back.label}</a></div>
    </form>
  </div>`;
}
