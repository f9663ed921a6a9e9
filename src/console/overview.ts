import { html, type Markup } from '../html.js';
import { withQuery } from '../http/ui/pager.js';
import { badge, heading, link, table, when, type Cell } from '../http/ui/parts.js';
import { runtimeOverview } from '../operations/index.js';
import { render, stat, stateBadge } from './layout.js';
import { type ConsoleRequest } from './request.js';

/**
 * `/console`: the operations API's runtime overview (the same `runtimeOverview`), as a page that
 * refreshes itself every 10 s: a small script fetches the page and swaps its `<main>` (without
 * JavaScript it is a page like any other; reload it).
 */

const pct = (rate: number) => `${(rate * 100).toFixed(1)} %`;
const seconds = (s: number) => (s >= 3600 ? `${(s / 3600).toFixed(1)} h` : s >= 60 ? `${Math.round(s / 60)} min` : `${s} s`);

/** A module's figures of work in flight (nested objects of counts), as rows. */
function flightRows(work: Record<string, unknown>): Cell[][] {
  const rows: Cell[][] = [];
  for (const [area, figures] of Object.entries(work)) {
    if (figures && typeof figures === 'object' && !Array.isArray(figures)) {
      const parts = Object.entries(figures).map(([k, v]) => `${k.replace(/_/g, ' ')}: ${v === null ? '–' : String(v)}`);
      rows.push([area.replace(/_/g, ' '), parts.join(' · ')]);
    } else rows.push([area.replace(/_/g, ' '), figures === null ? null : String(figures)]);
  }
  return rows;
}

export async function overviewPage(c: ConsoleRequest): Promise<void> {
  const o = await runtimeOverview(c.platform, c.modules);
  const failedJobs = o.queues.reduce((n, q) => n + q.failed, 0);
  const dueJobs = o.queues.reduce((n, q) => n + q.due, 0);
  const runningJobs = o.queues.reduce((n, q) => n + q.running, 0);
  const hook5 = o.webhook_attempts.last_5_minutes;
  const hook60 = o.webhook_attempts.last_hour;
  const stats = html`<div class="grid">
    ${[
      stat('Active incidents', o.incidents.active, o.incidents.active ? 'bad' : undefined),
      stat('Jobs due', dueJobs, o.oldest_due_job && o.oldest_due_job.lag_seconds > 120 ? 'warn' : undefined),
      stat('Jobs running', runningJobs),
      stat('Jobs failed', failedJobs, failedJobs ? 'bad' : undefined),
      stat('Oldest due job lag', o.oldest_due_job ? seconds(o.oldest_due_job.lag_seconds) : '0 s'),
      stat('Outbox backlog (documents)', o.events_outbox.documents, o.events_outbox.documents > 100 ? 'warn' : undefined),
      stat('Webhook failures, 5 min', `${pct(hook5.failure_rate)} of ${hook5.attempts}`, hook5.failure_rate > 0.25 && hook5.attempts >= 20 ? 'bad' : undefined),
      stat('Webhook failures, 1 h', `${pct(hook60.failure_rate)} of ${hook60.attempts}`),
    ]}
  </div>`;
  const processes = (list: (typeof o.processes.groups)[number]['processes']): Markup | null =>
    list.length
      ? html`${list
          .slice(0, 4)
          .map(
            (p, i) => html`${i ? html`<br>` : null}${stateBadge(p.state)} <code>${p.host}:${p.pid}</code> <span class="muted">${p.version}</span>`,
          )}${list.length > 4 ? html`<br><span class="muted">and ${list.length - 4} more</span>` : null}`
      : null;
  const groups = table({
    label: 'Processes by group',
    headings: ['Group', 'Alive', 'Stopped', 'Gone', 'Processes (newest beat first)'],
    rows: o.processes.groups.map((g) => [
      g.group,
      g.alive ? badge(String(g.alive), 'ok') : g.group === 'web' ? 0 : badge('none alive', 'bad'),
      g.stopped,
      g.gone ? badge(String(g.gone), 'bad') : 0,
      processes(g.processes),
    ]),
    empty: 'No process has reported yet.',
  });
  const queues = table({
    label: 'Queues by job name',
    headings: ['Job name', 'Group', 'Due', 'Running', 'Scheduled', 'Failed', 'Lag'],
    rows: o.queues.map((q) => [
      link(withQuery('/console/jobs', { name: q.name }), q.name),
      q.group,
      q.due ? link(withQuery('/console/jobs', { name: q.name, state: 'due' }), String(q.due)) : 0,
      q.running ? link(withQuery('/console/jobs', { name: q.name, state: 'running' }), String(q.running)) : 0,
      q.scheduled,
      q.failed ? html`<strong style="color:var(--bad)">${link(withQuery('/console/jobs', { name: q.name, state: 'failed' }), String(q.failed))}</strong>` : 0,
      q.lag_seconds ? seconds(q.lag_seconds) : null,
    ]),
    empty: 'No job is queued, running or failed.',
  });
  const outbox = table({
    label: 'Event outbox',
    headings: ['Collection', 'Documents carrying events', 'Oldest'],
    rows: o.events_outbox.by_collection.map((b) => [b.collection, `${b.documents}${b.capped ? '+' : ''}`, when(b.oldest)]),
    empty: 'The outbox is empty: every event was recorded.',
  });
  const generated = o.generated_at.replace('T', ' ').replace(/\.\d+Z$/, '');
  const body = html`${heading('Runtime overview', `${o.environment} · version ${o.version} · generated ${generated} UTC · refreshes every 10 s`)}${
    o.processes.groups_without_a_process.length
      ? html`<p class="errors" role="alert">No live process in: ${o.processes.groups_without_a_process.join(', ')}. Their jobs wait.</p>`
      : null
  }${stats}
    <h2>Processes by group</h2>
    ${groups}
    <h2>Queues by job name</h2>
    ${queues}
    <h2>Event outbox</h2>
    ${outbox}
    <h2>Work in flight</h2>
    ${table({
      label: 'Work in flight',
      headings: ['Area', 'Figures'],
      rows: flightRows(o.work_in_flight),
      empty: 'Nothing in flight.',
    })}${o.incidents.active ? html`<p>${link('/console/incidents?status=active', `${o.incidents.active} active incident(s) »`)}</p>` : null}`;
  render(c, { title: 'Overview', section: '/console', body, scripts: ['console-refresh'] });
}
