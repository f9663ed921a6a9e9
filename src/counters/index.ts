import type { Db, Filter } from 'mongodb';
import { upsertCounters } from '../db.js';
import type { Platform } from '../platform.js';
import { runtimeCounters, type CounterDocument, type Resolution } from './models.js';
export { counterIndexes, RUNTIME_COUNTERS, type CounterDocument, type Resolution } from './models.js';

/**
 * Runtime counters (docs/operations.md, Counters and dashboards): how many requests, job runs,
 * webhook attempts, checkouts and function runs happened each minute, by a few labels, so the
 * operators' dashboards, the overview's failure rates and the incident rules read a handful of
 * small documents instead of scanning the raw collections.
 *
 * Counting costs the code path a map increment: each process adds counts up in memory and writes
 * them together (one bulk write of `$inc` upserts) at most FLUSH_AFTER_MS after the first count it
 * has not written, and when it closes. Every count is written twice, into its minute and into its
 * hour, so a window of days reads hours, not minutes. A process killed outright loses at most its
 * last FLUSH_AFTER_MS of counts: the figures are for dashboards and alert rules, not for billing.
 *
 * Bounded: series and label values come from the platform's code (status classes, job names of
 * the contracts, outcomes), never from a client; a process holds at most MAX_KEYS unwritten keys;
 * minutes are kept MINUTES_KEPT_HOURS and hours HOURS_KEPT_DAYS (the `maintenance.sweep-counters`
 * sweep, src/operations).
 */
export const FLUSH_AFTER_MS = 2000;
const MAX_KEYS = 10_000;
export const MINUTES_KEPT_HOURS = 48;
export const HOURS_KEPT_DAYS = 30;

/** The series counted (docs/operations.md lists each with its labels). */
export const COUNTER_SERIES = ['http.requests', 'jobs.runs', 'webhooks.attempts', 'checkout.outcomes', 'functions.runs'] as const;
export type CounterSeries = (typeof COUNTER_SERIES)[number];

const RESOLUTION_MS: Record<Resolution, number> = { minute: 60_000, hour: 3_600_000 };

type Buffer = {
  counts: Map<string, { series: string; labels: string; minute: number; count: number }>;
  timer: NodeJS.Timeout | null;
  flushing: Promise<void> | null;
  dropped: number;
};
const buffers = new WeakMap<Db, Buffer>();

function bufferOf(db: Db): Buffer {
  let buffer = buffers.get(db);
  if (!buffer) buffers.set(db, (buffer = { counts: new Map(), timer: null, flushing: null, dropped: 0 }));
  return buffer;
}

/** Labels as the stored line key: `name=value` pairs in name order. */
export const labelKey = (labels: Readonly<Record<string, string>>) =>
  Object.entries(labels)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join(',');

/** Count `n` of a series now, under its labels; written within FLUSH_AFTER_MS. Never throws. */
export function countEvent(
  platform: Pick<Platform, 'db' | 'clock' | 'log' | 'config'>,
  series: CounterSeries,
  labels: Readonly<Record<string, string>> = {},
  n = 1,
): void {
  if (!platform.config.operations.recording) return;
  const buffer = bufferOf(platform.db);
  const minute = Math.floor(platform.clock.now().getTime() / 60_000) * 60_000;
  const line = labelKey(labels);
  const key = `${minute}|${series}|${line}`;
  const entry = buffer.counts.get(key);
  if (entry) entry.count += n;
  else if (buffer.counts.size >= MAX_KEYS) buffer.dropped += n;
  else buffer.counts.set(key, { series, labels: line, minute, count: n });
  if (!buffer.timer) {
    buffer.timer = setTimeout(
      () => void flushCounters(platform).catch((err: Error) => platform.log.warn({ event: 'counters.flush_failed', err: err.message })),
      FLUSH_AFTER_MS,
    );
    buffer.timer.unref();
  }
}

