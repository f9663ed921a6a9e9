import { listBulkOperations } from '../../graphql/index.js';
import { html } from '../../html.js';
import { pager } from '../../http/ui/pager.js';
import { emptyState, heading, link, table, when } from '../../http/ui/parts.js';
import { PageQuery } from '../../pagination.js';
import { storePage } from '../layout.js';
import { pagePosition, parseQuery, storePath, type StorePage } from '../request.js';
import { exportBadge, exportTitle, startedBy } from './export.js';
import { EXPORT_KEYS } from './kinds.js';
import { exportsPath } from './new.js';

/**
 * `/admin/stores/<id>/exports` (docs/admin.md, Exports): the store's bulk operations, newest first,
 * 50 a page, as the REST API lists them to the merchant (`listBulkOperations`: an app's included,
 * which read the merchant's data), each with its state, objects written and times.
 */
export async function exportsPage(s: StorePage): Promise<void> {
  const query = parseQuery(s, PageQuery.strict());
  const page = await listBulkOperations(s.platform, s.store.id, s.viewer.merchant, query);
  const path = exportsPath(s);
  const rows = page.items.map((op) => [
    link(`${path}/${op.id}`, exportTitle(op)),
    exportBadge(op),
    `${op.root_object_count} (${op.object_count} ${op.object_count === 1 ? 'line' : 'lines'})`,
    when(op.created_at),
    when(op.completed_at),
    startedBy(op),
  ]);
  const starts = html`<p class="actions">
    ${EXPORT_KEYS.map((k) => html`<a class="button button--secondary" href="${path}/new?kind=${k}">Export ${k}</a>`)}
  </p>`;
  const body = html`${heading('Exports', 'Files of your store’s products, orders and customers, made in the background; each download link lasts 7 days.')}
    ${starts}
    ${table({
      label: 'Exports',
      headings: ['Export', 'Status', 'Objects', 'Started', 'Finished', 'Started by'],
      rows,
      empty: emptyState('No exports yet. Export from the products, orders or customers list.', { href: storePath(s.store, '/products'), label: 'Products' }),
      stack: true,
    })}${pager({ path, params: { limit: s.ctx.query.limit ? query.limit : undefined }, nextCursor: page.nextCursor, ...pagePosition(s) })}`;
  s.render(storePage(s, 'home', { title: 'Exports', body }));
}
