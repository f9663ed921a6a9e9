import { Agenda, type Job } from 'agenda';
import { MongoBackend } from '@agendajs/mongo-backend';
import { ObjectId, type Collection, type Db, type Filter, type WithId } from 'mongodb';
import type { z } from 'zod';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { IndexDeclaration } from './db.js';
import { parseObjectId } from './ids.js';
import { keysetPageOf, keysetQuery, type KeysetCursor } from './pagination.js';

/**
 * The job queue facade: the one file that knows Agenda (lint refuses an `agenda` import or an
 * `.agenda` use anywhere else), its calls and its documents. Domains declare their jobs
 * (`defineJob`, src/job.ts) and enqueue by the job object with a payload of its type; a worker
 * process runs its group's jobs through `work`; the operators' queue diagnostics read and act
 * on queued jobs through the methods below, which answer `QueuedJob`s, never Agenda's
 * documents. Agenda 6 runs over our own MongoClient's Db (connected and checked first, so a bad
 * URL fails with one clear line instead of an unhandled rejection inside Agenda). The web
 * process only enqueues and reads: it never calls `work`.
 */

/** The Procfile's worker groups: each runs only its own jobs, so each kind of work scales on its own. */
export const WORKER_GROUPS = ['webhooks', 'bulk', 'themes', 'extensions', 'maintenance'] as const;
export type WorkerGroup = (typeof WORKER_GROUPS)[number];
export const isWorkerGroup = (name: string): name is WorkerGroup => (WORKER_GROUPS as readonly string[]).includes(name);

/**
 * What the queue knows of a job (src/job.ts adds its run): its name (public, never renamed), the
 * worker group that runs it, how many one worker runs at once (and locks ahead), the schema of
 * its payload (checked when enqueued and again when run), and for a recurring job its interval.
 */
export type JobContract<S extends z.ZodType = z.ZodType> = Readonly<{
  name: string;
  group: WorkerGroup;
  concurrency: number;
  payload: S;
  every?: (config: Config) => number;
}>;

/** A stored payload that does not match its contract: the job is recorded as failed and not retried. */
export class InvalidJobPayload extends Error {
  constructor(job: string, issues: readonly z.core.$ZodIssue[]) {
    super(`payload does not match ${job}: ${issues.map((i) => `${i.path.join('.') || '(payload)'}: ${i.message}`).join('; ')}`);
    this.name = 'InvalidJobPayload';
  }
}

/** Check a payload against its contract (when enqueued, and again when run). */
export function parsePayload<S extends z.ZodType>(job: JobContract<S>, data: unknown): z.output<S> {
  const parsed = job.payload.safeParse(data ?? {});
  if (!parsed.success) throw new InvalidJobPayload(job.name, parsed.error.issues);
  return parsed.data;
}

/** A contract bound to what runs it, with what the worker needs to log the run. */
export type RunnableJob = { contract: JobContract; run(data: unknown, jobId: string): Promise<void> };

export type Working = {
  /** Jobs running in this process now. */
  running(): number;
  /** Stop taking work, wait up to `graceMs` for the running jobs, give back those locked but not started. */
  stop(graceMs: number): Promise<{ running: number; timedOut: boolean; unlocked: number }>;
};

export type JobQueue = QueueInspection & {
  /** Enqueue a job now, or at `at`: its id. The payload is checked against the contract first. */
  enqueue<S extends z.ZodType>(job: JobContract<S>, payload: z.input<S>, options?: { at?: Date }): Promise<string>;
  /** Remove a job's queued runs (those whose payload has the fields of `payload`, when given): how many. */
  cancel<S extends z.ZodType>(job: JobContract<S>, payload?: Partial<z.input<S>>): Promise<number>;
  /** Run these jobs in this process (a worker): defines them, starts polling, schedules the recurring ones. */
  work(jobs: readonly RunnableJob[], config: Config, onError: (err: Error) => void): Promise<Working>;
};

/** The states a queued job is listed and counted by (docs/operations.md, Queues). */
export const QUEUED_JOB_STATES = ['due', 'scheduled', 'running', 'failed'] as const;
export type ListedJobState = (typeof QUEUED_JOB_STATES)[number];
/** Its state now: listed, or `disabled` (Agenda's flag: the platform never sets it) or `finished` (ran, kept: not removed on completion). */
export type QueuedJobState = ListedJobState | 'disabled' | 'finished';

