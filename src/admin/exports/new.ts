import { z } from 'zod';
import { adminSchema, startBulkOperation } from '../../graphql/index.js';
import { html, type Markup } from '../../html.js';
import { csrfInput, errorSummary, hiddenInput } from '../../http/ui/forms.js';
import { withQuery } from '../../http/ui/pager.js';
import { heading, link } from '../../http/ui/parts.js';
import { notFound } from '../../errors.js';
import { storePage } from '../layout.js';
import { storePath, type StorePage } from '../request.js';
import { EXPORT_KEYS, exportKind, exportQuery, type ExportKind } from './kinds.js';

/**
 * `/admin/stores/<id>/exports/new?kind=products&query=…` (docs/admin.md, Exports): the Export
 * page of a list, what it exports (all, or the list's search where the bulk query takes it), the
 * fields and the format; Start starts a bulk operation as the merchant through the service of
 * `POST /v1/bulk-operations` and goes to the export's page.
 */

export const exportsPath = (s: StorePage, rest = '') => storePath(s.store, `/exports${rest}`);

// A search longer than the kind's bound is cut to it (`searchMax`), as the list's own form would have refused it.
const ExportChoice = z.strictObject({ kind: z.enum(EXPORT_KEYS), query: z.string().trim().optional() });
const StartExportForm = z.strictObject({
  kind: z.enum(EXPORT_KEYS),
  scope: z.enum(['all', 'search']).default('all'),
  query: z.string().trim().max(255).default(''),
});

/** The kind and search a page was asked for (a GET's query string, a POST's form); an unknown kind is the 404 page, as an unknown path. */
function chosen(input: { kind: unknown; query: unknown }): { kind: ExportKind; search: string | null } {
  const parsed = ExportChoice.safeParse({ kind: input.kind, query: typeof input.query === 'string' && input.query !== '' ? input.query : undefined });
  if (!parsed.success) throw notFound('Export');
  const kind = exportKind(parsed.data.kind);
  return { kind, search: kind.searchMax !== null && parsed.data.query ? parsed.data.query.slice(0, kind.searchMax) : null };
}

/** Why the form cannot start: its messages, and the export already running (the bulk service runs one per store and merchant). */
type Refusal = { problems: string[]; runningId?: string | undefined };

export function newExportPage(s: StorePage, refusal: Refusal = { problems: [] }, status = 200): void {
  const posted = s.ctx.method === 'POST';
  const { kind, search } = chosen(posted ? { kind: s.form.get('kind'), query: s.form.get('query') } : { kind: s.ctx.query.kind, query: s.ctx.query.query });
  // The list's filters a bulk query cannot express, set on the list this page came from: said, not silently dropped.
  const unapplied =
    !posted &&
    ((kind.searchMax === null && Boolean(s.ctx.query.query)) || kind.otherFilters.some((f) => Object.hasOwn(s.ctx.query, f) && Boolean(s.ctx.query[f])));
  const title = `${kind.key[0]!.toUpperCase()}${kind.key.slice(1)}`;
  const scope = s.form.get('scope') ?? (search ? 'search' : 'all');
  const choice = (value: string, label: Markup | string) =>
    html`<label style="font-weight:normal"><input type="radio" name="scope" value="${value}"${scope === value ? html` checked` : null}> ${label}</label>`;
  const body = html`<p><a href="${storePath(s.store, `/${kind.key}`)}">« ${title}</a></p>
    <div class="narrow" style="max-width:640px">
      ${heading(`Export ${kind.key}`, `A file of your store’s ${kind.key}, made in the background: you can leave this page and find it under Exports.`)}
      <form class="card" method="post" action="${exportsPath(s, '/new')}">
        ${csrfInput(s.viewer.csrf)}${errorSummary(refusal.problems)}${
          refusal.runningId ? html`<p>${link(exportsPath(s, `/${refusal.runningId}`), 'See the running export')}</p>` : null
        }${hiddenInput('kind', kind.key)}${search ? hiddenInput('query', search) : null}
        <fieldset class="field">
          <legend>What to export</legend>
          ${choice('all', `All ${kind.key}`)}
          ${search ? choice('search', html`The ${kind.key} matching the search <strong>“${search}”</strong>`) : null}
        </fieldset>
        ${
          unapplied
            ? html`<p class="muted">
                ${kind.searchMax === null ? `An export of ${kind.key} takes all of them` : 'An export takes only the list’s search'}: the list’s other filters are
                not applied.
              </p>`
            : null
        }
        <h2>Fields</h2>
        <ul>
          ${kind.fields.map((f) => html`<li>${f.what}: <span class="muted">${f.names}</span></li>`)}
        </ul>
        <h2>Format</h2>
        <p>
          JSON Lines (<code>.jsonl</code>): one JSON object a line, each object’s nested lines right after it with <code>__parentId</code>, the format of the
          admin API’s bulk operations.
        </p>
        <p class="muted">The download link lasts 7 days after the export finishes.</p>
        <div class="actions"><button class="button" type="submit">Start export</button>${link(exportsPath(s), 'Your exports')}</div>
      </form>
    </div>`;
  s.render(storePage(s, kind.key, { title: `Export ${kind.key}`, body }), status);
}

export async function startExportAction(s: StorePage): Promise<void> {
  const parsed = StartExportForm.safeParse(Object.fromEntries([...s.form].filter(([k]) => k !== 'csrf_token')));
  if (!parsed.success) return newExportPage(s, { problems: ['Choose what to export.'] }, 400);
  const kind = exportKind(parsed.data.kind);
  const search = parsed.data.scope === 'search' && kind.searchMax !== null && parsed.data.query ? parsed.data.query.slice(0, kind.searchMax) : null;
  const started = await startBulkOperation(s.platform, s.store.id, s.viewer.merchant, exportQuery(kind, search), adminSchema);
  if ('operation' in started) return s.seeOther(exportsPath(s, `/${started.operation.id}`), `The export of ${kind.key} has started.`);
  const running = started.refused.find((r) => r.code === 'operation_in_progress');
  if (running)
    return newExportPage(
      s,
      {
        problems: ['An export of yours is already running in this store: wait for it to finish, or cancel it, then start this one.'],
        runningId: running.running_id,
      },
      409,
    );
  newExportPage(s, { problems: started.refused.map((r) => r.message) }, 400);
}

/** A list's Export button (top right, as Shopify's): the Export page with the list's search and filters, which says what it can apply. */
export const exportButton = (s: StorePage, kind: ExportKind['key'], filters: ReadonlyMap<string, string>): Markup =>
  html`<a class="button button--secondary" href="${withQuery(exportsPath(s, '/new'), { kind, ...Object.fromEntries(filters) })}">Export</a>`;
