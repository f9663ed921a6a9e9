import { ObjectId } from 'mongodb';
import { dayOf } from '../../clock.js';
import type { Platform } from '../../platform.js';
import { registrations } from '../extensions/models.js';
import { visibleInstallation, type RegistryCaller } from '../extensions/registry.js';
import { summarise, type ExecutionSummary } from './figures.js';
import { flushFunctionRuns } from './record.js';
import { DURATION_EDGES_MS, functionMetrics, functionRuns, type FunctionRunDocument } from './models.js';

/** The newest runs of each function kept in the run log (the sweep deletes older ones). */
export const MAX_KEPT_RUNS = 100;
/** The days the run log's figures add up. */
export const METRICS_WINDOW_DAYS = 28;

/** The first UTC day of a window of `days` days ending today. */
export const windowStart = (now: Date, days: number) => dayOf(new Date(now.getTime() - (days - 1) * 86_400_000));

/** The first of first × base^k at least `value`. */
const stepUp = (value: number, first: number, base: number) => {
  let step = first;
  while (step < value) step *= base;
  return step;
};
/** A run's duration to the µs, as the merchant reads it (and the app's step is taken from). */
const durationOf = (r: FunctionRunDocument) => Math.round(r.duration_ms * 1000) / 1000;
/** The upper edge of the duration histogram's bucket `ms` falls in (the last edge past them all: 25 means 25 ms or more). */
const durationStep = (ms: number) => DURATION_EDGES_MS.find((edge) => ms <= edge) ?? DURATION_EDGES_MS.at(-1)!;

/**
 * A run's measures as the app sees them: each rounded up to one of a few steps. A program decides
 * how many operations it uses and how long it runs, and its input decides the sizes, so exact
 * figures would let the program spell the shopper's data out to its partner, a few bits a run
 * (issue 36); steps leave it the few bits the outcome already shows. The merchant, whose data it
 * is, sees them exact.
 */
function measuresForApp(r: FunctionRunDocument) {
  return {
    input_bytes: stepUp(r.input_bytes, 256, 4),
    output_bytes: stepUp(r.output_bytes, 256, 4),
    duration_ms: durationStep(durationOf(r)),
    operations: r.operations === null ? null : stepUp(r.operations, 10, 10),
  };
}

/** One run as the merchant sees it; the partner (the app's token) gets it without the shopper's cart and customer and the error's text, its measures in steps. */
function presentRun(r: FunctionRunDocument, caller: RegistryCaller) {
  const common = {
    id: r._id.toHexString(),
    registration_id: r.registration_id.toHexString(),
    handle: r.handle,
    target: r.target,
    at: r.at.toISOString(),
    outcome: r.outcome,
    error_code: r.error_code,
  };
  if (caller.kind !== 'merchant') return { ...common, ...measuresForApp(r) };
  return {
    ...common,
    input_bytes: r.input_bytes,
    output_bytes: r.output_bytes,
    duration_ms: durationOf(r),
    operations: r.operations,
    error_message: r.error_message,
    cart_id: r.cart_id,
    customer_id: r.customer_id,
  };
}

/** A function's figures as the app sees them: the durations' total in whole ms and their mean in the histogram's steps (the p95 is one already), for the reason above. */
function metricsForApp(metrics: ExecutionSummary): ExecutionSummary {
  const durations = metrics['app_function.execution.duration_ms'];
  return {
    ...metrics,
    'app_function.execution.duration_ms': {
      total: Math.ceil(durations.total),
      mean: durations.mean === null ? null : durationStep(durations.mean),
      p95: durations.p95,
    },
  };
}

export type FunctionRunLog = {
  functions: { registration_id: string; handle: string; target: string; state: string; metrics: ExecutionSummary }[];
  runs: ReturnType<typeof presentRun>[];
};

/**
 * `GET /v1/app-store/installations/:id/functions/runs` (docs/extensions.md, The run log): the
 * installation's Checkout Functions with their figures over the last METRICS_WINDOW_DAYS days,
 * and their newest runs (of one function with `registration_id`), newest first.
 */
export async function functionRunLog(
  platform: Platform,
  storeId: string,
  installationId: string,
  caller: RegistryCaller,
  query: { registration_id?: string | undefined; limit: number },
): Promise<FunctionRunLog> {
  const installation = await visibleInstallation(platform, storeId, installationId, caller);
  await flushFunctionRuns(platform); // what this process still holds, so a read sees its own runs
  const since = windowStart(platform.clock.now(), METRICS_WINDOW_DAYS);
  const [rows, days] = await Promise.all([
    registrations(platform.db)
      .find({ installation_id: installation._id, grant_id: installation.grant_id, kind: 'checkout_function' })
      .sort({ _id: 1 })
      .toArray(),
    functionMetrics(platform.db)
      .find({ installation_id: installation._id, day: { $gte: since } })
      .toArray(),
  ]);
  const only = query.registration_id ? new ObjectId(query.registration_id) : null;
  const runs = await functionRuns(platform.db)
    .find(only ? { registration_id: only, installation_id: installation._id } : { installation_id: installation._id })
    .sort({ _id: -1 })
    .limit(query.limit)
    .toArray();
  return {
    functions: rows.map((r) => {
      const metrics = summarise(
        days.filter((d) => d.registration_id.equals(r._id)),
        { days: METRICS_WINDOW_DAYS, since },
      );
      return {
        registration_id: r._id.toHexString(),
        handle: r.handle,
        target: r.target,
        state: r.state,
        metrics: caller.kind === 'merchant' ? metrics : metricsForApp(metrics),
      };
    }),
    runs: runs.map((r) => presentRun(r, caller)),
  };
}

/**
 * Maintenance: the run log keeps each function's newest MAX_KEPT_RUNS runs. The functions that
 * ran today or yesterday (their day figures say so) have what is older deleted, `batch` functions
 * a run at most. Resolves to the runs deleted.
 */
export async function trimFunctionRuns(platform: Platform, batch = 500): Promise<number> {
  const now = platform.clock.now();
  const recent = await functionMetrics(platform.db)
    .find({ day: { $gte: dayOf(new Date(now.getTime() - 86_400_000)) } }, { projection: { registration_id: 1 } })
    .limit(batch * 2)
    .toArray();
  const ids = [...new Set(recent.map((d) => d.registration_id.toHexString()))].slice(0, batch).map((id) => new ObjectId(id));
  let deleted = 0;
  for (const id of ids) {
    const [oldestKept] = await functionRuns(platform.db)
      .find({ registration_id: id }, { projection: { _id: 1 } })
      .sort({ _id: -1 })
      .skip(MAX_KEPT_RUNS - 1)
      .limit(1)
      .toArray();
    if (!oldestKept) continue;
    deleted += (await functionRuns(platform.db).deleteMany({ registration_id: id, _id: { $lt: oldestKept._id } })).deletedCount;
  }
  return deleted;
}