/** A job in the queue, as the platform reads it: never Agenda's document (`queuedJobOf` maps it field by field). */
export type QueuedJob = {
  id: string;
  name: string;
  state: QueuedJobState;
  /** Scheduled again after each run (a job with `every`), or run once. */
  recurring: boolean;
  /** Its payload as stored (possibly one its contract no longer accepts: written by an older release). */
  data: unknown;
  nextRunAt: Date | null;
  lockedAt: Date | null;
  /** The process that holds its lock (its `platform.process.id`), while it is locked. */
  lockOwner: string | null;
  lastRunAt: Date | null;
  lastFinishedAt: Date | null;
  failedAt: Date | null;
  failCount: number;
  failReason: string | null;
};

/** One job name's queued jobs by state, and when its oldest due job was due (null: none is due). */
export type QueueCounts = Record<ListedJobState, number> & { oldestDueAt: Date | null };

/** What the operators' queue diagnostics read and do (src/operations): by job id, typed, the conditions of each change here. */
export type QueueInspection = {
  /** Jobs by name and state, a page at a time in the state's order (due and scheduled by when due, running by when locked, failed the latest first; any state by name). */
  list(query: { name?: string | undefined; state?: ListedJobState | undefined; limit: number; cursor?: KeysetCursor | undefined }): Promise<{
    items: QueuedJob[];
    nextCursor: string | null;
  }>;
  /** The job of this id, or null (none, or not an id). */
  find(id: string): Promise<QueuedJob | null>;
  /** A failed job due again now, once (its failure count and reason kept): false when it is not failed (any more). */
  rerun(id: string): Promise<boolean>;
  /** Remove a queued one-off job (due or scheduled, not locked): false when it is not that (any more). */
  removeQueued(id: string): Promise<boolean>;
  /** Take the lock off a job, due again (at its next run, or now): false when its lock changed since it was read. */
  unlock(job: QueuedJob): Promise<boolean>;
  /** A name's jobs by state (read from an index alone), or null when it has none. */
  countByState(name: string): Promise<QueueCounts | null>;
  /** Jobs that failed since `since`, counted up to `limit`. */
  countFailedSince(since: Date, limit: number): Promise<number>;
  /** Read one job, bounded by `maxTimeMs`: throws when the queue's collection cannot be read (the readiness probe). */
  probe(maxTimeMs: number): Promise<void>;
};

const JOBS_COLLECTION = 'agendaJobs';

/**
 * Agenda's job document (`@agendajs/mongo-backend`), as far as the platform reads and changes it.
 * It stays in this file: `queuedJobOf` maps it.
 */
type AgendaJobDocument = {
  _id: ObjectId;
  name: string;
  data?: unknown;
  /** `single` for a recurring job (Agenda's `every`), `normal` for a one-off. */
  type?: string;
  nextRunAt?: Date | null;
  lockedAt?: Date | null;
  /** The queue name of the process that last locked or saved it: its process id (src/boot.ts). */
  lastModifiedBy?: string | null;
  lastRunAt?: Date | null;
  lastFinishedAt?: Date | null;
  failedAt?: Date | null;
  failCount?: number | null;
  failReason?: string | null;
  disabled?: boolean;
};

/**
 * The indexes of the operators' counts and lists on Agenda's collection (docs/operations.md, Jobs),
 * beside Agenda's own. The counts' index holds every field a state filter names, so a count is read
 * from the index alone (covered) on MongoDB and on the embedded database; each list walks the index
 * of its state's order, a page at a time.
 */
export const queueIndexes: IndexDeclaration[] = [
  {
    collection: JOBS_COLLECTION,
    indexes: [
      { key: { name: 1, lockedAt: 1, nextRunAt: 1, failedAt: 1 }, name: 'operations_state_counts' },
      { key: { nextRunAt: 1, _id: 1 }, name: 'operations_by_next_run' },
      { key: { name: 1, nextRunAt: 1, _id: 1 }, name: 'operations_by_name_next_run' },
      { key: { failedAt: -1, _id: -1 }, name: 'operations_by_failure' },
      { key: { name: 1, failedAt: -1, _id: -1 }, name: 'operations_by_name_failure' },
      { key: { lockedAt: 1, _id: 1 }, name: 'operations_by_lock' },
      { key: { name: 1, _id: 1 }, name: 'operations_by_name' },
    ],
  },
];

/** Before any time Agenda writes: "a date" as a range an index walks (where `$ne: null` would walk every null first). */
const EPOCH = new Date(0);

/**
 * The listed states as filters on Agenda's documents: each names only fields of the
 * `operations_state_counts` index, as points and ranges, so counting one is read from the index
 * alone. (Agenda's `disabled` flag is not read: the platform never disables a job.)
 */
