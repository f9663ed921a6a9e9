import type { IndexDeclaration } from './db.js';
import type { EventHooks } from './events/index.js';
import type { HostSite } from './http/app.js';
import type { AppRouter, Authenticator, BudgetRefusalObserver, RequestBudget, RequestGuard, StoreAccess, StoreRequestObserver } from './http/context.js';
import type { Platform } from './platform.js';
import type { Job } from './job.js';
import type { WorkerGroup } from './queue.js';

/**
 * What a domain brings to the platform, exported by its `index.ts` and listed once in
 * `src/modules.ts`: the composition root (`src/boot.ts`), the web and internal apps and the
 * workers read only that list. Nothing here is a framework: plain data and factories.
 */
export type Module = {
  name: string;
  /** Its collections' indexes, created at start-up by every process, idempotently. */
  indexes?: readonly IndexDeclaration[];
  /** Routers of the public API, each at its mount path (`/v1/coupons`). */
  routes?: readonly Mount[];
  /**
   * Its server-rendered pages, each list (`pages()` in src/http/pages.ts: path, method, access,
   * CSRF rule, handler) at its mount path (`/console`), mounted beside the API's routers.
   */
  pages?: readonly Mount[];
  /**
   * Routes of the internal service (spec 4.9: one Koa app, on its own port, behind the
   * internal secret, served by the `webhooks` worker group), with what to close at shutdown.
   */
  internal?: (platform: Platform) => InternalRoutes;
  /**
   * Its jobs, its sweeps included, each with its run (`defineJob`, `defineSweep` in src/job.ts):
   * the workers' registry is these lists (jobs/index.ts), and a worker refuses to start when two
   * jobs share a name or one has no worker group.
   */
  jobs?: readonly Job[];
  /** The event types it records (`src/<domain>/events.ts`, docs/events.md); webhook subscriptions may name these. */
  eventTypes?: readonly string[];
  /** The public error codes it answers with, beside the core's (`src/<domain>/errors.ts`; each is documented in docs/). */
  errorCodes?: readonly string[];
  /**
   * Its collections whose writes carry their events (`pending_events`, docs/events.md): each gets
   * the `events_pending_since` index, and the `maintenance.settle-events` sweep reads them.
   */
  eventCarriers?: readonly string[];
  /** Hooks on event recording (today: the webhooks domain's "who wants it" and wake-up). */
  eventHooks?: (platform: EventHookDeps) => EventHooks & { drain?(): Promise<void> };
  /** Turn bearer tokens of its prefixes into principals (auth: sessions; apps: access tokens). */
  authenticators?: readonly Authenticator[];
  /**
   * Its part of the operators' runtime overview (docs/operations.md, Overview): figures of its work
   * in flight, under one key, each read with an indexed query (counted up to a cap, never a scan).
   */
  overview?: (platform: Platform) => Promise<Record<string, unknown>>;
  /** Let go of what it holds in this process (threads, connections) when the platform closes. */
  close?: (platform: Platform) => Promise<void>;
  /** Whether a principal may act on a store (the stores domain). */
  storeAccess?: StoreAccess;
  /** The leaky bucket behind request budgets, e.g. the store-scoped API's (the ratelimit domain). */
  requestBudget?: RequestBudget;
  /** Hears of each request let into a store-scoped endpoint (apps: counts installed apps' API calls). */
  storeRequestObserver?: StoreRequestObserver;
  /** Refuses a request by its client address before any route runs (security: blocked address ranges). */
  requestGuard?: RequestGuard;
  /** Hears of each store-scoped request refused for its spent request budget (security records it). */
  budgetRefusalObserver?: BudgetRefusalObserver;
  /** A website on hosts of its own, served by the web process before the API's routes (the shop: docs/shop.md; its pages a `pages()` list). */
  site?: (platform: Platform) => HostSite;
};

/** A router of the public API at its mount path; a `probe` answers for itself while the database is down (src/http/app.ts). */
export type Mount = { path: string; router: (platform: Platform) => AppRouter; probe?: boolean };

export type InternalRoutes = { router: AppRouter; close(): Promise<void> };

/** What event hooks are built from: the platform before its events exist. */
export type EventHookDeps = Omit<Platform, 'events'>;

export { WORKER_GROUPS, isWorkerGroup, type WorkerGroup } from './queue.js';

/** The group whose processes serve the internal service. */
export const INTERNAL_SERVICE_GROUP: WorkerGroup = 'webhooks';
