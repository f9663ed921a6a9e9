import type { IndexDeclaration } from './db.js';
import type { EventHooks } from './events/index.js';
import type { AppRouter, Authenticator, RequestBudget, StoreAccess, StoreRequestObserver } from './http/context.js';
import type { Platform } from './platform.js';

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
   * Routes of the internal service (spec 4.9: one Koa app, on its own port, behind the
   * internal secret, served by the `webhooks` worker group), with what to close at shutdown.
   */
  internal?: (platform: Platform) => InternalRoutes;
  /** Its jobs' contracts; the handlers are in the top-level `jobs/` registry. */
  jobs?: readonly JobContract[];
  /** The event types it records (docs/events.md); webhook subscriptions may name these. */
  eventTypes?: readonly string[];
  /**
   * Its collections whose writes carry their events (`pending_events`, docs/events.md): each gets
   * the `events_pending_since` index, and the `maintenance.settle-events` sweep reads them.
   */
  eventCarriers?: readonly string[];
  /** Hooks on event recording (today: the webhooks domain's "who wants it" and wake-up). */
  eventHooks?: (platform: EventHookDeps) => EventHooks & { drain?(): Promise<void> };
  /** Turn bearer tokens of its prefixes into principals (auth: sessions; apps: access tokens). */
  authenticators?: readonly Authenticator[];
  /** Let go of what it holds in this process (threads, connections) when the platform closes. */
  close?: (platform: Platform) => Promise<void>;
  /** Whether a principal may act on a store (the stores domain). */
  storeAccess?: StoreAccess;
  /** The counters behind request budgets, e.g. the store-scoped API's (the ratelimit domain). */
  requestBudget?: RequestBudget;
  /** Hears of each request let into a store-scoped endpoint (apps: counts installed apps' API calls). */
  storeRequestObserver?: StoreRequestObserver;
};

export type Mount = { path: string; router: (platform: Platform) => AppRouter };

export type InternalRoutes = { router: AppRouter; close(): Promise<void> };

/** What event hooks are built from: the platform before its events exist. */
export type EventHookDeps = Omit<Platform, 'events'>;

/** The Procfile's worker groups: each runs only its own jobs, so each kind of work scales on its own. */
export const WORKER_GROUPS = ['webhooks', 'bulk', 'themes', 'extensions', 'maintenance'] as const;
export type WorkerGroup = (typeof WORKER_GROUPS)[number];
export const isWorkerGroup = (name: string): name is WorkerGroup => (WORKER_GROUPS as readonly string[]).includes(name);

/** The group whose processes serve the internal service. */
export const INTERNAL_SERVICE_GROUP: WorkerGroup = 'webhooks';

/**
 * A job's contract: its name (public, never renamed), the worker group that runs it, how many
 * one worker runs at once (and locks ahead), and for a recurring job its interval.
 */
export type JobContract = {
  name: string;
  group: WorkerGroup;
  concurrency?: number;
  everyMs?: (platform: Platform) => number;
};
