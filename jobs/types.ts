import type { Platform } from '../src/platform.js';

/**
 * A job handler: thin, it parses the payload, loads by id, calls a service and returns what it
 * did (logged with the job's start, end, duration and outcome). Handlers must be safe to run
 * twice. Its contract (name, group, concurrency, interval) is the domain's (src/<domain>/jobs.ts).
 */
export type JobHandler = (platform: Platform, data: unknown) => Promise<Record<string, unknown>>;

/** A domain's handlers by job name. */
export type JobHandlers = Readonly<Record<string, JobHandler>>;
