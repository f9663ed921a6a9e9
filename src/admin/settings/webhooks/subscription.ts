import { html, type Markup } from '../../../html.js';
import { blankForm, csrfInput, errorSummary, formWithIssues, select, type FormState } from '../../../http/ui/forms.js';
import { pager, withQuery } from '../../../http/ui/pager.js';
import { confirmStep, facts, heading, link, table, when } from '../../../http/ui/parts.js';
import { zodIssues } from '../../../http/validate.js';
import {
  DEFAULT_GRACE_PERIOD_SECONDS,
  deleteSubscription,
  getSubscription,
  listDeliveries,
  ListDeliveriesQuery,
  rotateSubscriptionSecret,
  subscriptionSchemas,
  updateSubscription,
  type SubscriptionView,
  type UpdateSubscriptionBody,
} from '../../../webhooks/index.js';
import { refusedForm } from '../../forms.js';
import { storePage } from '../../layout.js';
import { pagePosition, parseQuery, type StorePage } from '../../request.js';
import {
  lastFailure,
  secretOnce,
  stateBadge,
  SUBSCRIPTION_FIELDS,
  subscriptionBody,
  subscriptionFields,
  subscriptionValues,
  webhooksPath,
} from '../webhooks.js';
import { deliveryBadge } from './delivery.js';

/**
 * A webhook's page (docs/admin.md, Webhooks), `/settings/webhooks/<subscription_id>`: the
 * subscription as the operations API reads it (`getSubscription`: the store's own, else the 404
 * page), its health, its recent deliveries (the deliveries log of
 * `GET /v1/operations/webhook-deliveries?subscription_id=…`, newest first, by status), and the
 * forms of the webhooks service: edit (pause, re-enable), rotate the signing secret (the answer
 * shows the new one once) and delete, each after a confirm step where it cannot be undone.
 */

export type SubscriptionPage = StorePage<{ storeId: string; subscriptionId: string }>;
/** Deliveries a webhook's page shows at a time; the pager goes further back. */
const RECENT = 20;
const STATUSES = [
  { value: '', label: 'All' },
  { value: 'failed', label: 'Failed' },
  { value: 'retrying', label: 'Retrying' },
  { value: 'successful', label: 'Successful' },
] as const;
/** How long a rotated-out secret keeps signing beside the new one (the API's `grace_period_seconds`). */
const GRACE = [
  { value: '0', label: 'No: stop signing with it now (it leaked)' },
  { value: '3600', label: 'For 1 hour' },
  { value: String(DEFAULT_GRACE_PERIOD_SECONDS), label: 'For 1 day' },
  { value: String(7 * 24 * 3600), label: 'For 7 days' },
];

/** The status filter of the deliveries: links keeping nothing else, the current one marked. */
function statusLinks(path: string, current: string): Markup {
  return html`<nav class="actions" aria-label="Deliveries by status">
    ${STATUSES.map((st) =>
      st.value === current ? html`<strong aria-current="page">${st.label}</strong>` : html`<a href="${withQuery(path, { status: st.value })}">${st.label}</a>`,
    )}
  </nav>`;
}

export async function subscriptionPage(s: SubscriptionPage, form?: FormState, status = 200): Promise<void> {
  const w = await getSubscription(s.platform, s.store.id, s.params.subscriptionId);
  const query = parseQuery(s, ListDeliveriesQuery);
  const page = await listDeliveries(
    s.platform,
    { store_id: s.store.id },
    { ...query, subscription_id: w.id, order: 'newest', limit: s.ctx.query.limit ? query.limit : RECENT },
  );
  const at = webhooksPath(s, `/${w.id}`);
  const edit = form ?? blankForm(subscriptionValues(w));
  // Three columns, so the list fits a phone: the event (and the payload's id), the outcome, the time.
  const rows = page.items.map((d) => [
    html`${link(`${at}/deliveries/${d.id}`, d.event_type)}<br><code class="muted">${d.event_id}</code>`,
    html`${deliveryBadge(d)}<br><span class="muted">${d.attempt_count} ${d.attempt_count === 1 ? 'attempt' : 'attempts'}${
      d.last_status === null ? '' : `, HTTP ${d.last_status}`
    }</span>`,
    when(d.created_at),
  ]);
  const body = html`<p><a href="${webhooksPath(s)}">« Webhooks</a></p>
    ${heading(w.target_url, w.description ?? undefined)}
    ${facts([
      ['State', stateBadge(w)],
      ['Events', w.event_types.join(', ')],
      ['Failures in a row', String(w.failure_streak)],
      ['Failing since', when(w.failing_since)],
      ['Last failure', w.last_error ? html`${lastFailure(w)}<br>${w.last_error.message}` : null],
      ['Last success', when(w.last_success_at)],
      ['Disabled', when(w.disabled_at)],
      ['Signing secret made', when(w.secret_rotated_at)],
      ['Previous secret signs until', when(w.previous_secret_expires_at)],
      ['Added', when(w.created_at)],
    ])}
    <h2>Recent deliveries</h2>
    ${statusLinks(at, query.status ?? '')}
    ${table({
      label: 'Recent deliveries',
      headings: ['Event', 'Outcome', 'Created'],
      rows,
      empty: query.status ? 'No delivery with this status.' : 'No deliveries yet: one is made for each event the webhook asks for.',
    })}${pager({ path: at, params: { status: query.status, limit: s.ctx.query.limit ? query.limit : undefined }, nextCursor: page.nextCursor, ...pagePosition(s) })}
    <h2>Edit webhook</h2>
    <form class="card" method="post" action="${at}" novalidate>
      ${csrfInput(s.viewer.csrf)}${errorSummary(edit.problems)}${subscriptionFields(s, edit, true)}
      <button class="button" type="submit">Save webhook</button>
    </form>
    <h2>Signing secret and removal</h2>
    <div class="card">
      <p class="muted">Rotating makes a new signing secret, shown once; the old one can keep signing beside it for a while, so the receiving system can switch without refusing a delivery.</p>
      <div class="actions">
        <a class="button button--secondary" href="${at}/rotate-secret">Rotate secret</a>
        <a class="button button--danger" href="${at}/delete">Delete webhook</a>
      </div>
    </div>`;
  s.render(storePage(s, 'settings', { title: `Webhook to ${w.target_url}`, body }), status);
}

