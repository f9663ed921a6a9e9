import { html } from '../html.js';
import { zodIssues } from '../http/validate.js';
import { blankForm, csrfInput, errorSummary, field, formWithIssues, select, textarea, type FormState } from '../http/ui/forms.js';
import { pager, withQuery } from '../http/ui/pager.js';
import { heading, link, table, when } from '../http/ui/parts.js';
import { actOnIncident, getIncident, listIncidents, openManualIncident } from '../operations/index.js';
import { IncidentActionBody, IncidentListQuery, IncidentNoteBody, OpenIncidentBody } from '../operations/index.js';
import { actionForm, doneNotice, render, stateBadge, tabs } from './layout.js';
import { pagePosition, parseFields, parseQuery, type ConsoleRequest } from './request.js';

/**
 * `/console/incidents`: the operations API's incidents (`listIncidents`, `getIncident`), opened by
 * an operator (`openManualIncident`; a form that does not parse is shown again with what was
 * typed and each problem at its field), acknowledged, resolved or noted (`actOnIncident`), each
 * with an optional note (a note's own form requires its text).
 */

const STATUSES = ['', 'active', 'open', 'acknowledged', 'resolved'] as const;

function openForm(c: ConsoleRequest, form: FormState) {
  return html`<details class="card"${form.errors.size || form.problems.length ? html` open` : null}>
    <summary><strong>Open an incident</strong></summary>
    <form method="post" action="/console/incidents" style="margin-top:12px">
      ${csrfInput(c.viewer.csrf)}${errorSummary(form.problems)}${field(form, 'title', 'Title', { required: true, attrs: html`maxlength="200"` })}${select(
        form,
        'severity',
        'Severity',
        [
          { value: 'warning', label: 'warning' },
          { value: 'critical', label: 'critical' },
        ],
        { required: true },
      )}${textarea(form, 'note', 'Note', { maxlength: 2000 })}<button class="button" type="submit">Open incident</button>
    </form>
  </details>`;
}

export async function incidentsPage(c: ConsoleRequest, form: FormState = blankForm(), status = 200): Promise<void> {
  const q = parseQuery(c, IncidentListQuery);
  const page = await listIncidents(c.platform, q);
  const filters = { status: q.status, rule: q.rule };
  const rows = page.items.map((i) => [
    link(`/console/incidents/${i.id}`, i.title),
    stateBadge(i.status),
    stateBadge(i.severity),
    i.rule ?? 'manual',
    when(i.opened_at),
    i.detail || null,
  ]);
  const body = html`${heading('Incidents', 'Opened by the platform’s rules (and resolved by them when they recover) or by an operator; the newest first.')}${doneNotice(c)}${tabs(
    'Status',
    STATUSES,
    q.status ?? '',
    (s) => withQuery('/console/incidents', { ...filters, status: s }),
  )}${table({
    label: 'Incidents',
    headings: ['Incident', 'Status', 'Severity', 'Rule', 'Opened', 'Detail'],
    rows,
    empty: 'No incident matches.',
  })}${pager({ path: '/console/incidents', params: filters, nextCursor: page.nextCursor, ...pagePosition(c) })}${openForm(c, form)}`;
  render(c, { title: 'Incidents', section: '/console/incidents', body }, status);
}

export async function incidentPage(c: ConsoleRequest, id: string): Promise<void> {
  const i = await getIncident(c.platform, id);
  const timeline = i.timeline.map((e) => [when(e.at), stateBadge(e.kind), e.actor.type === 'operator' ? `operator ${e.actor.id}` : 'platform', e.text]);
  const actions = [];
  if (i.status === 'open')
    actions.push(actionForm(c, `/console/incidents/${i.id}/acknowledge`, 'Acknowledge', { field: { name: 'note', label: 'Note (optional)' } }));
  if (i.status !== 'resolved')
    actions.push(actionForm(c, `/console/incidents/${i.id}/resolve`, 'Resolve', { field: { name: 'note', label: 'Resolution note (optional)' } }));
  actions.push(
    actionForm(c, `/console/incidents/${i.id}/notes`, 'Add note', {
      style: 'secondary',
      field: { name: 'text', label: 'Note', required: true, multiline: true },
    }),
  );
  const body = html`<p><a href="/console/incidents">« Incidents</a></p>
    ${heading(i.title, `${i.rule ? `Rule ${i.rule}` : 'Opened by an operator'} · incident ${i.id}`)}${doneNotice(c)}
    <p class="actions">${stateBadge(i.status)}${stateBadge(i.severity)}</p>
    ${i.detail ? html`<p>${i.detail}</p>` : null}${
      i.value !== null ? html`<p class="muted">Measured ${i.value} against a threshold of ${i.threshold ?? '–'}, last checked ${i.last_checked_at}</p>` : null
    }
    <h2>Timeline</h2>
    ${table({ label: 'Timeline', headings: ['When', 'What', 'Who', 'Text'], rows: timeline, empty: 'Nothing happened yet.' })}
    <h2>Actions</h2>
    <div class="actions" style="align-items:flex-start">${actions}</div>`;
  render(c, { title: i.title, section: '/console/incidents', body });
}

const optionalNote = (v: string | undefined) => (v && v.trim() ? v : undefined);

export async function openIncidentAction(c: ConsoleRequest): Promise<void> {
  const f = c.form;
  const parsed = OpenIncidentBody.safeParse({ title: f.get('title') ?? '', severity: f.get('severity') || undefined, note: optionalNote(f.get('note')) });
  if (!parsed.success) return incidentsPage(c, formWithIssues(f, zodIssues(parsed.error), new Set(['title', 'severity', 'note'])), 400);
  const incident = await openManualIncident(c.platform, c.viewer.merchant.merchantId, parsed.data);
  c.seeOther(withQuery(`/console/incidents/${incident.id}`, { done: 'opened' }));
}

export async function incidentAction(c: ConsoleRequest, id: string, action: 'acknowledge' | 'resolve' | 'note'): Promise<void> {
  const f = c.form;
  const text =
    action === 'note'
      ? parseFields(IncidentNoteBody, { text: f.get('text') ?? '' }).text
      : parseFields(IncidentActionBody, { note: optionalNote(f.get('note')) }).note;
  await actOnIncident(c.platform, c.viewer.merchant.merchantId, id, action, text);
  c.seeOther(withQuery(`/console/incidents/${id}`, { done: action === 'note' ? 'noted' : action === 'acknowledge' ? 'acknowledged' : 'resolved' }));
}