/** Write the counts this process holds (one bulk write): by the timer, and when the platform closes. */
export async function flushCounters(platform: Pick<Platform, 'db' | 'log'>): Promise<void> {
  const buffer = bufferOf(platform.db);
  if (buffer.timer) clearTimeout(buffer.timer);
  buffer.timer = null;
  while (buffer.flushing) await buffer.flushing;
  if (buffer.dropped > 0) {
    platform.log.warn({ event: 'counters.dropped', counts: buffer.dropped, max_keys: MAX_KEYS });
    buffer.dropped = 0;
  }
  if (buffer.counts.size === 0) return;
  const batch = [...buffer.counts.values()];
  buffer.counts.clear();
  const ops = batch.flatMap((c) =>
    (['minute', 'hour'] as const).map((resolution) => {
      const at = Math.floor(c.minute / RESOLUTION_MS[resolution]) * RESOLUTION_MS[resolution];
      return {
        updateOne: {
          filter: { _id: `${resolution[0]}|${at}|${c.series}|${c.labels}` },
          update: { $inc: { count: c.count }, $setOnInsert: { series: c.series, labels: c.labels, resolution, at: new Date(at) } },
          upsert: true,
        },
      };
    }),
  );
  // Two counts of one line in one hour (two minutes) are one hour document: merge them first.
  const merged = new Map<string, (typeof ops)[number]>();
  for (const op of ops) {
    const seen = merged.get(op.updateOne.filter._id);
    if (seen) seen.updateOne.update.$inc.count += op.updateOne.update.$inc.count;
    else merged.set(op.updateOne.filter._id, op);
  }
  buffer.flushing = upsertCounters(runtimeCounters(platform.db), [...merged.values()]).finally(() => {
    buffer.flushing = null;
  });
  await buffer.flushing;
}

/** The resolution a window is read at: minutes up to six hours, hours beyond. */
export const resolutionFor = (windowMs: number): Resolution => (windowMs <= 6 * 3_600_000 ? 'minute' : 'hour');

/**
 * Each line's total of some series over [from, to), read at `resolution` (from is rounded down to
 * it): one indexed read of at most (series' lines × buckets) small documents.
 */
export async function sumCounters(
  db: Db,
  series: readonly CounterSeries[],
  from: Date,
  to: Date,
  resolution: Resolution = resolutionFor(to.getTime() - from.getTime()),
): Promise<Map<string, Map<string, number>>> {
  const start = new Date(Math.floor(from.getTime() / RESOLUTION_MS[resolution]) * RESOLUTION_MS[resolution]);
  const filter: Filter<CounterDocument> = { series: { $in: [...series] }, resolution, at: { $gte: start, $lt: to } };
  const out = new Map<string, Map<string, number>>();
  for await (const doc of runtimeCounters(db).find(filter, { projection: { series: 1, labels: 1, count: 1 } })) {
    const lines = out.get(doc.series) ?? new Map<string, number>();
    lines.set(doc.labels, (lines.get(doc.labels) ?? 0) + doc.count);
    out.set(doc.series, lines);
  }
  return out;
}

/** The documents of a series over a window at a resolution, oldest first (dashboards bucket them). */
export function counterDocuments(db: Db, series: readonly CounterSeries[], start: Date, to: Date, resolution: Resolution) {
  return runtimeCounters(db)
    .find({ series: { $in: [...series] }, resolution, at: { $gte: start, $lt: to } }, { projection: { series: 1, labels: 1, at: 1, count: 1 } })
    .sort({ at: 1 });
}

/** The `maintenance.sweep-counters` sweep: minutes older than MINUTES_KEPT_HOURS, hours older than HOURS_KEPT_DAYS. */
export async function sweepCounters(platform: Pick<Platform, 'db' | 'clock'>): Promise<number> {
  const now = platform.clock.now().getTime();
  const counters = runtimeCounters(platform.db);
  const [minutes, hours] = await Promise.all([
    counters.deleteMany({ resolution: 'minute', at: { $lt: new Date(now - MINUTES_KEPT_HOURS * 3_600_000) } }),
    counters.deleteMany({ resolution: 'hour', at: { $lt: new Date(now - HOURS_KEPT_DAYS * 86_400_000) } }),
  ]);
  return minutes.deletedCount + hours.deletedCount;
}

export const RESOLUTIONS = RESOLUTION_MS;
