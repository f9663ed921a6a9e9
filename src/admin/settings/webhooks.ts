import { html, type Markup } from '../../html.js';
import { blankForm, csrfInput, errorSummary, field, formWithIssues, textarea, type FormState } from '../../http/ui/forms.js';
import { pager } from '../../http/ui/pager.js';
import { badge, emptyState, heading, link, table, when } from '../../http/ui/parts.js';
import { zodIssues } from '../../http/validate.js';
import { PageQuery } from '../../pagination.js';
import { createSubscription, listSubscriptions, subscriptionSchemas, type SubscriptionView } from '../../webhooks/index.js';
import { checkbox } from '../discounts/inputs.js';
import { refusedForm } from '../forms.js';
import { storePage } from '../layout.js';
import { onceScope, pagePosition, parseQuery, storePath, type StorePage } from '../request.js';
import { actOnce, formKeyInput } from '../../http/ui/once.js';

/**
 * `/admin/stores/<id>/settings/webhooks` (docs/admin.md, Webhooks): the store's own webhook
 * subscriptions as the operations API shows them to a merchant (apps' subscriptions are their
 * developers', made by the install, and neither listed nor changed there), each with its health,
 * and a new one through the webhooks service of `POST /v1/operations/webhook-subscriptions`,
 * whose answer is the one page that shows its signing secret. A subscription's own page, its
 * deliveries and their redelivery are `webhooks/`.
 */

export const webhooksPath = (s: StorePage, rest = '') => storePath(s.store, `/settings/webhooks${rest}`);
export const SUBSCRIPTION_FIELDS = new Set(['target_url', 'event_types', 'description', 'active']);

/** A subscription's state in a word: disabled by the platform (and why), paused by the merchant, failing, or healthy. */
export function stateBadge(w: SubscriptionView): Markup {
  if (w.disabled_reason === 'gone') return badge('disabled: endpoint gone', 'bad');
  if (w.health === 'disabled' || w.disabled_reason) return badge('disabled: kept failing', 'bad');
  if (!w.active) return badge('paused');
  return w.health === 'failing' ? badge('failing', 'warn') : badge('healthy', 'ok');
}

/** The latest failed attempt: when, and its HTTP status (none for a network failure or a timeout). */
export const lastFailure = (w: SubscriptionView) =>
  w.last_error
    ? html`${when(w.last_error.at)} <span class="muted">(${w.last_error.status === null ? 'no answer' : `HTTP ${w.last_error.status}`})</span>`
    : null;

/** The events a subscription asks for, as the form shows them: one a line. */
export const subscriptionValues = (w: SubscriptionView) =>
  new Map([
    ['target_url', w.target_url],
    ['event_types', w.event_types.join('\n')],
    ['description', w.description ?? ''],
    ['active', w.active ? 'on' : ''],
  ]);

/** The event types a subscription may name, by family (`order.*`: order.created, …), for the form's help. */
function eventTypesHelp(types: readonly string[]): Markup {
  const families = new Map<string, string[]>();
  for (const t of types) {
    const family = t.split('.')[0]!;
    families.set(family, [...(families.get(family) ?? []), t]);
  }
  return html`<details class="field">
    <summary>Event types you can name</summary>
    <ul class="muted">
      <li><code>*</code>: every event</li>
      ${[...families].map(([family, list]) => html`<li><code>${family}.*</code>: ${list.join(', ')}</li>`)}
    </ul>
  </details>`;
}

/** The subscription form's fields (new and edit; `active` only on edit, where checking it again re-enables). */
export const subscriptionFields = (s: StorePage, form: FormState, editing: boolean) =>
  html`${field(form, 'target_url', 'Endpoint URL', {
    type: 'url',
    required: true,
    hint: 'Where each event is POSTed, signed: an https address (plain http only to localhost in development)',
    attrs: html`spellcheck="false" autocomplete="off"`,
  })}
  ${textarea(form, 'event_types', 'Events', { required: true, rows: 3, hint: 'One a line or separated by commas: order.created, a family such as product.*, or * for every event' })}
  ${eventTypesHelp(s.platform.events.types)}
  ${textarea(form, 'description', 'Description', { rows: 2, maxlength: 500, hint: 'Only you see it' })}
  ${editing ? checkbox(form, 'active', 'Active: receives deliveries (checking it again re-enables a webhook the platform disabled: fix the endpoint first)') : null}`;

/** The form as the API's body: the events split at lines and commas, active from its box (on edit). */
export const subscriptionBody = (form: ReadonlyMap<string, string>, editing: boolean) => ({
  target_url: (form.get('target_url') ?? '').trim(),
  event_types: (form.get('event_types') ?? '').split(/[\s,]+/).filter(Boolean),
  description: form.get('description') ?? '',
  ...(editing ? { active: form.get('active') === 'on' } : {}),
});