/** The fields of the form that differ from the subscription (its events by their list), so its event says what changed. */
function changes(w: SubscriptionView, body: UpdateSubscriptionBody): UpdateSubscriptionBody {
  const changed: UpdateSubscriptionBody = {};
  if (body.target_url !== undefined && body.target_url !== w.target_url) changed.target_url = body.target_url;
  if (body.event_types !== undefined && body.event_types.join('\n') !== w.event_types.join('\n')) changed.event_types = body.event_types;
  if (body.description !== undefined && body.description !== w.description) changed.description = body.description;
  if (body.active !== undefined && body.active !== w.active) changed.active = body.active;
  return changed;
}

export async function updateSubscriptionAction(s: SubscriptionPage): Promise<void> {
  const w = await getSubscription(s.platform, s.store.id, s.params.subscriptionId);
  const { UpdateSubscriptionBody } = subscriptionSchemas(s.platform.events);
  const parsed = UpdateSubscriptionBody.safeParse(subscriptionBody(s.form, true));
  if (!parsed.success) return subscriptionPage(s, formWithIssues(s.form, zodIssues(parsed.error), SUBSCRIPTION_FIELDS), 400);
  const changed = changes(w, parsed.data);
  const at = webhooksPath(s, `/${w.id}`);
  if (Object.keys(changed).length === 0) return s.seeOther(at, 'Nothing to save: the webhook is as it was.');
  try {
    await updateSubscription(s.platform, s.store.id, w.id, changed);
  } catch (err) {
    return subscriptionPage(s, refusedForm(s.form, err, SUBSCRIPTION_FIELDS), 409);
  }
  s.seeOther(at, changed.active === true && !w.active ? 'The webhook is active again.' : 'The webhook is saved.');
}

export async function confirmRotateSecret(s: SubscriptionPage, form: FormState = blankForm(), status = 200): Promise<void> {
  const w = await getSubscription(s.platform, s.store.id, s.params.subscriptionId);
  const at = webhooksPath(s, `/${w.id}`);
  const body = html`<div class="narrow">
    <form class="card" method="post" action="${at}/rotate-secret">
      ${csrfInput(s.viewer.csrf)}${errorSummary(form.problems)}
      <h1>Rotate the signing secret?</h1>
      <p>Deliveries to <code>${w.target_url}</code> are signed with a new secret from now on, shown once on the next page.</p>
      ${select(form, 'grace_period_seconds', 'Keep signing with the old secret too', GRACE, { selected: String(DEFAULT_GRACE_PERIOD_SECONDS) })}
      <div class="actions"><button class="button button--danger" type="submit">Rotate the secret</button><a href="${at}">Keep it</a></div>
    </form>
  </div>`;
  s.render(storePage(s, 'settings', { title: 'Rotate the signing secret?', body }), status);
}

export async function rotateSecretAction(s: SubscriptionPage): Promise<void> {
  const grace = s.form.get('grace_period_seconds') ?? '';
  const choice = GRACE.find((g) => g.value === grace);
  if (!choice) return confirmRotateSecret(s, formWithIssues(s.form, [{ path: 'grace_period_seconds', message: 'choose one of the periods' }]), 400);
  const w = await rotateSubscriptionSecret(s.platform, s.store.id, s.params.subscriptionId, { grace_period_seconds: Number(choice.value) });
  const lead =
    w.previous_secret_expires_at === null
      ? 'The old secret no longer signs.'
      : `The old secret signs beside it until ${w.previous_secret_expires_at.replace('T', ' ').slice(0, 16)} UTC.`;
  secretOnce(s, { title: 'Secret rotated', lead, secret: w.secret, done: webhooksPath(s, `/${w.id}`) });
}

export async function confirmDeleteSubscription(s: SubscriptionPage): Promise<void> {
  const w = await getSubscription(s.platform, s.store.id, s.params.subscriptionId);
  const at = webhooksPath(s, `/${w.id}`);
  const body = confirmStep({
    question: 'Delete this webhook?',
    detail: `Events stop going to its endpoint, and deliveries still waiting for a retry are not sent. This cannot be undone.`,
    action: `${at}/delete`,
    csrf: s.viewer.csrf,
    button: 'Delete the webhook',
    back: { href: at, label: 'Keep it' },
  });
  s.render(storePage(s, 'settings', { title: 'Delete this webhook?', body }));
}

export async function deleteSubscriptionAction(s: SubscriptionPage): Promise<void> {
  const w = await getSubscription(s.platform, s.store.id, s.params.subscriptionId);
  await deleteSubscription(s.platform, s.store.id, w.id);
  s.seeOther(webhooksPath(s), 'The webhook is deleted.');
}
