import { html } from '../html.js';
import { blankForm, field, select } from '../http/ui/forms.js';
import { pager, withQuery } from '../http/ui/pager.js';
import { confirmStep, facts, heading, link, table, when } from '../http/ui/parts.js';
import { cancelJob, getJob, JOB_STATES, JobListQuery, listJobs, releaseJob, rerunJob, type JobView } from '../operations/index.js';
import { actionForm, confirmLink, doneNotice, render, stateBadge } from './layout.js';
import { pagePosition, parseQuery, type ConsoleRequest } from './request.js';

/**
 * `/console/jobs` and `/console/jobs/:id`: the operations API's queue diagnostics (`listJobs`,
 * `getJob`: each list a page on its state's index, keyset cursors) and its actions (`rerunJob`,
 * `cancelJob`, `releaseJob`), each allowed exactly as the API allows it; Cancel and Release lock
 * ask to confirm first.
 */

const ACTIONS = { rerun: rerunJob, cancel: cancelJob, release: releaseJob } as const;
const DONE = { rerun: 'rerun', cancel: 'canceled', release: 'released' } as const;

export async function jobsPage(c: ConsoleRequest): Promise<void> {
  const q = parseQuery(c, JobListQuery);
  const page = await listJobs(c.platform, c.modules, q);
  const filters = { name: q.name, state: q.state, limit: c.ctx.query.limit ? q.limit : undefined };
  const shown = blankForm(
    new Map([
      ['name', q.name ?? ''],
      ['state', q.state ?? ''],
    ]),
  );
  const form = html`<form class="card actions" method="get" action="/console/jobs" role="search" style="align-items:flex-end">
    <div style="flex:1;min-width:min(240px,100%)">${field(shown, 'name', 'Job name', { type: 'search' })}</div>
    <div style="min-width:160px">
      ${select(
        shown,
        'state',
        'State',
        JOB_STATES.map((s) => ({ value: s, label: s })),
        { placeholder: 'any state' },
      )}
    </div>
    <div class="field"><button class="button" type="submit">Filter</button></div>
    ${q.name || q.state ? html`<div class="field"><a href="/console/jobs">Clear</a></div>` : null}
  </form>`;
  const rows = page.items.map((j) => [
    link(`/console/jobs/${j.id}`, j.name),
    j.group,
    stateBadge(j.state),
    j.recurring ? 'recurring' : 'one-off',
    when(j.failed_at ?? j.locked_at ?? j.next_run_at ?? j.last_finished_at),
    j.fail_count || null,
    j.fail_reason ? html`<span class="muted">${j.fail_reason.slice(0, 120)}</span>` : null,
  ]);
  const body = html`${heading('Jobs', 'Queued, running and failed jobs by name and state; each list a page in its state’s order (failed: the latest first).')}${doneNotice(
    c,
  )}${form}${table({ label: 'Jobs', headings: ['Job', 'Group', 'State', 'Kind', 'When', 'Failures', 'Last error'], rows, empty: 'No job matches.' })}${pager({
    path: '/console/jobs',
    params: filters,
    nextCursor: page.nextCursor,
    ...pagePosition(c),
  })}`;
  render(c, { title: 'Jobs', section: '/console/jobs', body });
}

/** The actions the API would allow on this job now (the page offers no button that can only be refused). */
function actionsFor(c: ConsoleRequest, j: JobView) {
  const forms = [];
  if (j.state === 'failed') forms.push(actionForm(c, `/console/jobs/${j.id}/rerun`, 'Re-run'));
  if ((j.state === 'due' || j.state === 'scheduled') && !j.recurring) forms.push(confirmLink(`/console/jobs/${j.id}/cancel`, 'Cancel'));
  if (j.state === 'running') forms.push(confirmLink(`/console/jobs/${j.id}/release`, 'Release lock'));
  return forms.length ? html`<div class="actions">${forms}</div>` : html`<p class="muted">No action applies to a job in this state.</p>`;
}

export async function jobPage(c: ConsoleRequest, id: string): Promise<void> {
  const j = await getJob(c.platform, c.modules, id);
  const ids = Object.entries(j.payload_ids);
  const body = html`<p><a href="/console/jobs">« Jobs</a></p>
    ${heading(j.name, `Job ${j.id}`)}${doneNotice(c)}${facts([
      ['State', stateBadge(j.state)],
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
        ids.length ? ids.map(([k, v], i) => html`${i ? html`<br>` : null}<code>${k}</code>: ${Array.isArray(v) ? v.join(', ') : String(v)}`) : null,
      ],
    ])}${
      j.fail_reason
        ? html`<h2>Error</h2>
            <pre>${j.fail_reason}</pre>`
        : null
    }
    <h2>Actions</h2>
    ${actionsFor(c, j)}`;
  render(c, { title: j.name, section: '/console/jobs', body });
}

const CONFIRM = {
  cancel: { question: 'Cancel this job?', detail: 'It will not run: its work is not done unless something enqueues it again.', button: 'Cancel the job' },
  release: {
    question: 'Release this job’s lock?',
    detail: 'Do this only when the process that holds it is gone: the job becomes due and another worker runs it, twice if the holder still lives.',
    button: 'Release the lock',
  },
} as const;

/** The confirm step of Cancel and Release lock (a GET of the action's address; its form posts the action). */
export async function confirmJobAction(c: ConsoleRequest, id: string, action: keyof typeof CONFIRM): Promise<void> {
  const j = await getJob(c.platform, c.modules, id);
  const step = CONFIRM[action];
  const body = confirmStep({
    question: step.question,
    detail: `${j.name} (${j.id}). ${step.detail}`,
    action: `/console/jobs/${j.id}/${action}`,
    csrf: c.viewer.csrf,
    button: step.button,
    back: { href: `/console/jobs/${j.id}`, label: 'Keep it' },
  });
  render(c, { title: step.question, section: '/console/jobs', body });
}

export async function jobAction(c: ConsoleRequest, id: string, action: keyof typeof ACTIONS): Promise<void> {
  await ACTIONS[action](c.platform, c.modules, id);
  c.seeOther(action === 'cancel' ? withQuery('/console/jobs', { done: DONE[action] }) : withQuery(`/console/jobs/${id}`, { done: DONE[action] }));
}
