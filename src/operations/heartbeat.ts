import { hostname } from 'node:os';
import type { Platform } from '../platform.js';
import { VERSION } from '../version.js';
import { processes } from './models.js';

/** Beats a process may miss before it is shown gone. */
export const MISSED_BEATS = 3;

export type Heartbeat = { stop(): Promise<void> };

/**
 * Write this process's row (docs/operations.md, Processes) now and every HEARTBEAT_INTERVAL_MS:
 * its group, host, pid, version, start, and the jobs it is running. A beat that fails is logged
 * and the next one tries again; it never stops the process. `stop` marks it stopped (a clean
 * shutdown: shown stopped, not gone). With OPERATIONS_RECORDING=off it writes nothing.
 */
export async function startHeartbeat(platform: Platform, group: string, jobsRunning: () => number = () => 0): Promise<Heartbeat> {
  if (!platform.config.operations.recording) return { stop: async () => undefined };
  const rows = processes(platform.db);
  const id = platform.process.id;
  const interval = platform.config.operations.heartbeatMs;
  const beat = async () => {
    const now = platform.clock.now();
    await rows.updateOne(
      { _id: id },
      {
        $set: { last_beat_at: now, jobs_running: jobsRunning(), heartbeat_ms: interval, stopped_at: null },
        $setOnInsert: { group, host: hostname(), pid: process.pid, version: VERSION, environment: platform.config.env, started_at: now },
      },
      { upsert: true },
    );
  };
  await beat().catch((err: Error) => platform.log.warn({ event: 'operations.heartbeat_failed', err: err.message }));
  let beating: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    beating = beat().catch((err: Error) => platform.log.warn({ event: 'operations.heartbeat_failed', err: err.message }));
  }, interval);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await beating;
      await rows
        .updateOne({ _id: id }, { $set: { stopped_at: platform.clock.now(), jobs_running: 0 } })
        .catch((err: Error) => platform.log.warn({ event: 'operations.heartbeat_failed', err: err.message }));
    },
  };
}

/** How long a process's row is kept after its last beat: the overview shows a day, the rest is history for a week. */
export const PROCESS_ROWS_KEPT_DAYS = 7;

/** The `maintenance.sweep-processes` sweep: rows of processes that last beat more than PROCESS_ROWS_KEPT_DAYS ago (the `last_beat_at` index). */
export async function sweepProcesses(platform: Pick<Platform, 'db' | 'clock'>): Promise<number> {
  const before = new Date(platform.clock.now().getTime() - PROCESS_ROWS_KEPT_DAYS * 86400_000);
  const { deletedCount } = await processes(platform.db).deleteMany({ last_beat_at: { $lt: before } });
  return deletedCount;
}
