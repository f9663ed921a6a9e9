import type { z } from 'zod';
import { PlatformError } from '../../errors.js';
import { html, type Markup } from '../../html.js';
import type { AppContext } from '../context.js';

/**
 * The pager under a list (docs/console.md, Pages), over the API's keyset cursors: **Next** carries
 * the next page's `cursor`; **Previous** goes back through the cursors this browser came by, which
 * the links carry along in `<cursor>_trail` (the API's cursors only go forwards); **First page**
 * starts again. A list's query schema never sees the trail: `pagerParams` names what to leave out.
 */

type Params = Readonly<Record<string, string | number | null | undefined>>;

/** A path with its query: only the given parameters, in order, empty ones left out. */
export function withQuery(path: string, params: Params): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

const CURSOR = /^[A-Za-z0-9_-]{1,200}$/;
/** How many pages back Previous can go; beyond that, First page. */
const TRAIL_MAX = 20;

/** The pager's own query parameter beside a list's cursor parameter. */
export const trailParam = (cursorParam: string) => `${cursorParam}_trail`;

/** The cursors this browser came by (from the query), each one a cursor's shape; anything else is no trail. */
export function trailOf(ctx: AppContext, cursorParam = 'cursor'): string[] {
  const key = trailParam(cursorParam);
  const raw = Object.hasOwn(ctx.query, key) ? ctx.query[key] : undefined;
  const cursors = typeof raw === 'string' && raw.length <= TRAIL_MAX * 201 ? raw.split('.') : [];
  return cursors.every((c) => CURSOR.test(c)) ? cursors.slice(-TRAIL_MAX) : [];
}

export type PagerOptions = {
  /** The list's page and its filters (kept on every link). */
  path: string;
  params: Params;
  /** The API's cursor of the next page, null on the last. */
  nextCursor: string | null;
  /** The cursor this page was asked with (none on the first page) and the ones before it. */
  cursor: string | null | undefined;
  trail: readonly string[];
  /** The list's cursor parameter, when a page holds several lists (`app_cursor`). */
  cursorParam?: string;
};

export function pager(o: PagerOptions): Markup | null {
  const name = o.cursorParam ?? 'cursor';
  const at = (cursor: string | null | undefined, trail: readonly string[]) =>
    withQuery(o.path, { ...o.params, [name]: cursor, [trailParam(name)]: trail.length ? trail.join('.') : null });
  const previous = o.cursor ? at(o.trail.at(-1), o.trail.slice(0, -1)) : null;
  const next = o.nextCursor ? at(o.nextCursor, o.cursor ? [...o.trail, o.cursor] : o.trail) : null;
  if (!previous && !next) return null;
  return html`<nav class="pager" aria-label="Pages">
    ${o.trail.length ? html`<a href="${at(null, [])}">« First page</a>` : null}${
      previous ? html`<a class="button button--secondary" rel="prev" href="${previous}">‹ Previous</a>` : null
    }${next ? html`<a class="button button--secondary" rel="next" href="${next}">Next page »</a>` : null}
  </nav>`;
}

/**
 * A list page's query string through the API's own schema (the console's, the admin's): empty
 * values left out, and the page's own parameters (`own`: the pagers' trails, a notice's key) too;
 * a 400 page with the issues otherwise.
 */
export function parseListQuery<T extends z.ZodType>(ctx: AppContext, schema: T, own: (name: string) => boolean): z.output<T> {
  const given = Object.fromEntries(
    Object.entries(ctx.query)
      .map(([k, v]) => [k, Array.isArray(v) ? v[0] : v] as const)
      .filter(([k, v]) => !own(k) && v !== undefined && v !== ''),
  );
  const parsed = schema.safeParse(given);
  if (!parsed.success) {
    throw new PlatformError('invalid_data', 'invalid_input', 'The page was asked for with a query it does not take', {
      details: parsed.error.issues.map((i) => `${i.path.join('.') || 'query'}: ${i.message}`),
    });
  }
  return parsed.data;
}
