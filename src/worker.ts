import { parseArgs } from 'node:util';
import { jobsOfGroup } from '../jobs/index.js';
import { startInternalService } from './boot.js';
import { loadConfigOrExit } from './config.js';
import { countEvent } from './counters/index.js';
import { foundNothing, type Job } from './job.js';
import { INTERNAL_SERVICE_GROUP, WORKER_GROUPS, isWorkerGroup } from './module.js';
import type { Platform } from './platform.js';
import { startHeartbeat } from './operations/index.js';
import { InvalidJobPayload, parsePayload } from './queue.js';
import { onShutdownSignal, openPlatformOrExit } from './process.js';

/**
 * A worker process: `node dist/src/worker.js --jobs <group>`. It defines and runs only its
 * group's jobs (the modules' jobs of that group: jobs/index.ts; the webhooks group also serves
 * the internal service), and on SIGTERM stops taking work, drains running jobs within the grace
 * period and exits 0.
 */
const config = loadConfigOrExit();
const { values } = parseArgs({ options: { jobs: { type: 'string' } }, strict: true });
const group = values.jobs ?? '';
if (!isWorkerGroup(group)) {
  console.error(`emporium worker: --jobs must be one of ${WORKER_GROUPS.join(', ')} (got "${group}")`);
  process.exit(1);
}

const { platform, close } = await openPlatformOrExit(config, `worker:${group}`);
let jobs: Job[];
try {
  jobs = jobsOfGroup(group);
} catch (err) {
  console.error(`emporium worker:${group}: ${(err as Error).message}`);
  process.exit(1);
}

let service: { close(): Promise<void> } | null = null;
try {
  if (group === INTERNAL_SERVICE_GROUP) service = await startInternalService(platform);
} catch (err) {
  console.error(`emporium worker:${group}: cannot start its service: ${(err as Error).message}`);
  process.exit(1);
}
const working = await platform.jobs.work(
  jobs.map((job) => ({ contract: job, run: (data, jobId) => runLogged(platform, job, jobId, data) })),
  config,
  (err) => platform.log.error({ event: 'worker.queue_error', err: err.message }),
);
const heartbeat = await startHeartbeat(platform, group, () => working.running());
// Listening for SIGTERM before saying it started: a supervisor (or a test) that stops it as soon
// as it reads that line must not find the signal's default action, death, still in place.
onShutdownSignal(async (signal) => {
  platform.log.info({ event: 'worker.stopping', group, signal });
  await service?.close();
  const result = await working.stop(config.jobs.shutdownGraceMs);
  await heartbeat.stop();
  await close();
  platform.log.info({
    event: 'worker.stopped',
    group,
    still_running: result.running,
    timed_out: result.timedOut,
    unlocked: result.unlocked,
  });
  return 0;
});
platform.log.info({ event: 'worker.started', group, jobs: jobs.map((job) => job.name) });

/**
 * Run one job, logged with its start, end, duration and outcome. The payload is checked against
 * the contract first: one that does not match (written by hand, or by an older release) fails
 * the job with the reason, and a failed job is not retried (no backoff is configured).
 *
 * A recurring job (a sweep, a backstop: its contract has `every`) runs every few seconds and
 * mostly finds nothing: its start is logged at debug, and its end at info only when it did
 * something (`foundNothing`); a failure is an error whatever the job.
 */
async function runLogged(platform: Platform, job: Job, jobId: string, data: unknown): Promise<void> {
  const started = Date.now();
  const ids = idsOf(data);
  const name = job.name;
  const recurring = job.every !== undefined;
  platform.log[recurring ? 'debug' : 'info']({ event: 'job.started', job: name, job_id: jobId, ...ids });
  try {
    const result = await job.run(platform, parsePayload(job, data));
    const level = recurring && foundNothing(result) ? 'debug' : 'info';
    platform.log[level]({ event: 'job.finished', job: name, job_id: jobId, ...ids, outcome: 'succeeded', duration_ms: Date.now() - started, result });
    countEvent(platform, 'jobs.runs', { name, outcome: 'succeeded' });
  } catch (err) {
    const reason = err instanceof InvalidJobPayload ? { reason: 'invalid_payload' } : {};
    platform.log.error({
      event: 'job.finished',
      job: name,
      job_id: jobId,
      ...ids,
      outcome: 'failed',
      ...reason,
      duration_ms: Date.now() - started,
      error: (err as Error).message,
    });
    countEvent(platform, 'jobs.runs', { name, outcome: 'failed' });
    throw err;
  }
}

/** The `*_id` fields of a payload: what a log line needs to find the work again. */
function idsOf(data: unknown): Record<string, unknown> {
  if (!data || typeof data !== 'object') return {};
  return Object.fromEntries(Object.entries(data).filter(([k]) => k.endsWith('_id')));
}
