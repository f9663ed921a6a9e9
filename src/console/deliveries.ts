import { escapeHtml } from '../html.js';
import { join, markup } from '../http/page.js';
import { AppDeliveriesQuery, getDelivery, listDeliveries, redeliver } from '../webhooks/index.js';
import { actionForm, badge, doneNotice, facts, heading, link, pager, table, when, withQuery } from './layout.js';
import { doneOf, parseQuery, postedForm, render, seeOther, type ConsoleRequest } from './request.js';

/**
 * `/console/deliveries`: every store's webhook deliveries through the deliveries log's own
 * services (`listDeliveries`, `getDelivery`, `redeliver`, in the operator's scope: all stores),
 * filtered by status (failed, retrying, …), event type or store; a delivery's attempts; Redeliver.
 */

const OPERATOR = { operator: true } as const;
/** The operator's scope presents each delivery with its store (as an app's partner reads it). */
const storeOf = (d: object) => ('store_id' in d && typeof d.store_id === 'string' ? d.store_id : '');
const STATUSES = ['failed', 'retrying', 'queued', 'successful'] as const;

export async function deliveriesPage(c: ConsoleRequest): Promise<void> {
  const q = parseQuery(c, AppDeliveriesQuery);
  const page = await listDeliveries(c.platform, OPERATOR, q);
  const filters = { status: q.status, event_type: q.event_type, store_id: q.store_id };
  const tabs = markup(
    `<nav class="actions" aria-label="Status" style="margin-bottom:14px">${['', ...STATUSES]
      .map((s) => {
        const current = (q.status ?? '') === s;
        return `<a class="button${current ? '' : ' button--secondary'}"${current ? ' aria-current="page"' : ''} href="${escapeHtml(withQuery('/console/deliveries', { ...filters, status: s }))}">${s ? escapeHtml(s) : 'all'}</a>`;
      })
      .join('')}</nav>`,
  );
  const rows = page.items.map((d) => [
    link(`/console/deliveries/${d.id}`, d.event_type),
    badge(d.status === 'queued' && d.attempt_count > 0 ? 'retrying' : d.status),
    d.attempt_count,
    d.last_status === null ? null : String(d.last_status),
    d.last_error ? markup(`<span class="muted">${escapeHtml(d.last_error.slice(0, 100))}</span>`) : null,
    markup(`<code>${escapeHtml(storeOf(d))}</code>`),
    when(d.created_at),
  ]);
  const body = join(
    heading('Webhook deliveries', 'Every store’s deliveries, the oldest first; a failed one can be sent again (a new attempt series).'),
    doneNotice(doneOf(c)),
    tabs,
    table(['Event', 'Status', 'Attempts', 'Last HTTP', 'Last error', 'Store', 'Created'], rows, 'No delivery matches.'),
    pager('/console/deliveries', filters, page.nextCursor, !q.cursor),
  );
  render(c, { title: 'Deliveries', section: '/console/deliveries', body });
}

export async function deliveryPage(c: ConsoleRequest, id: string): Promise<void> {
  const d = await getDelivery(c.platform, OPERATOR, id);
  const attempts = (d.attempts ?? []).map((a) => [
    `${a.series}.${a.number}`,
    when(a.started_at),
    a.status === null ? null : String(a.status),
    `${a.duration_ms} ms`,
    a.error,
    a.response_preview ? markup(`<code>${escapeHtml(a.response_preview.slice(0, 200))}</code>`) : null,
    a.retry_seconds === null ? null : `${a.retry_seconds} s`,
  ]);
  const body = join(
    markup('<p><a href="/console/deliveries">« Deliveries</a></p>'),
    heading(d.event_type, `Delivery ${d.id}`),
    doneNotice(doneOf(c)),
    facts([
      ['Status', badge(d.status)],
      ['Store', markup(`<code>${escapeHtml(storeOf(d))}</code>`)],
      ['Event', markup(`<code>${escapeHtml(d.event_id)}</code>`)],
      ['Subscription', markup(`<code>${escapeHtml(d.subscription_id)}</code>`)],
      ['Attempt series', d.series],
      ['Next attempt', when(d.next_attempt_at)],
      ['Completed', when(d.completed_at)],
      ['Created', when(d.created_at)],
    ]),
    markup('<h2>Attempts</h2>'),
    table(['#', 'Started', 'HTTP', 'Took', 'Error', 'Response', 'Retry after'], attempts, 'No attempt yet.'),
    d.status === 'failed'
      ? join(markup('<h2>Actions</h2><div class="actions">'), actionForm(c.viewer, `/console/deliveries/${d.id}/redeliver`, 'Redeliver'), markup('</div>'))
      : '',
  );
  render(c, { title: 'Delivery', section: '/console/deliveries', body });
}

export async function redeliverAction(c: ConsoleRequest, id: string): Promise<void> {
  await postedForm(c);
  await redeliver(c.platform, OPERATOR, id);
  seeOther(c, withQuery(`/console/deliveries/${id}`, { done: 'redelivered' }));
}
