import type { Filter, WithId } from 'mongodb';
import { z } from 'zod';
import { PlatformError, notFound } from '../errors.js';
import { parseObjectId } from '../ids.js';
import type { Module } from '../module.js';
import { KeysetCursorParam, keysetPageOf, keysetQuery, PageQuery } from '../pagination.js';
import type { Platform } from '../platform.js';
import { jobStateFilters, processState } from './overview.js';
import { agendaJobs, processes, type AgendaJob } from './store.js';

export const JOB_STATES = ['due', 'scheduled', 'running', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];

export const JobListQuery = z
  .object({
    limit: PageQuery.shape.limit,
    cursor: KeysetCursorParam.optional(),
    name: z.string().trim().min(1).max(100).optional(),
    state: z.enum(JOB_STATES).optional(),
  })
  .strict();
type JobListQuery = z.output<typeof JobListQuery>;

/**
 * The order each list walks, on its own index (store.ts): due and scheduled jobs by when they
 * are due (the oldest first), running ones by when they were locked, failed ones by when they
 * failed (the latest first); without a state, by name. Each with `_id` after it, the keyset
 * cursor's pair.
 */
const LIST_ORDER: Record<JobState | 'any', { field: 'nextRunAt' | 'lockedAt' | 'failedAt' | 'name'; direction: 1 | -1 }> = {
  due: { field: 'nextRunAt', direction: 1 },
  scheduled: { field: 'nextRunAt', direction: 1 },
  running: { field: 'lockedAt', direction: 1 },
  failed: { field: 'failedAt', direction: -1 },
  any: { field: 'name', direction: 1 },
};

const iso = (d: Date | null | undefined) => (d instanceof Date ? d.toISOString() : null);

/** The state of one job (the overview's filters, in code). */
function stateOf(job: AgendaJob, now: Date): JobState | 'disabled' | 'finished' {
  if (job.lockedAt) return 'running';
  if (job.disabled) return 'disabled';
  if (job.nextRunAt) return job.nextRunAt.getTime() <= now.getTime() ? 'due' : 'scheduled';
  return job.failedAt ? 'failed' : 'finished';
}

/**
 * The ids a job's payload names (its `*_id` and `*_ids` fields): what the diagnostics show of a
 * payload, never the rest (a payload is the platform's, not the operator's to read whole).
 */
function payloadIds(data: unknown): Record<string, unknown> {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return {};
  return Object.fromEntries(Object.entries(data).filter(([k, v]) => /_ids?$/.test(k) && (typeof v === 'string' || Array.isArray(v))));
}

function presentJob(job: WithId<AgendaJob>, groupOf: ReadonlyMap<string, string>, now: Date) {
  return {
    id: job._id.toHexString(),
    name: job.name,
    group: groupOf.get(job.name) ?? null,
    state: stateOf(job, now),
    recurring: job.type === 'single',
    payload_ids: payloadIds(job.data),
    next_run_at: iso(job.nextRunAt),
    locked_at: iso(job.lockedAt),
    lock_owner: job.lockedAt ? (job.lastModifiedBy ?? null) : null,
    last_run_at: iso(job.lastRunAt),
    last_finished_at: iso(job.lastFinishedAt),
    failed_at: iso(job.failedAt),
    fail_count: job.failCount ?? 0,
    fail_reason: job.failReason ?? null,
  };
}
export type JobView = ReturnType<typeof presentJob>;

const groupsOf = (modules: readonly Module[]) => new Map(modules.flatMap((m) => m.jobs ?? []).map((c) => [c.name, c.group]));

/**
 * Jobs by name and state, a page at a time in the state's order (LIST_ORDER), read in the
 * database through that order's index: nothing loaded whole, nothing sorted in memory.
 */
export async function listJobs(platform: Platform, modules: readonly Module[], q: JobListQuery) {
  const now = platform.clock.now();
  const { field, direction } = LIST_ORDER[q.state ?? 'any'];
  const after = keysetQuery(field, direction, q.cursor);
  // The state's conditions and the cursor's `$or` name different keys: one filter, whose ranges the index serves.
  const filter = { ...(q.state ? jobStateFilters(now)[q.state] : {}), ...(q.name ? { name: q.name } : {}), ...after.filter } as Filter<AgendaJob>;
  const docs = await agendaJobs(platform.db)
    .find(filter)
    .sort(after.sort)
    .limit(q.limit + 1)
    .toArray();
  const page = keysetPageOf(docs, q.limit, (job) => (job[field] as Date | string | null | undefined) ?? '');
  const groupOf = groupsOf(modules);
  return { items: page.items.map((j) => presentJob(j, groupOf, now)), nextCursor: page.nextCursor };
}

