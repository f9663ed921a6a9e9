import { z } from 'zod';
import { PlatformError, notFound } from '../errors.js';
import type { Module } from '../module.js';
import { KeysetCursorParam, PageQuery } from '../pagination.js';
import type { Platform } from '../platform.js';
import { QUEUED_JOB_STATES, type QueuedJob } from '../queue.js';
import { processState } from './overview.js';
import { processes } from './models.js';

/** The states a job list is filtered by (the queue's: src/queue.ts). */
export const JOB_STATES = QUEUED_JOB_STATES;
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

const iso = (d: Date | null) => d?.toISOString() ?? null;

/**
 * The ids a job's payload names (its `*_id` and `*_ids` fields): what the diagnostics show of a
 * payload, never the rest (a payload is the platform's, not the operator's to read whole).
 */
function payloadIds(data: unknown): Record<string, unknown> {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return {};
  return Object.fromEntries(Object.entries(data).filter(([k, v]) => /_ids?$/.test(k) && (typeof v === 'string' || Array.isArray(v))));
}

function presentJob(job: QueuedJob, groupOf: ReadonlyMap<string, string>) {
  return {
    id: job.id,
    name: job.name,
    group: groupOf.get(job.name) ?? null,
    state: job.state,
    recurring: job.recurring,
    payload_ids: payloadIds(job.data),
    next_run_at: iso(job.nextRunAt),
    locked_at: iso(job.lockedAt),
    lock_owner: job.lockOwner,
    last_run_at: iso(job.lastRunAt),
    last_finished_at: iso(job.lastFinishedAt),
    failed_at: iso(job.failedAt),
    fail_count: job.failCount,
    fail_reason: job.failReason,
  };
}
export type JobView = ReturnType<typeof presentJob>;

const groupsOf = (modules: readonly Module[]) => new Map(modules.flatMap((m) => m.jobs ?? []).map((job) => [job.name, job.group]));

/**
 * Jobs by name and state, a page at a time in the state's order, read in the database through
 * that order's index (the queue's `list`): nothing loaded whole, nothing sorted in memory.
 */
export async function listJobs(platform: Platform, modules: readonly Module[], q: JobListQuery) {
  const page = await platform.jobs.list(q);
  const groupOf = groupsOf(modules);
  return { items: page.items.map((j) => presentJob(j, groupOf)), nextCursor: page.nextCursor };
}

async function findJob(platform: Platform, jobId: string): Promise<QueuedJob> {
  const job = await platform.jobs.find(jobId);
  if (!job) throw notFound('Job');
  return job;
}

export async function getJob(platform: Platform, modules: readonly Module[], jobId: string): Promise<JobView> {
  return presentJob(await findJob(platform, jobId), groupsOf(modules));
}

/**
 * Run a failed job again: due now, once (its failure count and reason kept for the record). Only
 * a failed one-off job (not locked, no next run): 409 `job_not_failed` otherwise. Conditional on
 * that state, so two re-runs at once run it once.
 */
export async function rerunJob(platform: Platform, modules: readonly Module[], jobId: string): Promise<JobView> {
  const job = await findJob(platform, jobId);
  if (!(await platform.jobs.rerun(job.id)))
    throw new PlatformError('conflict', 'job_not_failed', `The job is ${job.state}: only a failed job can be run again`);
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
  if (job.recurring) throw new PlatformError('conflict', 'job_not_cancelable', 'A recurring job cannot be canceled: its workers schedule it again');
  if (!(await platform.jobs.removeQueued(job.id)))
    throw new PlatformError('conflict', 'job_not_cancelable', `The job is ${job.state}: only a queued job can be canceled`);
  platform.log.info({ event: 'operations.job_canceled', job: job.name, job_id: jobId });
  return { ...presentJob(job, groupsOf(modules)), state: 'finished' as const };
}

/**
 * Release the lock on a job held by a process that is gone (missed its heartbeats) or stopped, or
 * that no process row names: the job is due again for any worker of its group. A lock held by a
 * live process is 409 `job_lock_held`; a job not locked is 409 too.
 */
export async function releaseJob(platform: Platform, modules: readonly Module[], jobId: string): Promise<JobView> {
  const job = await findJob(platform, jobId);
  if (!job.lockedAt) throw new PlatformError('conflict', 'job_lock_held', 'The job is not locked');
  const owner = job.lockOwner ? await processes(platform.db).findOne({ _id: job.lockOwner }) : null;
  if (owner && processState(owner, platform.clock.now()) === 'alive')
    throw new PlatformError('conflict', 'job_lock_held', `The lock is held by ${owner._id}, which is alive: stop it, or wait for it`);
  if (!(await platform.jobs.unlock(job))) throw new PlatformError('conflict', 'job_lock_held', 'The job changed meanwhile: read it again');
  platform.log.info({ event: 'operations.job_released', job: job.name, job_id: jobId, owner: job.lockOwner });
  return getJob(platform, modules, jobId);
}
