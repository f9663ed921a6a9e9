import { ObjectId, type AnyBulkWriteOperation, type Db } from 'mongodb';
import { dayOf } from '../../clock.js';
import { countEvent } from '../../counters/index.js';
import { upsertCounters } from '../../db.js';
import type { Platform } from '../../platform.js';
import type { FunctionRun } from '../functions/engine.js';
import type { CheckoutFunctionTarget } from '../functions/targets.js';
import type { RegistrationDocument } from '../extensions/models.js';
import {
  DURATION_EDGES_MS,
  functionAppMetrics,
  functionMetrics,
  functionRuns,
  type FunctionAppMetricsDocument,
  type FunctionMetricsDocument,
  type FunctionRunDocument,
} from './models.js';

/** A run of one function at one checkout, as the runtime hands it over to be recorded. */
export type RunRecord = {
  registration: Pick<RegistrationDocument, '_id' | 'store_id' | 'installation_id' | 'app_id' | 'handle' | 'target'>;
  run: FunctionRun<CheckoutFunctionTarget>;
  at: Date;
  cart_id: string | null;
  customer_id: string | null;
};

/** The longest error message the run log keeps. */
const MAX_MESSAGE = 500;

/** The histogram bucket a duration falls in: `b<i>` for the first edge it is at most, `b9` past the last. */
export function bucketOf(durationMs: number): `b${number}` {
  const i = DURATION_EDGES_MS.findIndex((edge) => durationMs <= edge);
  return `b${i < 0 ? DURATION_EDGES_MS.length : i}`;
}

/** The `$inc` of one day's figures for a set of runs. */
function increments(runs: readonly RunRecord[]): Record<string, number> {
  const inc = new Map<string, number>();
  const add = (key: string, n: number) => inc.set(key, (inc.get(key) ?? 0) + n);
  add('failed_securely', 0); // present from the first run, failed or not
  for (const { run } of runs) {
    add('count', 1);
    add('duration_ms_total', run.durationMs);
    add(`duration_buckets.${bucketOf(run.durationMs)}`, 1);
    if (!run.ok) {
      add('failed_securely', 1);
      add(`failures.${run.code}`, 1);
    }
  }
  return Object.fromEntries(inc);
}

function groupBy(runs: readonly RunRecord[], key: (r: RunRecord) => string): Map<string, RunRecord[]> {
  const out = new Map<string, RunRecord[]>();
  for (const r of runs) out.set(key(r), [...(out.get(key(r)) ?? []), r]);
  return out;
}

/**
 * Write a flush's runs: the figures of spec 6.2 for each function and day and for each app and
 * day (counter upserts), and one run-log document per run. Three commands whatever the number of runs.
 */
async function writeRuns(db: Db, runs: readonly RunRecord[]): Promise<void> {
  const byFunction = groupBy(runs, (r) => `${r.registration._id.toHexString()}:${dayOf(r.at)}`);
  const functionOps: AnyBulkWriteOperation<FunctionMetricsDocument>[] = [...byFunction].map(([id, group]) => {
    const { registration: reg, at } = group[0]!;
    return {
      updateOne: {
        filter: { _id: id },
        update: {
          $inc: increments(group),
          $setOnInsert: {
            registration_id: reg._id,
            store_id: reg.store_id,
            installation_id: reg.installation_id,
            app_id: reg.app_id,
            handle: reg.handle,
            target: reg.target as FunctionMetricsDocument['target'],
            day: dayOf(at),
          },
        },
        upsert: true,
      },
    };
  });
  const byApp = groupBy(runs, (r) => `${r.registration.app_id.toHexString()}:${dayOf(r.at)}`);
  const appOps: AnyBulkWriteOperation<FunctionAppMetricsDocument>[] = [...byApp].map(([id, group]) => ({
    updateOne: {
      filter: { _id: id },
      update: { $inc: increments(group), $setOnInsert: { app_id: group[0]!.registration.app_id, day: dayOf(group[0]!.at) } },
      upsert: true,
    },
  }));
  const log: FunctionRunDocument[] = runs.map(({ registration: reg, run, at, cart_id, customer_id }) => ({
    _id: new ObjectId(),
    registration_id: reg._id,
    store_id: reg.store_id,
    installation_id: reg.installation_id,
    app_id: reg.app_id,
    handle: reg.handle,
    target: reg.target as FunctionRunDocument['target'],
    at,
    outcome: run.ok ? 'ok' : 'failed_securely',
    error_code: run.ok ? null : run.code,
    error_message: run.ok ? null : run.message.slice(0, MAX_MESSAGE),
    input_bytes: run.inputBytes,
    output_bytes: run.outputBytes,
    duration_ms: run.durationMs,
    operations: run.ok ? run.operations : null,
    cart_id,
    customer_id,
  }));
  await Promise.all([upsertCounters(functionMetrics(db), functionOps), upsertCounters(functionAppMetrics(db), appOps), functionRuns(db).insertMany(log)]);
}

/**
 * How long a process holds runs before it writes them, and how many make it write at once. A
 * process killed outright loses at most that last quarter second of figures and log.
 */
const FLUSH_AFTER_MS = 250;
const FLUSH_AT = 1000;

type Buffer = { runs: RunRecord[]; timer: NodeJS.Timeout | null; flushing: Promise<void> | null };
const buffers = new WeakMap<Db, Buffer>();

function bufferOf(db: Db): Buffer {
  let buffer = buffers.get(db);
  if (!buffer) buffers.set(db, (buffer = { runs: [], timer: null, flushing: null }));
  return buffer;
}

/**
 * Record one checkout's function runs (docs/extensions.md, Metrics): each process adds runs up
 * in memory and writes them together (three commands: the two day counters and the run log) at
 * most FLUSH_AFTER_MS after the first it has not written, at FLUSH_AT runs, before a read of the
 * figures or the log in this process, and when it closes. The checkout does not wait for it.
 */
export function recordRuns(platform: Pick<Platform, 'db' | 'log' | 'clock' | 'config'>, runs: RunRecord[]): void {
  if (runs.length === 0) return;
  for (const { registration, run } of runs) countEvent(platform, 'functions.runs', { target: registration.target, outcome: run.ok ? 'ok' : 'failed_securely' });
  const buffer = bufferOf(platform.db);
  buffer.runs.push(...runs);
  const flush = () => void flushFunctionRuns(platform).catch(() => undefined);
  if (buffer.runs.length >= FLUSH_AT) flush();
  else if (!buffer.timer) {
    buffer.timer = setTimeout(flush, FLUSH_AFTER_MS);
    buffer.timer.unref();
  }
}

/** Write the runs this process holds (before a read of the figures, on close, by the timer); a failure is logged, and the runs are dropped. */
export async function flushFunctionRuns(platform: Pick<Platform, 'db' | 'log'>): Promise<void> {
  const buffer = bufferOf(platform.db);
  if (buffer.timer) clearTimeout(buffer.timer);
  buffer.timer = null;
  while (buffer.flushing) await buffer.flushing;
  if (buffer.runs.length === 0) return;
  const runs = buffer.runs.splice(0);
  buffer.flushing = writeRuns(platform.db, runs)
    .catch((err: Error) => platform.log.warn({ event: 'app_function.runs_not_recorded', runs: runs.length, err: err.message }))
    .finally(() => {
      buffer.flushing = null;
    });
  await buffer.flushing;
}
