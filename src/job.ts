import { z } from 'zod';
import type { Config } from './config.js';
import type { Platform } from './platform.js';
import type { JobContract, WorkerGroup } from './queue.js';

/**
 * A job, declared once by the domain that owns the work (docs/processes.md, "Jobs"): its
 * contract (name, public and never renamed; the worker group that runs it; how many one worker
 * runs at once; the payload's schema; for a recurring job its interval) and its `run`, the
 * handler. A handler is thin: it takes the payload its schema checked, loads by id, calls the
 * domain's service and returns what it did, logged with the run's start, end, duration and
 * outcome. It must be safe to run twice. The domain enqueues it by this object
 * (`platform.jobs.enqueue(ReviewThemeVersion, { review_id })`), and its module lists it (`jobs`):
 * the workers' registry is the modules' lists (jobs/index.ts).
 *
 * A run that needs what its domain may not import (another domain above it, the module list)
 * takes it as `deps`: its module is given them (a module factory in src/modules.ts) and lists
 * the job `given` them; until then the job is not runnable, and the module list does not compile.
 */
export type Job<S extends z.ZodType = z.ZodType, D = void> = JobContract<S> &
  Readonly<{
    // A method, so that a job of any payload is a Job of the registry's (parameters compared both ways).
    run(platform: Platform, payload: z.output<S>, deps: D): Promise<JobResult>;
  }>;

/** What a run did, logged with its `job.finished`: counts and ids, never a document. */
export type JobResult = Record<string, unknown>;

/** A job; `concurrency` defaults to 5. */
export function defineJob<S extends z.ZodType, D = void>(job: Omit<Job<S, D>, 'concurrency'> & { concurrency?: number }): Job<S, D> {
  return Object.freeze({ concurrency: 5, ...job });
}

/** A job whose run takes dependencies, with them: what its module lists. */
export function given<S extends z.ZodType, D>(job: Job<S, D>, deps: D): Job<S> {
  return Object.freeze({ ...job, run: (platform: Platform, payload: z.output<S>) => job.run(platform, payload, deps) });
}

/** No payload: what a recurring job takes (Agenda schedules it with none). */
export const NoPayload = z.object({}).strict();

/**
 * A housekeeping sweep of the domain that owns its records: recurring, one at a time, run by the
 * maintenance group every MAINTENANCE_SWEEP_INTERVAL_MS. `sweep` is the domain's function; the
 * run answers how many records it removed or repaired (`{ affected }`).
 */
export const defineSweep = (name: `maintenance.${string}`, sweep: (platform: Platform) => Promise<number>) =>
  defineJob({
    name,
    group: 'maintenance',
    concurrency: 1,
    payload: NoPayload,
    every: (config) => config.jobs.sweepIntervalMs,
    run: async (platform) => ({ affected: await sweep(platform) }),
  });

/**
 * A worker group's backstop: recurring, one at a time, no payload, run by the group itself every
 * `every` of the config. It finds the group's work whose job was lost or whose worker died (its
 * lease ran out) and does it (`webhooks.sweep`, `themes.sweep`, `extensions.sweep`); its run
 * answers counts of what it did.
 */
export const defineBackstop = (job: { name: string; group: WorkerGroup; every: (config: Config) => number; run: (platform: Platform) => Promise<JobResult> }) =>
  defineJob({ ...job, concurrency: 1, payload: NoPayload });

/**
 * Whether a recurring job (a sweep, a backstop) found nothing to do: its result is counts of what it
 * did (`{ affected }`, `{ resumed, expired }`, …), every one 0. Anything else in a result counts as
 * something done. The worker logs such a run at debug, not info.
 */
export function foundNothing(result: JobResult): boolean {
  return Object.values(result).every((value) => value === 0);
}
