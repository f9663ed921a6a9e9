import { Agenda, type Job } from 'agenda';
import { MongoBackend } from '@agendajs/mongo-backend';
import type { Db } from 'mongodb';

/**
 * The job queue: Agenda 6 over our own MongoClient's Db (connected and checked first, so a
 * bad URL fails with one clear line instead of an unhandled rejection inside Agenda).
 * The web process only enqueues: it defines nothing and never calls start().
 */
export type JobQueue = {
  agenda: Agenda;
  enqueue(name: string, data: Record<string, unknown>): Promise<string>;
};

export const JOBS_COLLECTION = 'agendaJobs';

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
    agenda,
    async enqueue(name, data) {
      const job: Job = await agenda.now(name, data);
      return String(job.attrs._id);
    },
  };
}