function stateFilters(now: Date): Record<ListedJobState, Filter<AgendaJobDocument>> {
  return {
    due: { lockedAt: null, nextRunAt: { $lte: now } },
    scheduled: { lockedAt: null, nextRunAt: { $gt: now } },
    running: { lockedAt: { $gte: EPOCH } },
    failed: { lockedAt: null, nextRunAt: null, failedAt: { $gte: EPOCH } },
  };
}

/** The state of one job (the filters above, in code). */
function stateOf(job: AgendaJobDocument, now: Date): QueuedJobState {
  if (job.lockedAt) return 'running';
  if (job.disabled) return 'disabled';
  if (job.nextRunAt) return job.nextRunAt.getTime() <= now.getTime() ? 'due' : 'scheduled';
  return job.failedAt ? 'failed' : 'finished';
}

function queuedJobOf(doc: WithId<AgendaJobDocument>, now: Date): QueuedJob {
  return {
    id: doc._id.toHexString(),
    name: doc.name,
    state: stateOf(doc, now),
    recurring: doc.type === 'single',
    data: doc.data,
    nextRunAt: doc.nextRunAt ?? null,
    lockedAt: doc.lockedAt ?? null,
    lockOwner: doc.lockedAt ? (doc.lastModifiedBy ?? null) : null,
    lastRunAt: doc.lastRunAt ?? null,
    lastFinishedAt: doc.lastFinishedAt ?? null,
    failedAt: doc.failedAt ?? null,
    failCount: doc.failCount ?? 0,
    failReason: doc.failReason ?? null,
  };
}

/** The order each list walks, on its own index (`queueIndexes`), `_id` after it: the keyset cursor's pair. */
const LIST_ORDER: Record<ListedJobState | 'any', { field: 'nextRunAt' | 'lockedAt' | 'failedAt' | 'name'; direction: 1 | -1 }> = {
  due: { field: 'nextRunAt', direction: 1 },
  scheduled: { field: 'nextRunAt', direction: 1 },
  running: { field: 'lockedAt', direction: 1 },
  failed: { field: 'failedAt', direction: -1 },
  any: { field: 'name', direction: 1 },
};

function inspection(jobs: Collection<AgendaJobDocument>, clock: Clock): QueueInspection {
  return {
    async list({ name, state, limit, cursor }) {
      const now = clock.now();
      const { field, direction } = LIST_ORDER[state ?? 'any'];
      const after = keysetQuery(field, direction, cursor);
      // The state's conditions and the cursor's `$or` name different keys: one filter, whose ranges the index serves.
      const filter = { ...(state ? stateFilters(now)[state] : {}), ...(name ? { name } : {}), ...after.filter } as Filter<AgendaJobDocument>;
      const docs = await jobs
        .find(filter)
        .sort(after.sort)
        .limit(limit + 1)
        .toArray();
      const page = keysetPageOf(docs, limit, (job) => job[field] ?? '');
      return { items: page.items.map((doc) => queuedJobOf(doc, now)), nextCursor: page.nextCursor };
    },

    async find(id) {
      const _id = parseObjectId(id);
      const doc = _id ? await jobs.findOne({ _id }) : null;
      return doc ? queuedJobOf(doc, clock.now()) : null;
    },

    async rerun(id) {
      const _id = parseObjectId(id);
      const now = clock.now();
      // Conditional on the failed state, so two re-runs at once run it once.
      return !!_id && (await jobs.updateOne({ _id, ...stateFilters(now).failed }, { $set: { nextRunAt: now } })).matchedCount === 1;
    },

    async removeQueued(id) {
      const _id = parseObjectId(id);
      return !!_id && (await jobs.deleteOne({ _id, type: { $ne: 'single' }, lockedAt: null, nextRunAt: { $ne: null } })).deletedCount === 1;
    },

    async unlock(job) {
      const released = await jobs.updateOne(
        { _id: new ObjectId(job.id), lockedAt: job.lockedAt },
        { $set: { lockedAt: null, nextRunAt: job.nextRunAt ?? clock.now() } },
      );
      return released.matchedCount === 1;
    },

    async countByState(name) {
      // Most names have no job at a given moment: one read says so, and spares the rest.
      if (!(await jobs.findOne({ name }, { projection: { _id: 1 } }))) return null;
      const filters = stateFilters(clock.now());
      const [[due, scheduled, running, failed], oldestDue] = await Promise.all([
        Promise.all(QUEUED_JOB_STATES.map((state) => jobs.countDocuments({ name, ...filters[state] }))),
        jobs.findOne({ name, ...filters.due }, { sort: { nextRunAt: 1 }, projection: { nextRunAt: 1 } }),
      ]);
      return { due: due!, scheduled: scheduled!, running: running!, failed: failed!, oldestDueAt: oldestDue?.nextRunAt ?? null };
    },

    countFailedSince: (since, limit) => jobs.countDocuments({ failedAt: { $gte: since } }, { limit }),

    async probe(maxTimeMs) {
      await jobs.findOne({}, { projection: { _id: 1 }, maxTimeMS: maxTimeMs });
    },
  };
}

