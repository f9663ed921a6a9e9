import type { JobContract, Module, WorkerGroup } from '../src/module.js';
import { MODULES } from '../src/modules.js';
import { bulkHandlers } from './bulk.js';
import { extensionHandlers } from './extensions.js';
import { maintenanceHandlers } from './maintenance.js';
import { messageHandlers } from './messages.js';
import { sweepHandlers } from './sweeps.js';
import { themeHandlers } from './themes.js';
import type { BoundJob } from './types.js';
import { webhookHandlers } from './webhooks.js';

/**
 * The job registry: the place to read what runs where. Each module declares its jobs' typed
 * contracts, with the Procfile worker group that runs them (src/<domain>/jobs.ts); the thin
 * handlers are here, each bound to its contract object. Each worker runs exactly its group's
 * jobs, so each kind of work scales on its own. Job names are a public contract.
 *
 * - webhooks:    outbound deliveries to the outside world: partner webhooks (fan-out,
 *                signed delivery, retries, the sweeper) and merchant messages (sign-in codes,
 *                password resets). Also serves the internal service.
 * - bulk:        admin bulk operations: a GraphQL query exported as JSONL to object storage (bulk.export,
 *                resumable from its checkpoint), and the sweep for stranded and lapsed operations (bulk.sweep).
 * - themes:      theme package review checks (themes.review) and the sweep for stranded reviews.
 * - extensions:  revoking an uninstalled installation's extension and function rows (extensions.revoke), and its sweep;
 *                apps' quality checks (extensions.check-app-quality: app blocks rendered, privacy URL fetched), and their sweep.
 * - maintenance: every domain's recurring sweeps of expired and stranded records.
 */
export const HANDLERS: readonly BoundJob[] = [
  ...webhookHandlers,
  ...messageHandlers,
  ...bulkHandlers,
  ...themeHandlers,
  ...extensionHandlers,
  ...sweepHandlers,
  ...maintenanceHandlers,
];

/**
 * What is wrong with the registry against the module list: a contract without a handler, a
 * handler whose contract no module declares, a contract bound twice, a name used by two
 * contracts. A worker refuses to start while any is left (and a test asserts none).
 */
export function registryProblems(modules: readonly Module[] = MODULES, handlers: readonly BoundJob[] = HANDLERS): string[] {
  const contracts = modules.flatMap((m) => m.jobs ?? []);
  const bound = new Map<JobContract, number>();
  for (const h of handlers) bound.set(h.contract, (bound.get(h.contract) ?? 0) + 1);
  const names = new Map<string, number>();
  for (const c of new Set(contracts)) names.set(c.name, (names.get(c.name) ?? 0) + 1);
  return [
    ...contracts.filter((c) => !bound.has(c)).map((c) => `${c.name}: no handler in jobs/`),
    ...handlers.filter((h) => !contracts.includes(h.contract)).map((h) => `${h.contract.name}: no module declares this contract`),
    ...[...bound].filter(([, n]) => n > 1).map(([c]) => `${c.name}: bound to ${bound.get(c)} handlers`),
    ...[...names].filter(([, n]) => n > 1).map(([name]) => `${name}: the name of ${names.get(name)} contracts`),
  ];
}

/** The jobs a worker of this group runs, each with its handler; throws when the registry is incomplete. */
export function jobsOfGroup(group: WorkerGroup, modules: readonly Module[] = MODULES, handlers: readonly BoundJob[] = HANDLERS): BoundJob[] {
  const problems = registryProblems(modules, handlers);
  if (problems.length) throw new Error(`the job registry does not match the modules: ${problems.join('; ')}`);
  return handlers.filter((h) => h.contract.group === group);
}
