import { PlatformError } from '../../errors.js';
import { cancelBulkOperation, getBulkOperation, type BulkOperationView } from '../../graphql/index.js';
import { html, type Markup } from '../../html.js';
import { csrfInput } from '../../http/ui/forms.js';
import { badge, facts, heading, link, when } from '../../http/ui/parts.js';
import { storePage } from '../layout.js';
import type { StorePage } from '../request.js';
import type { AdminSection } from '../nav.js';
import { describeExport, EXPORT_KEYS } from './kinds.js';
import { exportsPath } from './new.js';

/**
 * `/admin/stores/<id>/exports/<operation id>` (docs/admin.md, Exports): a bulk operation of the
 * store as the REST API answers it (`getBulkOperation`): its state, counts and times, progress
 * that updates without JavaScript (a `Refresh` header while it runs), Cancel while it runs, and
 * the file's presigned link once it is done (a canceled or failed one's partial file).
 */

/** Seconds between reloads of a running export's page. */
const REFRESH_SECONDS = 3;

export const isRunning = (op: Pick<BulkOperationView, 'status'>) => op.status === 'created' || op.status === 'running' || op.status === 'canceling';

/** An export's state in a word: green done, amber under way, red failed, grey canceled or expired. */
export function exportBadge(op: Pick<BulkOperationView, 'status'>): Markup {
  switch (op.status) {
    case 'completed':
      return badge('completed', 'ok');
    case 'failed':
      return badge('failed', 'bad');
    case 'created':
      return badge('waiting', 'warn');
    case 'running':
    case 'canceling':
      return badge(op.status, 'warn');
    default:
      return badge(op.status);
  }
}

/** What an export holds, in words: `All products`, `Products matching “bowl”`, or a custom query (an API caller's, an app's). */
export function exportTitle(op: Pick<BulkOperationView, 'query'>): string {
  const d = describeExport(op.query);
  const noun = `${d.noun[0]!.toUpperCase()}${d.noun.slice(1)}`;
  return `${d.search ? `${noun} matching “${d.search}”` : `All ${d.noun}`}${d.custom ? ' (custom query)' : ''}`;
}

/** The navigation's section an export is of: its list's (products, orders, customers), else Home (as the exports list, which is of every section). */
export function exportSection(op: Pick<BulkOperationView, 'query'>): AdminSection {
  const noun = describeExport(op.query).noun;
  return EXPORT_KEYS.find((k) => k === noun) ?? 'home';
}

/** Who started it: this merchant (through the admin or the API) or an app of the store. */
export const startedBy = (op: Pick<BulkOperationView, 'started_by'>) => (op.started_by.type === 'app' ? 'An app' : 'You');

/** Objects written so far: root objects against the estimate taken when it started, and every line. */
export function progressOf(op: BulkOperationView): Markup {
  const percent = Math.round(op.progress * 100);
  return html`${op.root_object_count} of about ${op.estimated_root_count} (${percent}%), ${op.object_count} ${op.object_count === 1 ? 'line' : 'lines'} in
  all`;
}

const kilobytes = (bytes: number) => (bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KB`);

/** The file: the whole one, a canceled or failed one's partial file, or why there is none. */
function download(op: BulkOperationView): Markup | null {
  const size = op.file_size === null ? '' : `, ${kilobytes(op.file_size)}`;
  const until = html`<p class="muted">The link lasts until ${when(op.url_expires_at)} (7 days after the export finished); this page makes a fresh link each time it is opened.</p>`;
  if (op.url) return html`<p><a class="button" href="${op.url}">Download (JSONL${size})</a></p>${until}`;
  if (op.partial_data_url)
    return html`<p><a class="button button--secondary" href="${op.partial_data_url}">Download the partial file (JSONL${size})</a></p>
      <p class="muted">What was written before it stopped: whole objects, each with all its nested lines.</p>
      ${until}`;
  if (op.status === 'expired') return html`<p class="muted">Its file was deleted 7 days after it finished. Start a new export for a fresh one.</p>`;
  return null;
}

export async function exportPage(s: StorePage<{ operationId: string }>): Promise<void> {
  const op = await getBulkOperation(s.platform, s.store.id, s.viewer.merchant, s.params.operationId);
  const path = exportsPath(s, `/${op.id}`);
  const running = isRunning(op);
  const refreshing = running && s.ctx.query.refresh !== 'off';
  // The Refresh header reloads the page while it runs, without a script; a link turns it off (a reader may need the page to hold still).
  if (refreshing) s.ctx.set('Refresh', String(REFRESH_SECONDS));
  const body = html`<p><a href="${exportsPath(s)}">« Exports</a></p>
    ${heading(exportTitle(op))}
    <p>${exportBadge(op)}</p>
    ${
      running
        ? html`<div class="card">
            <label for="progress">Progress</label>
            <progress id="progress" max="100" value="${String(Math.round(op.progress * 100))}" style="width:100%;display:block;margin:8px 0">
              ${Math.round(op.progress * 100)}%
            </progress>
            <p class="muted">
              ${
                refreshing
                  ? html`This page updates every ${REFRESH_SECONDS} seconds until the export ends. ${link(`${path}?refresh=off`, 'Stop updating')}`
                  : html`${link(path, 'Update now')}`
              }
            </p>
            ${
              op.status === 'canceling'
                ? html`<p>Canceling: the export stops within one part of its file and keeps what it wrote.</p>`
                : html`<form method="post" action="${path}/cancel">
                    ${csrfInput(s.viewer.csrf)}<button class="button button--danger" type="submit">Cancel export</button>
                  </form>`
            }
          </div>`
        : null
    }
    ${download(op)}
    ${op.status === 'failed' ? html`<div class="errors" role="alert"><strong>Why it failed</strong> <code>${op.error_code}</code>: ${op.error_message}</div>` : null}
    ${facts([
      ['Objects written', progressOf(op)],
      ['Started', when(op.created_at)],
      ['Finished', when(op.completed_at)],
      ['Started by', startedBy(op)],
      ['Query', html`<code>${op.query}</code>`],
    ])}`;
  s.render(storePage(s, exportSection(op), { title: exportTitle(op), body }));
}

export async function cancelExportAction(s: StorePage<{ operationId: string }>): Promise<void> {
  const path = exportsPath(s, `/${s.params.operationId}`);
  try {
    await cancelBulkOperation(s.platform, s.store.id, s.viewer.merchant, s.params.operationId);
  } catch (err) {
    // It ended before the cancel arrived (the bulk service's 409): the page shows how.
    if (err instanceof PlatformError && err.code === 'bulk_operation_finished') return s.seeOther(path, 'The export had already ended.');
    throw err;
  }
  s.seeOther(path, 'Canceling the export: it stops within a moment and keeps what it wrote.');
}
