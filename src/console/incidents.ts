import { escapeHtml } from '../html.js';
import { join, markup } from '../http/page.js';
import {
  actOnIncident,
  getIncident,
  IncidentActionBody,
  IncidentListQuery,
  IncidentNoteBody,
  listIncidents,
  openManualIncident,
  OpenIncidentBody,
} from '../operations/index.js';
import { actionForm, badge, doneNotice, heading, link, pager, table, when, withQuery } from './layout.js';
import { doneOf, parseFields, parseQuery, postedForm, render, seeOther, type ConsoleRequest } from './request.js';

/**
 * `/console/incidents`: the operations API's incidents (`listIncidents`, `getIncident`), opened by
 * an operator (`openManualIncident`), acknowledged, resolved or noted (`actOnIncident`), each
 * with an optional note (a note's own form requires its text).
 */

const STATUSES = ['active', 'open', 'acknowledged', 'resolved'] as const;

export async function incidentsPage(c: ConsoleRequest): Promise<void> {
  const q = parseQuery(c, IncidentListQuery);
  const page = await listIncidents(c.platform, q);
  const filters = { status: q.status, rule: q.rule };
  const tabs = markup(
    `<nav class="actions" aria-label="Status" style="margin-bottom:14px">${['', ...STATUSES]
      .map((s) => {
        const current = (q.status ?? '') === s;
        return `<a class="button${current ? '' : ' button--secondary'}"${current ? ' aria-current="page"' : ''} href="${escapeHtml(withQuery('/console/incidents', { ...filters, status: s }))}">${s ? escapeHtml(s) : 'all'}</a>`;
      })
      .join('')}</nav>`,
  );
  const rows = page.items.map((i) => [
    link(`/console/incidents/${i.id}`, i.title),
    badge(i.status),
    badge(i.severity),
    i.rule ?? 'manual',
    when(i.opened_at),
    i.detail || null,
  ]);
  const open = markup(
    `<details class="card"><summary><strong>Open an incident</strong></summary><form method="post" action="/console/incidents" style="margin-top:12px">` +
      `<input type="hidden" name="csrf_token" value="${escapeHtml(c.viewer.csrf)}">` +
      `<div class="field"><label for="inc-title">Title</label><input type="text" id="inc-title" name="title" required maxlength="200"></div>` +
      `<div class="field"><label for="inc-severity">Severity</label><select id="inc-severity" name="severity"><option value="warning">warning</option><option value="critical">critical</option></select></div>` +
      `<div class="field"><label for="inc-note">Note</label><textarea id="inc-note" name="note" rows="3" maxlength="2000"></textarea></div>` +
      `<button class="button" type="submit">Open incident</button></form></details>`,
  );
  const body = join(
    heading('Incidents', 'Opened by the platform’s rules (and resolved by them when they recover) or by an operator; the newest first.'),
    doneNotice(doneOf(c)),
    tabs,
    table(['Incident', 'Status', 'Severity', 'Rule', 'Opened', 'Detail'], rows, 'No incident matches.'),
    pager('/console/incidents', filters, page.nextCursor, !q.cursor),
    open,
  );
  render(c, { title: 'Incidents', section: '/console/incidents', body });
}

export async function incidentPage(c: ConsoleRequest, id: string): Promise<void> {
  const i = await getIncident(c.platform, id);
  const timeline = i.timeline.map((e) => [when(e.at), badge(e.kind), e.actor.type === 'operator' ? `operator ${e.actor.id}` : 'platform', e.text]);
  const actions = [];
  if (i.status === 'open')
    actions.push(actionForm(c.viewer, `/console/incidents/${i.id}/acknowledge`, 'Acknowledge', { field: { name: 'note', label: 'Note (optional)' } }));
  if (i.status !== 'resolved')
    actions.push(actionForm(c.viewer, `/console/incidents/${i.id}/resolve`, 'Resolve', { field: { name: 'note', label: 'Resolution note (optional)' } }));
  actions.push(
    actionForm(c.viewer, `/console/incidents/${i.id}/notes`, 'Add note', {
      style: 'secondary',
      field: { name: 'text', label: 'Note', required: true, multiline: true },
    }),
  );
  const body = join(
    markup('<p><a href="/console/incidents">« Incidents</a></p>'),
    heading(i.title, `${i.rule ? `Rule ${i.rule}` : 'Opened by an operator'} · incident ${i.id}`),
    doneNotice(doneOf(c)),
    markup(`<p class="actions">${badge(i.status).html}${badge(i.severity).html}</p>`),
    i.detail ? join(markup('<p>'), i.detail, markup('</p>')) : '',
    i.value !== null
      ? join(markup('<p class="muted">'), `Measured ${i.value} against a threshold of ${i.threshold ?? '–'}, last checked ${i.last_checked_at}`, markup('</p>'))
      : '',
    markup('<h2>Timeline</h2>'),
    table(['When', 'What', 'Who', 'Text'], timeline),
    markup('<h2>Actions</h2>'),
    markup(`<div class="actions" style="align-items:flex-start">${actions.map((a) => a.html).join('')}</div>`),
  );
  render(c, { title: i.title, section: '/console/incidents', body });
}

const optionalNote = (v: string | undefined) => (v && v.trim() ? v : undefined);

export async function openIncidentAction(c: ConsoleRequest): Promise<void> {
  const f = await postedForm(c);
  const body = parseFields(OpenIncidentBody, { title: f.get('title') ?? '', severity: f.get('severity') || undefined, note: optionalNote(f.get('note')) });
  const incident = await openManualIncident(c.platform, c.operator.merchantId, body);
  seeOther(c, withQuery(`/console/incidents/${incident.id}`, { done: 'opened' }));
}

export async function incidentAction(c: ConsoleRequest, id: string, action: 'acknowledge' | 'resolve' | 'note'): Promise<void> {
  const f = await postedForm(c);
  const text =
    action === 'note'
      ? parseFields(IncidentNoteBody, { text: f.get('text') ?? '' }).text
      : parseFields(IncidentActionBody, { note: optionalNote(f.get('note')) }).note;
  await actOnIncident(c.platform, c.operator.merchantId, id, action, text);
  seeOther(c, withQuery(`/console/incidents/${id}`, { done: action === 'note' ? 'noted' : action === 'acknowledge' ? 'acknowledged' : 'resolved' }));
}
