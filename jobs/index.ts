import type { JobContract, Module, WorkerGroup } from '../src/module.js';
import { MODULES } from '../src/modules.js';
import { ownValue } from '../src/own-keys.js';
import { maintenanceHandlers } from './maintenance.js';
import { messageHandlers } from './messages.js';
import type { JobHandler, JobHandlers } from './types.js';
import { themeHandlers } from './themes.js';
import { webhookHandlers } from './webhooks.js';

/**
 * The job registry: the place to read what runs where. Each module declares its jobs'
 * contracts, with the Procfile worker group that runs them (src/<domain>/jobs.ts); the thin
 * handlers are here, one file per domain. Each worker runs exactly its group's jobs, so each
 * kind of work scales on its own. Job names are a public contract.
 *
 * - webhooks:    outbound deliveries to the outside world: partner webhooks (fan-out,
 *                signed delivery, retries, the sweeper) and merchant messages (sign-in codes,
 *                password resets). Also serves the internal service.
 * - bulk:        admin bulk operations (JSONL exports); filled by the bulk issue.
 * - themes:      theme package review checks (themes.review) and the sweep for stranded reviews.
 * - extensions:  extension/function lifecycle revocation; filled by the app platform issue.
 * - maintenance: recurring sweeps of expired and stranded records.
 */
export const HANDLERS: JobHandlers = { ...webhookHandlers, ...messageHandlers, ...maintenanceHandlers, ...themeHandlers };

export type RegisteredJob = JobContract & { handle: JobHandler };

/** The jobs a worker of this group runs: its modules' contracts with their handlers. */
export function jobsOfGroup(group: WorkerGroup, modules: readonly Module[] = MODULES): RegisteredJob[] {
  return modules
    .flatMap((m) => m.jobs ?? [])
    .filter((job) => job.group === group)
    .map((job) => {
      const handle = ownValue(HANDLERS, job.name);
      if (!handle) throw new Error(`job ${job.name} has no handler in jobs/`);
      return { ...job, handle };
    });
}

/** Contracts without a handler and handlers without a contract (the registry's own check; a test asserts none). */
export function registryProblems(modules: readonly Module[] = MODULES): string[] {
  const contracts = new Set(modules.flatMap((m) => m.jobs ?? []).map((j) => j.name));
  return [
    ...[...contracts].filter((name) => !Object.hasOwn(HANDLERS, name)).map((name) => `${name}: no handler in jobs/`),
    ...Object.keys(HANDLERS)
      .filter((name) => !contracts.has(name))
      .map((name) => `${name}: no module declares it`),
  ];
}