export async function webhooksPage(s: StorePage): Promise<void> {
  const query = parseQuery(s, PageQuery.strict());
  const page = await listSubscriptions(s.platform, s.store.id, query);
  const path = webhooksPath(s);
  // Two columns, so the list fits a phone without scrolling: the webhook, and its health.
  const rows = page.items.map((w) => [
    html`<span style="overflow-wrap:anywhere">${link(`${path}/${w.id}`, w.target_url)}</span>${w.description ? html`<br>${w.description}` : null}<br><span class="muted">${w.event_types.join(', ')}</span>`,
    html`${stateBadge(w)}<br><span class="muted">${w.failure_streak} ${w.failure_streak === 1 ? 'failure' : 'failures'} in a row</span>${
      w.last_success_at ? html`<br><span class="muted">Last success</span> ${when(w.last_success_at)}` : null
    }${w.last_error ? html`<br><span class="muted">Last failure</span> ${lastFailure(w)}` : null}`,
  ]);
  const body = html`<p><a href="${storePath(s.store, '/settings')}">« Settings</a></p>
    ${heading('Webhooks', 'Your store’s events, POSTed as they happen to endpoints you choose, each signed with the webhook’s secret.')}
    <p class="actions"><a class="button" href="${path}/new">Add webhook</a></p>
    ${table({
      label: 'Webhooks',
      headings: ['Webhook', 'Health'],
      rows,
      empty: emptyState('No webhooks yet. A webhook sends your store’s events (a new order, a changed product) to a system of yours.', {
        href: `${path}/new`,
        label: 'Add webhook',
      }),
    })}${pager({ path, params: { limit: s.ctx.query.limit ? query.limit : undefined }, nextCursor: page.nextCursor, ...pagePosition(s) })}
    <p class="muted">Apps installed in your store receive their webhooks through subscriptions of their own, which their developers manage.</p>`;
  s.render(storePage(s, 'settings', { title: 'Webhooks', body }));
}

export function newWebhookPage(s: StorePage, form: FormState = blankForm(new Map([['event_types', 'order.created']])), status = 200): void {
  const path = webhooksPath(s);
  const body = html`<p><a href="${path}">« Webhooks</a></p>
    <div class="narrow">
      ${heading('Add webhook')}
      <form class="card" method="post" action="${path}/new" novalidate>
        ${csrfInput(s.viewer.csrf)}${formKeyInput(form)}${errorSummary(form.problems)}${subscriptionFields(s, form, false)}
        <button class="button" type="submit">Add webhook</button>
      </form>
    </div>`;
  s.render(storePage(s, 'settings', { title: 'Add webhook', body }), status);
}

/** A signing secret on the one page that shows it (never a redirect, whose flash would carry it in a cookie). */
export function secretOnce(s: StorePage, o: { title: string; lead: string; secret: string; done: string }): void {
  const body = html`<div class="narrow">
    ${heading(o.title, o.lead)}
    <div class="card">
      <p>Its signing secret, shown only this once: copy it now into the system that receives the webhooks, which checks each delivery’s signature with it.</p>
      <p style="font-size:1.1rem;font-family:monospace;overflow-wrap:anywhere"><strong>${o.secret}</strong></p>
      <p class="muted">Afterwards it cannot be shown again (it is kept encrypted, to sign with); rotate it to get a new one.</p>
    </div>
    <p class="actions"><a class="button" href="${o.done}">Done</a></p>
  </div>`;
  s.render(storePage(s, 'settings', { title: o.title, body }), 201);
}

export async function createWebhookAction(s: StorePage): Promise<void> {
  const { CreateSubscriptionBody } = subscriptionSchemas(s.platform.events);
  const parsed = CreateSubscriptionBody.safeParse(subscriptionBody(s.form, false));
  if (!parsed.success) return newWebhookPage(s, formWithIssues(s.form, zodIssues(parsed.error), SUBSCRIPTION_FIELDS), 400);
  let made;
  try {
    // A double-clicked Add makes one subscription, and the second answer shows its secret too (src/http/ui/once.ts).
    const body = parsed.data;
    made = await actOnce(s.platform, onceScope(s, 'webhook-add', body), async () => {
      const created = await createSubscription(s.platform, s.store.id, { type: 'merchant', id: s.viewer.merchant.merchantId }, body);
      return { id: created.id, secret: created.secret };
    });
  } catch (err) {
    return newWebhookPage(s, refusedForm(s.form, err, SUBSCRIPTION_FIELDS), 409);
  }
  secretOnce(s, { title: 'Webhook added', lead: 'Its events are sent from now on.', secret: made.secret, done: webhooksPath(s, `/${made.id}`) });
}
