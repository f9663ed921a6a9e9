import { escapeHtml } from '../html.js';
import { join, markup } from '../http/page.js';
import { cancelJob, getJob, JOB_STATES, JobListQuery, listJobs, releaseJob, rerunJob, type JobView } from '../operations/index.js';
import { actionForm, badge, doneNotice, facts, heading, link, pager, table, when, withQuery } from './layout.js';
import { doneOf, parseQuery, postedForm, render, seeOther, type ConsoleRequest } from './request.js';

/**
 * `/console/jobs` and `/console/jobs/:id`: the operations API's queue diagnostics (`listJobs`,
 * `getJob`: each list a page on its state's index, keyset cursors) and its actions (`rerunJob`,
 * `cancelJob`, `releaseJob`), each allowed exactly as the API allows it.
 */

const ACTIONS = { rerun: rerunJob, cancel: cancelJob, release: releaseJob } as const;
const DONE = { rerun: 'rerun', cancel: 'canceled', release: 'released' } as const;

export async function jobsPage(c: ConsoleRequest): Promise<void> {
  const q = parseQuery(c, JobListQuery);
  const page = await listJobs(c.platform, c.modules, q);
  const filters = { name: q.name, state: q.state, limit: c.ctx.query.limit ? q.limit : undefined };
  const stateOptions = ['', ...JOB_STATES]
    .map((s) => `<option value="${s}"${s === (q.state ?? '') ? ' selected' : ''}>${s ? escapeHtml(s) : 'any state'}</option>`)
    .join('');
  const form = markup(
    `<form class="card actions" method="get" action="/console/jobs" role="search" style="align-items:flex-end">` +
      `<div class="field" style="margin:0;flex:1;min-width:240px"><label for="job-name">Job name</label><input type="search" id="job-name" name="name" value="${escapeHtml(q.name ?? '')}" placeholder="e.g. webhooks.dispatch"></div>` +
      `<div class="field" style="margin:0;min-width:160px"><label for="job-state">State</label><select id="job-state" name="state">${stateOptions}</select></div>` +
      `<button class="button" type="submit">Filter</button>${q.name || q.state ? ' <a href="/console/jobs">Clear</a>' : ''}</form>`,
  );
  const rows = page.items.map((j) => [
    link(`/console/jobs/${j.id}`, j.name),
    j.group,
    badge(j.state),
    j.recurring ? 'recurring' : 'one-off',
    when(j.failed_at ?? j.locked_at ?? j.next_run_at ?? j.last_finished_at),
    j.fail_count || null,
    j.fail_reason ? markup(`<span class="muted">${escapeHtml(j.fail_reason.slice(0, 120))}</span>`) : null,
  ]);
  const body = join(
    heading('Jobs', 'Queued, running and failed jobs by name and state; each list a page in its state’s order (failed: the latest first).'),
    doneNotice(doneOf(c)),
    form,
    table(['Job', 'Group', 'State', 'Kind', 'When', 'Failures', 'Last error'], rows, 'No job matches.'),
    pager('/console/jobs', filters, page.nextCursor, !q.cursor),
  );
  render(c, { title: 'Jobs', section: '/console/jobs', body });
}

/** The actions the API would allow on this job now (the page offers no button that can only be refused). */
function actionsFor(c: ConsoleRequest, j: JobView) {
  const forms = [];
  if (j.state === 'failed') forms.push(actionForm(c.viewer, `/console/jobs/${j.id}/rerun`, 'Re-run'));
  if ((j.state === 'due' || j.state === 'scheduled') && !j.recurring)
    forms.push(actionForm(c.viewer, `/console/jobs/${j.id}/cancel`, 'Cancel', { style: 'danger' }));
  if (j.state === 'running') forms.push(actionForm(c.viewer, `/console/jobs/${j.id}/release`, 'Release lock', { style: 'secondary' }));
  return forms.length
    ? join(markup('<div class="actions">'), ...forms, markup('</div>'))
    : markup('<p class="muted">No action applies to a job in this state.</p>');
}

export async function jobPage(c: ConsoleRequest, id: string): Promise<void> {
  const j = await getJob(c.platform, c.modules, id);
  const ids = Object.entries(j.payload_ids);
  const body = join(
    markup('<p><a href="/console/jobs">« Jobs</a></p>'),
    heading(j.name, `Job ${j.id}`),
    doneNotice(doneOf(c)),
    facts([
      ['State', badge(j.state)],
      ['Group', j.group],
      ['Kind', j.recurring ? 'recurring (a sweep)' : 'one-off'],
      ['Next run', when(j.next_run_at)],
      ['Locked', when(j.locked_at)],
      ['Lock owner', j.lock_owner],
      ['Last run', when(j.last_run_at)],
      ['Last finished', when(j.last_finished_at)],
      ['Failed', when(j.failed_at)],
      ['Attempts failed', j.fail_count],
      [
        'Payload ids',
        ids.length ? markup(ids.map(([k, v]) => `<code>${escapeHtml(k)}</code>: ${escapeHtml(Array.isArray(v) ? v.join(', ') : v)}`).join('<br>')) : null,
      ],
    ]),
    j.fail_reason ? join(markup('<h2>Error</h2><pre>'), j.fail_reason, markup('</pre>')) : '',
    markup('<h2>Actions</h2>'),
    actionsFor(c, j),
  );
  render(c, { title: j.name, section: '/console/jobs', body });
}

export async function jobAction(c: ConsoleRequest, id: string, action: keyof typeof ACTIONS): Promise<void> {
  await postedForm(c);
  await ACTIONS[action](c.platform, c.modules, id);
  seeOther(c, action === 'cancel' ? withQuery('/console/jobs', { done: DONE[action] }) : withQuery(`/console/jobs/${id}`, { done: DONE[action] }));
}
