import { hostname } from 'node:os';
import type { MongoClient } from 'mongodb';
import type Koa from 'koa';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import { counterIndexes, flushCounters } from './counters/index.js';
import { connectDatabase, ensureIndexes, watchDatabase, type IndexDeclaration } from './db.js';
import { carrierIndexes, createEvents, eventIndexes, intentIndexes, type DomainEvent, type EventHooks } from './events/index.js';
import { createApp } from './http/app.js';
import type { Access, AppCustom, AppState } from './http/context.js';
import { idempotencyIndexes } from './http/idempotency/index.js';
import { serveInternal } from './http/internal.js';
import { chooseLogFormat, createLog, type Log } from './log.js';
import type { EventHookDeps, Module } from './module.js';
import { MODULES } from './modules.js';
import type { Platform } from './platform.js';
import { createQueue, queueIndexes } from './queue.js';

/**
 * The composition root: builds the platform from the module list. Every process (web, each
 * worker group) and the tests start here; the core and the http toolkit know no domain.
 */

/** The core's own collections (events; the Idempotency-Key records of the http toolkit; the runtime counters; the job queue's). */
const CORE_INDEXES: readonly IndexDeclaration[] = [...eventIndexes, ...intentIndexes, ...idempotencyIndexes, ...counterIndexes, ...queueIndexes];

export type OpenPlatform = { platform: Platform; client: MongoClient; close(): Promise<void> };

/** `web` → `web:host:pid`; `worker:webhooks` → `webhooks:host:pid` (the owner of the leases it takes). */
const processId = (name: string) => `${name.replace(/^worker:/, '')}:${hostname()}:${process.pid}`;

/**
 * Connect (failing fast with DatabaseUnavailableError), create every module's indexes, and
 * build the platform with the modules' event types and hooks. `processName` names the process
 * in logs and in Agenda's lock owner.
 */
export async function openPlatform(
  config: Config,
  processName: string,
  options: { clock?: Clock; log?: Log; modules?: readonly Module[] } = {},
): Promise<OpenPlatform> {
  const modules = options.modules ?? MODULES;
  const log = options.log ?? createLog(config.logLevel, { process: processName }, undefined, chooseLogFormat(config, process.stdout.isTTY === true));
  const clock = options.clock ?? systemClock;
  if (!config.mongo.url) throw new Error('MONGODB_URL is not set (npm start sets it for the embedded database)');
  const { client, db } = await connectDatabase(config.mongo.url, config.mongo.dbName, config.mongo.connectTimeoutMs);
  watchDatabase(client, log);
  const carriers = [...new Set(modules.flatMap((m) => m.eventCarriers ?? []))];
  await ensureIndexes(db, [...CORE_INDEXES, ...modules.flatMap((m) => m.indexes ?? []), ...carrierIndexes(carriers)]);
  const id = processId(processName);
  // The queue is named by the process's id: Agenda records it as a locked job's `lastModifiedBy`,
  // so the operators' queue diagnostics know which process holds a lock (docs/operations.md).
  const jobs = await createQueue(db, { name: id, pollIntervalMs: config.jobs.pollIntervalMs, clock });
  const deps: EventHookDeps = { config, db, jobs, clock, log, process: { name: processName, id } };
  const hooks = modules.flatMap((m) => (m.eventHooks ? [m.eventHooks(deps)] : []));
  const events = createEvents(
    db,
    clock,
    modules.flatMap((m) => m.eventTypes ?? []),
    { ...combineHooks(hooks), carriers, log },
  );
  const platform: Platform = { ...deps, events };
  return {
    platform,
    client,
    async close() {
      for (const h of hooks) await h.drain?.();
      for (const m of modules) await m.close?.(platform);
      await flushCounters(platform).catch((err: Error) => log.warn({ event: 'counters.flush_failed', err: err.message }));
      await client.close();
    },
  };
}

/** Several modules' event hooks as one: an event is wanted if any wants it; each hears of the events recorded. */
function combineHooks(hooks: readonly EventHooks[]): EventHooks {
  const wanting = hooks.filter((h) => h.wanted);
  const hearing = hooks.filter((h) => h.afterRecord);
  return {
    ...(wanting.length
      ? {
          async wanted(docs) {
            const answers = await Promise.all(wanting.map((h) => h.wanted!(docs)));
            return docs.map((_, i) => answers.some((a) => a[i]));
          },
        }
      : {}),
    ...(hearing.length ? { afterRecord: async (event: DomainEvent) => void (await Promise.all(hearing.map((h) => h.afterRecord!(event)))) } : {}),
  };
}

/**
 * How the web app resolves callers: every module's authenticators, the store access rule, the
 * request budget, the store request observers, the request guards and the budget refusal observers.
 */
export function accessOf(modules: readonly Module[] = MODULES): Access {
  const storeAccess = modules.find((m) => m.storeAccess)?.storeAccess;
  if (!storeAccess) throw new Error('no module provides storeAccess (the stores module)');
  const budget = modules.find((m) => m.requestBudget)?.requestBudget;
  if (!budget) throw new Error('no module provides requestBudget (the ratelimit module)');
  return {
    authenticators: modules.flatMap((m) => m.authenticators ?? []),
    storeAccess,
    budget,
    storeRequestObservers: modules.flatMap((m) => (m.storeRequestObserver ? [m.storeRequestObserver] : [])),
    requestGuards: modules.flatMap((m) => (m.requestGuard ? [m.requestGuard] : [])),
    budgetRefusalObservers: modules.flatMap((m) => (m.budgetRefusalObserver ? [m.budgetRefusalObserver] : [])),
  };
}

/** The web application with every module's routes. */
export function createWebApp(platform: Platform, modules: readonly Module[] = MODULES): Koa<AppState, AppCustom> {
  const mounts = modules.flatMap((m) =>
    [...(m.routes ?? []), ...(m.pages ?? [])].map(({ path, router, probe }) => ({ path, router: router(platform), probe })),
  );
  const sites = modules.flatMap((m) => (m.site ? [m.site(platform)] : []));
  return createApp(platform, { mounts, access: accessOf(modules), sites });
}

/** The internal service with every module's internal routes, listening (the webhooks group runs it). */
export function startInternalService(platform: Platform, modules: readonly Module[] = MODULES) {
  return serveInternal(
    platform,
    modules.flatMap((m) => (m.internal ? [m.internal(platform)] : [])),
  );
}