async function findJob(platform: Platform, jobId: string): Promise<WithId<AgendaJob>> {
  const id = parseObjectId(jobId);
  const job = id ? await agendaJobs(platform.db).findOne({ _id: id }) : null;
  if (!job) throw notFound('Job');
  return job;
}

export async function getJob(platform: Platform, modules: readonly Module[], jobId: string): Promise<JobView> {
  return presentJob(await findJob(platform, jobId), groupsOf(modules), platform.clock.now());
}

/**
 * Run a failed job again: due now, once (its failure count and reason kept for the record). Only
 * a failed one-off job (not locked, no next run): 409 `job_not_failed` otherwise. Conditional on
 * that state, so two re-runs at once run it once.
 */
export async function rerunJob(platform: Platform, modules: readonly Module[], jobId: string): Promise<JobView> {
  const job = await findJob(platform, jobId);
  const now = platform.clock.now();
  const written = await agendaJobs(platform.db).updateOne(
    { _id: job._id, ...(jobStateFilters(now).failed as Filter<AgendaJob>) },
    { $set: { nextRunAt: now } },
  );
  if (written.matchedCount === 0) throw new PlatformError('conflict', 'job_not_failed', `The job is ${stateOf(job, now)}: only a failed job can be run again`);
  platform.log.info({ event: 'operations.job_rerun', job: job.name, job_id: jobId });
  return getJob(platform, modules, jobId);
}

/**
 * Cancel a queued job (due or scheduled, not running): it is removed. A recurring job (a sweep,
 * scheduled again by every worker of its group at start) or a running one is 409
 * `job_not_cancelable`.
 */
export async function cancelJob(platform: Platform, modules: readonly Module[], jobId: string): Promise<JobView> {
  const job = await findJob(platform, jobId);
  const now = platform.clock.now();
  const view = presentJob(job, groupsOf(modules), now);
  if (job.type === 'single') throw new PlatformError('conflict', 'job_not_cancelable', 'A recurring job cannot be canceled: its workers schedule it again');
  const removed = await agendaJobs(platform.db).deleteOne({ _id: job._id, lockedAt: null, nextRunAt: { $ne: null } } as Filter<AgendaJob>);
  if (removed.deletedCount === 0) throw new PlatformError('conflict', 'job_not_cancelable', `The job is ${view.state}: only a queued job can be canceled`);
  platform.log.info({ event: 'operations.job_canceled', job: job.name, job_id: jobId });
  return { ...view, state: 'finished' as const };
}

/**
 * Release the lock on a job held by a process that is gone (missed its heartbeats) or stopped, or
 * that no process row names: the job is due again for any worker of its group. A lock held by a
 * live process is 409 `job_lock_held`; a job not locked is 409 too.
 */
export async function releaseJob(platform: Platform, modules: readonly Module[], jobId: string): Promise<JobView> {
  const job = await findJob(platform, jobId);
  const now = platform.clock.now();
  if (!job.lockedAt) throw new PlatformError('conflict', 'job_lock_held', 'The job is not locked');
  const owner = job.lastModifiedBy ? await processes(platform.db).findOne({ _id: job.lastModifiedBy }) : null;
  if (owner && processState(owner, now) === 'alive')
    throw new PlatformError('conflict', 'job_lock_held', `The lock is held by ${owner._id}, which is alive: stop it, or wait for it`);
  const released = await agendaJobs(platform.db).updateOne({ _id: job._id, lockedAt: job.lockedAt } as Filter<AgendaJob>, {
    $set: { lockedAt: null, nextRunAt: job.nextRunAt ?? now },
  });
  if (released.matchedCount === 0) throw new PlatformError('conflict', 'job_lock_held', 'The job changed meanwhile: read it again');
  platform.log.info({ event: 'operations.job_released', job: job.name, job_id: jobId, owner: job.lastModifiedBy ?? null });
  return getJob(platform, modules, jobId);
}
