import { notFound, PlatformError } from '../../../errors.js';
import { html, type Markup } from '../../../html.js';
import { csrfInput, errorSummary } from '../../../http/ui/forms.js';
import { badge, facts, heading, table, when } from '../../../http/ui/parts.js';
import { getDelivery, getSubscription, redeliver } from '../../../webhooks/index.js';
import { storePage } from '../../layout.js';
import type { StorePage } from '../../request.js';
import { webhooksPath } from '../webhooks.js';

/**
 * A delivery of a webhook (docs/admin.md, Webhooks), `…/webhooks/<subscription_id>/deliveries/<delivery_id>`:
 * the delivery with its attempts as the deliveries log reads it (`getDelivery`, the store's), and
 * Redeliver for a failed one through the log's `redeliver` with its guards (only a failed delivery;
 * the webhook active), a refusal shown on the page. The delivery must be the webhook's own: the
 * store's apps' deliveries and another webhook's are the 404 page.
 */

type DeliveryPage = StorePage<{ storeId: string; subscriptionId: string; deliveryId: string }>;

/** A delivery's status: queued after a failed attempt is retrying. */
export const deliveryBadge = (d: { status: string; attempt_count: number }) =>
  d.status === 'successful'
    ? badge('successful', 'ok')
    : d.status === 'failed'
      ? badge('failed', 'bad')
      : d.attempt_count > 0
        ? badge('retrying', 'warn')
        : badge('queued');

/** The webhook of the path (the store's own) and its delivery of the path, else the 404 page. */
async function deliveryOfPath(s: DeliveryPage) {
  const w = await getSubscription(s.platform, s.store.id, s.params.subscriptionId);
  const d = await getDelivery(s.platform, { store_id: s.store.id }, s.params.deliveryId);
  if (d.subscription_id !== w.id) throw notFound('Delivery');
  return { w, d };
}

export async function deliveryPage(s: DeliveryPage, problem: string | null = null, status = 200): Promise<void> {
  const { w, d } = await deliveryOfPath(s);
  const at = webhooksPath(s, `/${w.id}`);
  // Three columns, so the attempts fit a phone: which and when, the answer and its time, what went wrong.
  const attempts = (d.attempts ?? []).map((a) => [
    html`${a.series}.${a.number}<br><span class="muted">${when(a.started_at)}</span>`,
    html`${a.status === null ? 'no answer' : `HTTP ${a.status}`}<br><span class="muted">${a.duration_ms} ms</span>`,
    html`${a.error}${a.response_preview ? html`<br><code>${a.response_preview.slice(0, 200)}</code>` : null}`,
  ]);
  const redeliverForm: Markup | null =
    d.status === 'failed'
      ? html`<form class="card" method="post" action="${at}/deliveries/${d.id}/redeliver">
          ${csrfInput(s.viewer.csrf)}
          <p class="muted">Redeliver sends the same event again, as a new series of attempts.</p>
          <button class="button" type="submit">Redeliver</button>
        </form>`
      : null;
  const body = html`<p><a href="${at}">« Webhook</a></p>
    ${heading(d.event_type, `Delivery ${d.id}`)}${errorSummary(problem ? [problem] : [])}
    ${facts([
      ['Status', deliveryBadge(d)],
      ['Event id', html`<code>${d.event_id}</code>`],
      ['Attempts', String(d.attempt_count)],
      ['Last response', d.last_status === null ? null : `HTTP ${d.last_status}`],
      ['Next attempt', when(d.next_attempt_at)],
      ['Finished', when(d.completed_at)],
      ['Created', when(d.created_at)],
    ])}
    <h2>Attempts</h2>
    ${table({ label: 'Attempts', headings: ['Attempt', 'Answer', 'Error'], rows: attempts, empty: 'No attempt yet.' })}
    ${redeliverForm}`;
  s.render(storePage(s, 'settings', { title: `Delivery of ${d.event_type}`, body }), status);
}

export async function redeliverAction(s: DeliveryPage): Promise<void> {
  const { w, d } = await deliveryOfPath(s);
  try {
    await redeliver(s.platform, { store_id: s.store.id }, d.id);
  } catch (err) {
    // The log's guards (not failed, the webhook inactive) are the page again with their message.
    if (err instanceof PlatformError && err.kind === 'conflict') return deliveryPage(s, err.message, 409);
    throw err;
  }
  s.seeOther(webhooksPath(s, `/${w.id}/deliveries/${d.id}`), 'The delivery is queued again: a new series of attempts starts now.');
}