/**
 * Agenda locks jobs only when it scans (every JOBS_POLL_INTERVAL_MS), not when a job finishes; a
 * lock limit equal to the concurrency would run at most `concurrency` jobs per scan (5 jobs/s at
 * 10 and 2 s). Locking several scans' worth keeps the slots busy, while a second worker still
 * finds jobs to take. Jobs locked but not started when the worker stops are unlocked then.
 */
const LOCKS_PER_SLOT = 10;

/** The queue over `db`; `name` is this process's id (Agenda's lock owner), `clock` the platform's (a queued job's state is read at its now). */
export async function createQueue(db: Db, options: { name: string; pollIntervalMs: number; clock: Clock }): Promise<JobQueue> {
  const agenda = new Agenda({
    backend: new MongoBackend({ mongo: db, collection: JOBS_COLLECTION }),
    name: options.name,
    processEvery: options.pollIntervalMs,
    // Long enough for any job we run; a crashed worker's lock expires after this.
    defaultLockLifetime: 5 * 60_000,
    // One-off jobs are removed once they succeed: every recorded event enqueues one, and a
    // queue that keeps them grows without end (and every poll reads it). Failed jobs stay for
    // inspection; our own documents (deliveries, messages) keep the history that matters.
    removeOnComplete: true,
  });
  await agenda.ready;
  return {
    ...inspection(db.collection<AgendaJobDocument>(JOBS_COLLECTION), options.clock),

    async enqueue(job, payload, { at } = {}) {
      const data = parsePayload(job, payload) as Record<string, unknown>;
      const created: Job = at ? await agenda.schedule(at, job.name, data) : await agenda.now(job.name, data);
      return String(created.attrs._id);
    },

    async cancel(job, payload) {
      return agenda.cancel({ name: job.name, ...(payload ? { data: payload } : {}) });
    },

    async work(jobs, config, onError) {
      agenda.on('error', onError);
      const started = new Set<string>();
      for (const job of jobs) {
        const { concurrency } = job.contract;
        agenda.define(
          job.contract.name,
          async (agendaJob) => {
            const id = String(agendaJob.attrs._id);
            started.add(id);
            try {
              await job.run(agendaJob.attrs.data, id);
            } finally {
              started.delete(id); // unlocking a finished job at shutdown is harmless: it holds no lock
            }
          },
          { concurrency, lockLimit: concurrency * LOCKS_PER_SLOT },
        );
      }
      await agenda.start();
      for (const job of jobs) {
        if (job.contract.every) await agenda.every(job.contract.every(config), job.contract.name);
      }
      return {
        running: () => started.size,
        async stop(graceMs) {
          // Jobs locked ahead of running (the lock limit above); drain stops locking more and
          // waits for the running ones, but leaves these locked, so another worker could take
          // them only once their lock expired (minutes). Unlock those not running when the drain began.
          const held = ((await agenda.getRunningStats(true)).lockedJobs as { _id?: unknown }[]).map((j) => String(j._id));
          const running = new Set(started);
          // Agenda 6.2.6's drain checks for idle right after a job's `complete` event, but a
          // one-off job removed on completion (removeOnComplete) stays running while its removal
          // is written, so the last check misses it and the drain waits out the whole grace
          // period. Watch the running count ourselves and end the drain once it is zero.
          const idle = new AbortController();
          const watch = setInterval(() => {
            agenda.getRunningStats().then(
              (stats) => (stats.runningJobs === 0 ? idle.abort() : undefined),
              () => undefined,
            );
          }, 100);
          const result = await agenda.drain({ timeout: graceMs, signal: idle.signal }).finally(() => clearInterval(watch));
          const notStarted = held.filter((id) => !running.has(id) && !started.has(id));
          await agenda.db.unlockJobs(notStarted);
          return { running: result.aborted ? 0 : result.running, timedOut: result.timedOut, unlocked: notStarted.length };
        },
      };
    },
  };
}
