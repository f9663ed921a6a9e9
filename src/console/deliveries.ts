import { html } from '../html.js';
import { pager, withQuery } from '../http/ui/pager.js';
import { facts, heading, link, table, when } from '../http/ui/parts.js';
import { AppDeliveriesQuery, getDelivery, listDeliveries, redeliver } from '../webhooks/index.js';
import { actionForm, doneNotice, render, stateBadge, tabs } from './layout.js';
import { pagePosition, parseQuery, type ConsoleRequest } from './request.js';

/**
 * `/console/deliveries`: every store's webhook deliveries through the deliveries log's own
 * services (`listDeliveries`, `getDelivery`, `redeliver`, in the operator's scope: all stores),
 * filtered by status (failed, retrying, …), event type or store; a delivery's attempts; Redeliver.
 */

const OPERATOR = { operator: true } as const;
/** The operator's scope presents each delivery with its store (as an app's partner reads it). */
const storeOf = (d: object) => ('store_id' in d && typeof d.store_id === 'string' ? d.store_id : '');
const STATUSES = ['', 'failed', 'retrying', 'queued', 'successful'] as const;

export async function deliveriesPage(c: ConsoleRequest): Promise<void> {
  const q = parseQuery(c, AppDeliveriesQuery);
  const page = await listDeliveries(c.platform, OPERATOR, q);
  const filters = { status: q.status, event_type: q.event_type, store_id: q.store_id };
  const rows = page.items.map((d) => [
    link(`/console/deliveries/${d.id}`, d.event_type),
    stateBadge(d.status === 'queued' && d.attempt_count > 0 ? 'retrying' : d.status),
    d.attempt_count,
    d.last_status === null ? null : String(d.last_status),
    d.last_error ? html`<span class="muted">${d.last_error.slice(0, 100)}</span>` : null,
    html`<code>${storeOf(d)}</code>`,
    when(d.created_at),
  ]);
  const body = html`${heading('Webhook deliveries', 'Every store’s deliveries, the oldest first; a failed one can be sent again (a new attempt series).')}${doneNotice(c)}${tabs(
    'Status',
    STATUSES,
    q.status ?? '',
    (s) => withQuery('/console/deliveries', { ...filters, status: s }),
  )}${table({
    label: 'Webhook deliveries',
    headings: ['Event', 'Status', 'Attempts', 'Last HTTP', 'Last error', 'Store', 'Created'],
    rows,
    empty: 'No delivery matches.',
  })}${pager({ path: '/console/deliveries', params: filters, nextCursor: page.nextCursor, ...pagePosition(c) })}`;
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
    a.response_preview ? html`<code>${a.response_preview.slice(0, 200)}</code>` : null,
    a.retry_seconds === null ? null : `${a.retry_seconds} s`,
  ]);
  const body = html`<p><a href="/console/deliveries">« Deliveries</a></p>
    ${heading(d.event_type, `Delivery ${d.id}`)}${doneNotice(c)}${facts([
      ['Status', stateBadge(d.status)],
      ['Store', html`<code>${storeOf(d)}</code>`],
      ['Event', html`<code>${d.event_id}</code>`],
      ['Subscription', html`<code>${d.subscription_id}</code>`],
      ['Attempt series', d.series],
      ['Next attempt', when(d.next_attempt_at)],
      ['Completed', when(d.completed_at)],
      ['Created', when(d.created_at)],
    ])}
    <h2>Attempts</h2>
    ${table({
      label: 'Attempts',
      headings: ['#', 'Started', 'HTTP', 'Took', 'Error', 'Response', 'Retry after'],
      rows: attempts,
      empty: 'No attempt yet.',
    })}${
      d.status === 'failed'
        ? html`<h2>Actions</h2>
            <div class="actions">${actionForm(c, `/console/deliveries/${d.id}/redeliver`, 'Redeliver')}</div>`
        : null
    }`;
  render(c, { title: 'Delivery', section: '/console/deliveries', body });
}

export async function redeliverAction(c: ConsoleRequest, id: string): Promise<void> {
  await redeliver(c.platform, OPERATOR, id);
  c.seeOther(withQuery(`/console/deliveries/${id}`, { done: 'redelivered' }));
}
