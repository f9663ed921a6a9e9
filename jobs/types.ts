import type { Platform } from '../src/platform.js';

/**
 * A job handler: thin, it loads by id, calls a service and returns what it did (logged with
 * the job's start, end, duration and outcome). Handlers must be safe to run twice.
 */
export type JobHandler = {
  name: string;
  handle(platform: Platform, data: unknown): Promise<Record<string, unknown>>;
  /** How many of this job one worker runs at once (also how many it locks ahead). */
  concurrency?: number;
  /** A recurring job: the worker that owns it schedules it at this interval (ms). */
  everyMs?: (platform: Platform) => number;
};
