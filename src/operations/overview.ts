import { WORKER_GROUPS } from '../queue.js';
import type { Module } from '../module.js';
import type { Platform } from '../platform.js';
import { VERSION } from '../version.js';
import { webhookFailureRate } from './dashboards.js';
import { MISSED_BEATS } from './heartbeat.js';
import { incidents, processes, type ProcessDocument } from './models.js';

/** Processes shown: those that beat in the last day (older rows are history). */
const SHOWN_FOR_MS = 24 * 3600_000;
/** At most this many process rows in an overview (the newest beats first). */
const MAX_PROCESSES = 500;

export type ProcessState = 'alive' | 'stopped' | 'gone';

/** Alive while it beats; stopped when it said so; gone when it missed MISSED_BEATS beats (it died). */
export function processState(row: Pick<ProcessDocument, 'last_beat_at' | 'heartbeat_ms' | 'stopped_at'>, now: Date): ProcessState {
  if (row.stopped_at) return 'stopped';
  return now.getTime() - row.last_beat_at.getTime() > MISSED_BEATS * row.heartbeat_ms ? 'gone' : 'alive';
}

const presentProcess = (row: ProcessDocument, now: Date) => ({
  id: row._id,
  group: row.group,
  state: processState(row, now),
  host: row.host,
  pid: row.pid,
  version: row.version,
  started_at: row.started_at.toISOString(),
  last_beat_at: row.last_beat_at.toISOString(),
  jobs_running: row.jobs_running,
  stopped_at: row.stopped_at?.toISOString() ?? null,
});

/** The processes of the last day by group (web and every worker group, with or without one), each group's counts. */
export async function processesOverview(platform: Platform, now: Date) {
  const rows = await processes(platform.db)
    .find({ last_beat_at: { $gte: new Date(now.getTime() - SHOWN_FOR_MS) } })
    .sort({ last_beat_at: -1 })
    .limit(MAX_PROCESSES)
    .toArray();
  const groups = ['web', ...WORKER_GROUPS].map((group) => {
    const of = rows.filter((r) => r.group === group).map((r) => presentProcess(r, now));
    return {
      group,
      alive: of.filter((p) => p.state === 'alive').length,
      stopped: of.filter((p) => p.state === 'stopped').length,
      gone: of.filter((p) => p.state === 'gone').length,
      processes: of,
    };
  });
  return { groups, groups_without_a_process: groups.filter((g) => g.group !== 'web' && g.alive === 0).map((g) => g.group) };
}

/**
 * Each job name's count in each state, its group (from the modules' jobs), and how late its oldest
 * due job is: for each name that has a job, its counts read from an index alone and one read of
 * its oldest due job (the queue's `countByState`), all at once. Names no module declares (an older
 * release's) are not counted.
 */
export async function queuesOverview(platform: Platform, modules: readonly Module[], now: Date) {
  const rows = await Promise.all(
    modules
      .flatMap((m) => m.jobs ?? [])
      .map(async (job) => {
        const counts = await platform.jobs.countByState(job.name);
        if (!counts) return null;
        const at = counts.oldestDueAt;
        return {
          name: job.name,
          group: job.group as string | null,
          due: counts.due,
          scheduled: counts.scheduled,
          running: counts.running,
          failed: counts.failed,
          oldest_due_at: at?.toISOString() ?? null,
          lag_seconds: at ? Math.max(0, Math.round((now.getTime() - at.getTime()) / 1000)) : 0,
        };
      }),
  );
  const queues = rows
    .filter((r): r is NonNullable<typeof r> => r !== null && r.due + r.scheduled + r.running + r.failed > 0)
    .sort((a, b) => a.name.localeCompare(b.name));
  const oldest = queues.filter((q) => q.oldest_due_at).sort((a, b) => b.lag_seconds - a.lag_seconds)[0] ?? null;
  return {
    queues,
    oldest_due_job: oldest ? { name: oldest.name, group: oldest.group, due_at: oldest.oldest_due_at, lag_seconds: oldest.lag_seconds } : null,
  };
}

/** Documents whose events are still on them past the settle delay (the outbox), by collection, and the oldest. */
export async function outboxOverview(platform: Platform, now: Date) {
  const backlog = await platform.events.backlog(new Date(now.getTime() - platform.config.events.settleAfterMs));
  const waiting = backlog.filter((b) => b.count > 0);
  const oldest =
    waiting
      .map((b) => b.oldest)
      .filter((d): d is Date => d !== null)
      .sort((a, b) => a.getTime() - b.getTime())[0] ?? null;
  return {
    events_outbox: {
      documents: waiting.reduce((sum, b) => sum + b.count, 0),
      by_collection: waiting.map((b) => ({ collection: b.collection, documents: b.count, capped: b.capped, oldest: b.oldest?.toISOString() ?? null })),
      oldest_age_seconds: oldest ? Math.round((now.getTime() - oldest.getTime()) / 1000) : 0,
    },
  };
}

/**
 * `GET /v1/operations/runtime/overview` (docs/operations.md, Overview): the processes by group,
 * the queues by job name and state, the event outbox's backlog, and each module's work in flight;
 * every part an indexed read or an aggregation over a bounded set, read at once.
 */
export async function runtimeOverview(platform: Platform, modules: readonly Module[]) {
  const now = platform.clock.now();
  const [procs, queues, outbox, last5, lastHour, activeIncidents, ...parts] = await Promise.all([
    processesOverview(platform, now),
    queuesOverview(platform, modules, now),
    outboxOverview(platform, now),
    webhookFailureRate(platform, 5),
    webhookFailureRate(platform, 60),
    incidents(platform.db).countDocuments({ status: { $in: ['open', 'acknowledged'] } }, { limit: 10_000 }),
    ...modules.flatMap((m) => (m.overview ? [m.overview(platform)] : [])),
  ]);
  return {
    generated_at: now.toISOString(),
    version: VERSION,
    environment: platform.config.env,
    processes: procs,
    ...queues,
    ...outbox,
    webhook_attempts: { last_5_minutes: last5, last_hour: lastHour },
    incidents: { active: activeIncidents },
    work_in_flight: Object.assign({}, ...parts) as Record<string, unknown>,
  };
}
