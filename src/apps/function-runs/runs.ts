import { ObjectId } from 'mongodb';
import { dayOf } from '../../clock.js';
import type { Platform } from '../../platform.js';
import { registrations } from '../extensions/store.js';
import { visibleInstallation, type RegistryCaller } from '../extensions/registry.js';
import { summarise, type ExecutionSummary } from './figures.js';
import { flushFunctionRuns } from './record.js';
import { functionMetrics, functionRuns, type FunctionRunDocument } from './store.js';

/** The newest runs of each function kept in the run log (the sweep deletes older ones). */
export const MAX_KEPT_RUNS = 100;
/** The days the run log's figures add up. */
export const METRICS_WINDOW_DAYS = 28;

/** The first UTC day of a window of `days` days ending today. */
export const windowStart = (now: Date, days: number) => dayOf(new Date(now.getTime() - (days - 1) * 86_400_000));

/** One run as the merchant sees it; the partner (the app's token) gets it without the shopper's cart and customer and the error's text. */
function presentRun(r: FunctionRunDocument, caller: RegistryCaller) {
  const common = {
    id: r._id.toHexString(),
    registration_id: r.registration_id.toHexString(),
    handle: r.handle,
    target: r.target,
    at: r.at.toISOString(),
    outcome: r.outcome,
    error_code: r.error_code,
    input_bytes: r.input_bytes,
    output_bytes: r.output_bytes,
    duration_ms: Math.round(r.duration_ms * 1000) / 1000,
    operations: r.operations,
  };
  return caller.kind === 'merchant' ? { ...common, error_message: r.error_message, cart_id: r.cart_id, customer_id: r.customer_id } : common;
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
    functions: rows.map((r) => ({
      registration_id: r._id.toHexString(),
      handle: r.handle,
      target: r.target,
      state: r.state,
      metrics: summarise(
        days.filter((d) => d.registration_id.equals(r._id)),
        { days: METRICS_WINDOW_DAYS, since },
      ),
    })),
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
