import { escapeHtml } from '../html.js';
import { join, markup } from '../http/page.js';
import { ENFORCEMENT_KINDS, EnforcementListQuery, listEnforcements, undoEnforcement, UndoBody } from '../security/index.js';
import { actionForm, badge, doneNotice, heading, pager, table, when, withQuery } from './layout.js';
import { doneOf, parseFields, parseQuery, postedForm, render, seeOther, type ConsoleRequest } from './request.js';

/**
 * `/console/security`: security enforcement events through the security domain's services
 * (`listEnforcements`, newest first, by kind and whether in force), and an operator's
 * enforcement in force undone with a reason (`undoEnforcement`).
 */

export async function securityPage(c: ConsoleRequest): Promise<void> {
  const q = parseQuery(c, EnforcementListQuery);
  const page = await listEnforcements(c.platform, q);
  const filters = { kind: q.kind, active: q.active };
  const kinds = ['', ...ENFORCEMENT_KINDS]
    .map((k) => `<option value="${k}"${k === (q.kind ?? '') ? ' selected' : ''}>${k ? escapeHtml(k.replace(/_/g, ' ')) : 'any kind'}</option>`)
    .join('');
  const actives = [
    ['', 'in force or not'],
    ['true', 'in force'],
    ['false', 'past'],
  ]
    .map(([v, l]) => `<option value="${v}"${v === (q.active ?? '') ? ' selected' : ''}>${l}</option>`)
    .join('');
  const form = markup(
    `<form class="card actions" method="get" action="/console/security" role="search" style="align-items:flex-end">` +
      `<div class="field" style="margin:0;min-width:240px"><label for="sec-kind">Kind</label><select id="sec-kind" name="kind">${kinds}</select></div>` +
      `<div class="field" style="margin:0;min-width:180px"><label for="sec-active">In force</label><select id="sec-active" name="active">${actives}</select></div>` +
      `<button class="button" type="submit">Filter</button></form>`,
  );
  const rows = page.items.map((e) => [
    badge(e.kind),
    e.active ? badge('in force') : e.undo ? 'undone' : null,
    markup(
      Object.entries(e.subject)
        .map(([k, v]) => `<code>${escapeHtml(k)}</code> ${escapeHtml(v)}`)
        .join('<br>') || '<span class="muted">–</span>',
    ),
    e.reason,
    e.actor.type === 'operator' ? `operator ${e.actor.merchant_id}` : 'platform',
    when(e.created_at),
    e.active && e.undoable
      ? actionForm(c.viewer, `/console/security/${e.id}/undo`, 'Undo', { style: 'secondary', field: { name: 'reason', label: 'Why', required: true } })
      : e.undo
        ? join('Undone ', when(e.undo.undone_at) ?? '', markup('<br>'), e.undo.reason ?? '')
        : null,
  ]);
  const body = join(
    heading(
      'Security enforcement',
      'What the platform enforced by itself (lockouts, replayed tokens, refused targets …) and what operators enforce (suspended apps, blocked address ranges).',
    ),
    doneNotice(doneOf(c)),
    form,
    table(['Kind', 'State', 'Subject', 'Reason', 'By', 'When', 'Undo'], rows, 'No enforcement event matches.'),
    pager('/console/security', filters, page.nextCursor, !q.cursor),
  );
  render(c, { title: 'Security', section: '/console/security', body });
}

export async function undoAction(c: ConsoleRequest, id: string): Promise<void> {
  const f = await postedForm(c);
  const { reason } = parseFields(UndoBody, { reason: f.get('reason') ?? '' });
  await undoEnforcement(c.platform, c.operator.merchantId, id, reason);
  seeOther(c, withQuery('/console/security', { done: 'undone' }));
}
