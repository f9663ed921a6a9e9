import type { z } from 'zod';
import type { JobContract } from '../src/module.js';
import type { Platform } from '../src/platform.js';

/**
 * A job handler: thin, it takes the payload its contract checked, loads by id, calls a service
 * and returns what it did (logged with the job's start, end, duration and outcome). Handlers
 * must be safe to run twice. Its contract (name, group, concurrency, payload, interval) is the
 * domain's (src/<domain>/jobs.ts).
 */
export type JobHandler<S extends z.ZodType = z.ZodType> = (platform: Platform, payload: z.output<S>) => Promise<Record<string, unknown>>;

/** A contract and the handler that runs it: bound by the contract object, never by a name. */
export type BoundJob = { contract: JobContract; handle: JobHandler };

export function bindJob<S extends z.ZodType>(contract: JobContract<S>, handle: JobHandler<S>): BoundJob {
  return { contract, handle: handle as JobHandler };
}

/** A sweep's handler: the number of records it removed or repaired, as `{ affected }`. */
export const bindSweep = (contract: JobContract, sweep: (platform: Platform) => Promise<number>): BoundJob =>
  bindJob(contract, async (platform) => ({ affected: await sweep(platform) }));

/**
 * Whether a recurring job (a sweep, a backstop) found nothing to do: its result is counts of what it
 * did (`{ affected }`, `{ resumed, expired }`, …), every one 0. Anything else in a result counts as
 * something done. The worker logs such a run at debug, not info.
 */
export function foundNothing(result: Record<string, unknown>): boolean {
  return Object.values(result).every((value) => value === 0);
}
