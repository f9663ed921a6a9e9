import { Agenda, type Job } from 'agenda';
import { MongoBackend } from '@agendajs/mongo-backend';
import type { Db } from 'mongodb';
import type { z } from 'zod';
import type { Config } from './config.js';

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

export type JobQueue = {
  /** Enqueue a job now, or at `at`: its id. The payload is checked against the contract first. */
  enqueue<S extends z.ZodType>(job: JobContract<S>, payload: z.input<S>, options?: { at?: Date }): Promise<string>;
  /** Remove a job's queued runs (those whose payload has the fields of `payload`, when given): how many. */
  cancel<S extends z.ZodType>(job: JobContract<S>, payload?: Partial<z.input<S>>): Promise<number>;
  /** Run these jobs in this process (a worker): defines them, starts polling, schedules the recurring ones. */
  work(jobs: readonly RunnableJob[], config: Config, onError: (err: Error) => void): Promise<Working>;
};

export const JOBS_COLLECTION = 'agendaJobs';

/**
 * Agenda locks jobs only when it scans (every JOBS_POLL_INTERVAL_MS), not when a job finishes; a
 * lock limit equal to the concurrency would run at most `concurrency` jobs per scan (5 jobs/s at
 * 10 and 2 s). Locking several scans' worth keeps the slots busy, while a second worker still
 * finds jobs to take. Jobs locked but not started when the worker stops are unlocked then.
 */
const LOCKS_PER_SLOT = 10;

export async function createQueue(db: Db, options: { name: string; pollIntervalMs: number }): Promise<JobQueue> {
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
