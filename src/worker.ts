import { parseArgs } from 'node:util';
import { jobsOfGroup, type RegisteredJob } from '../jobs/index.js';
import { startInternalService } from './boot.js';
import { loadConfigOrExit } from './config.js';
import { INTERNAL_SERVICE_GROUP, WORKER_GROUPS, isWorkerGroup } from './module.js';
import type { Platform } from './platform.js';
import { onShutdownSignal, openPlatformOrExit } from './process.js';

/**
 * A worker process: `node dist/src/worker.js --jobs <group>`. It defines and runs only its
 * group's jobs (jobs/index.ts; the webhooks group also serves the internal service), and on SIGTERM stops taking work, drains running jobs within
 * the grace period and exits 0.
 */
const config = loadConfigOrExit();
const { values } = parseArgs({ options: { jobs: { type: 'string' } }, strict: true });
const group = values.jobs ?? '';
if (!isWorkerGroup(group)) {
  console.error(`emporium worker: --jobs must be one of ${WORKER_GROUPS.join(', ')} (got "${group}")`);
  process.exit(1);
}

const { platform, close } = await openPlatformOrExit(config, `worker:${group}`);
const { agenda } = platform.jobs;
const handlers: readonly RegisteredJob[] = jobsOfGroup(group);
agenda.on('error', (err: Error) => platform.log.error({ event: 'worker.queue_error', err: err.message }));

const LOCKS_PER_SLOT = 10;
for (const handler of handlers) {
  const concurrency = handler.concurrency ?? 5;
  agenda.define(handler.name, async (job) => runLogged(platform, handler, String(job.attrs._id), job.attrs.data), {
    concurrency,
    // Agenda locks jobs only when it scans (every JOBS_POLL_INTERVAL_MS), not when a job
    // finishes; a lock limit equal to the concurrency would run at most `concurrency` jobs
    // per scan (5 jobs/s at 10 and 2 s). Locking several scans' worth keeps the slots busy,
    // while a second worker still finds jobs to take. Jobs locked but not started when the
    // worker stops are unlocked then (see the shutdown below).
    lockLimit: concurrency * LOCKS_PER_SLOT,
  });
}
let service: { close(): Promise<void> } | null = null;
try {
  if (group === INTERNAL_SERVICE_GROUP) service = await startInternalService(platform);
} catch (err) {
  console.error(`emporium worker:${group}: cannot start its service: ${(err as Error).message}`);
  process.exit(1);
}
await agenda.start();
for (const handler of handlers) {
  if (handler.everyMs) await agenda.every(handler.everyMs(platform), handler.name);
}
platform.log.info({ event: 'worker.started', group, jobs: handlers.map((h) => h.name) });

onShutdownSignal(async (signal) => {
  platform.log.info({ event: 'worker.stopping', group, signal });
  await service?.close();
  // Jobs locked ahead of running (the lock limit above); drain stops locking more and waits
  // for the running ones, but leaves these locked, so another worker could take them only
  // once their lock expired (minutes). Unlock those not running when the drain began.
  const held = ((await agenda.getRunningStats(true)).lockedJobs as { _id?: unknown }[]).map((j) => String(j._id));
  const running = new Set(startedJobs);
  const result = await agenda.drain({ timeout: config.jobs.shutdownGraceMs });
  const notStarted = held.filter((id) => !running.has(id) && !startedJobs.has(id));
  await agenda.db.unlockJobs(notStarted);
  await close();
  platform.log.info({
    event: 'worker.stopped',
    group,
    completed: result.completed,
    still_running: result.running,
    timed_out: result.timedOut,
    unlocked: notStarted.length,
  });
  return 0;
});

/** Ids of the jobs this process is running. */
const startedJobs = new Set<string>();

async function runLogged(platform: Platform, handler: RegisteredJob, jobId: string, data: unknown): Promise<void> {
  startedJobs.add(jobId);
  const started = Date.now();
  const ids = idsOf(data);
  platform.log.info({ event: 'job.started', job: handler.name, job_id: jobId, ...ids });
  try {
    const result = await handler.handle(platform, data);
    platform.log.info({ event: 'job.finished', job: handler.name, job_id: jobId, ...ids, outcome: 'succeeded', duration_ms: Date.now() - started, result });
  } catch (err) {
    platform.log.error({
      event: 'job.finished',
      job: handler.name,
      job_id: jobId,
      ...ids,
      outcome: 'failed',
      duration_ms: Date.now() - started,
      error: (err as Error).message,
    });
    throw err;
  } finally {
    startedJobs.delete(jobId); // unlocking a finished job at shutdown is harmless: it holds no lock
  }
}

/** The `*_id` fields of a payload: what a log line needs to find the work again. */
function idsOf(data: unknown): Record<string, unknown> {
  if (!data || typeof data !== 'object') return {};
  return Object.fromEntries(Object.entries(data).filter(([k]) => k.endsWith('_id')));
}
