import { html } from '../html.js';
import { blankForm, select } from '../http/ui/forms.js';
import { pager, withQuery } from '../http/ui/pager.js';
import { heading, table, when } from '../http/ui/parts.js';
import { ENFORCEMENT_KINDS, EnforcementListQuery, listEnforcements, undoEnforcement, UndoBody } from '../security/index.js';
import { actionForm, doneNotice, render, stateBadge } from './layout.js';
import { pagePosition, parseFields, parseQuery, type ConsoleRequest } from './request.js';

/**
 * `/console/security`: security enforcement events through the security domain's services
 * (`listEnforcements`, newest first, by kind and whether in force), and an operator's
 * enforcement in force undone with a reason (`undoEnforcement`).
 */

export async function securityPage(c: ConsoleRequest): Promise<void> {
  const q = parseQuery(c, EnforcementListQuery);
  const page = await listEnforcements(c.platform, q);
  const filters = { kind: q.kind, active: q.active };
  const shown = blankForm(
    new Map([
      ['kind', q.kind ?? ''],
      ['active', q.active ?? ''],
    ]),
  );
  const form = html`<form class="card actions" method="get" action="/console/security" role="search" style="align-items:flex-end">
    <div style="min-width:min(240px,100%)">
      ${select(
        shown,
        'kind',
        'Kind',
        ENFORCEMENT_KINDS.map((k) => ({ value: k, label: k.replace(/_/g, ' ') })),
        { placeholder: 'any kind' },
      )}
    </div>
    <div style="min-width:180px">
      ${select(
        shown,
        'active',
        'In force',
        [
          { value: 'true', label: 'in force' },
          { value: 'false', label: 'past' },
        ],
        { placeholder: 'in force or not' },
      )}
    </div>
    <div class="field"><button class="button" type="submit">Filter</button></div>
  </form>`;
  const rows = page.items.map((e) => [
    stateBadge(e.kind),
    e.active ? stateBadge('in force') : e.undo ? 'undone' : null,
    Object.entries(e.subject).length ? Object.entries(e.subject).map(([k, v], i) => html`${i ? html`<br>` : null}<code>${k}</code> ${v}`) : null,
    e.reason,
    e.actor.type === 'operator' ? `operator ${e.actor.merchant_id}` : 'platform',
    when(e.created_at),
    e.active && e.undoable
      ? actionForm(c, `/console/security/${e.id}/undo`, 'Undo', { style: 'secondary', field: { name: 'reason', label: 'Why', required: true } })
      : e.undo
        ? html`Undone ${when(e.undo.undone_at)}<br>${e.undo.reason ?? ''}`
        : null,
  ]);
  const body = html`${heading(
    'Security enforcement',
    'What the platform enforced by itself (lockouts, replayed tokens, refused targets …) and what operators enforce (suspended apps, blocked address ranges).',
  )}${doneNotice(c)}${form}${table({
    label: 'Enforcement events',
    headings: ['Kind', 'State', 'Subject', 'Reason', 'By', 'When', 'Undo'],
    rows,
    empty: 'No enforcement event matches.',
  })}${pager({ path: '/console/security', params: filters, nextCursor: page.nextCursor, ...pagePosition(c) })}`;
  render(c, { title: 'Security', section: '/console/security', body });
}

export async function undoAction(c: ConsoleRequest, id: string): Promise<void> {
  const { reason } = parseFields(UndoBody, { reason: c.form.get('reason') ?? '' });
  await undoEnforcement(c.platform, c.viewer.merchant.merchantId, id, reason);
  c.seeOther(withQuery('/console/security', { done: 'undone' }));
}
