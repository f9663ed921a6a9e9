import { DURATION_EDGES_MS, type ExecutionFigures } from './models.js';

/** Figures over a window of days, as the run log, the review checklist and the partner dashboard show them. */
export type ExecutionSummary = {
  window: { days: number; since: string };
  'app_function.execution.count': number;
  'app_function.execution.failed_securely': number;
  'app_function.execution.duration_ms': { total: number; mean: number | null; p95: number | null };
  failure_rate: number | null;
  failures: Record<string, number>;
};

/**
 * The duration a share of runs took at most, read off the histogram: the upper edge of the bucket
 * the share falls in (the last edge, 25 ms, for a run past it). Null without runs.
 */
export function percentileOf(buckets: ReadonlyMap<string, number>, count: number, share: number): number | null {
  if (count === 0) return null;
  const wanted = Math.ceil(count * share);
  let seen = 0;
  for (let i = 0; i <= DURATION_EDGES_MS.length; i++) {
    seen += buckets.get(`b${i}`) ?? 0;
    if (seen >= wanted) return DURATION_EDGES_MS[Math.min(i, DURATION_EDGES_MS.length - 1)]!;
  }
  return DURATION_EDGES_MS.at(-1)!;
}

/** Days' figures added up, over a window of `days` days since `since` (inclusive). */
export function summarise(docs: readonly Omit<ExecutionFigures, 'day'>[], window: { days: number; since: string }): ExecutionSummary {
  let count = 0;
  let failed = 0;
  let total = 0;
  const buckets = new Map<string, number>();
  const failures = new Map<string, number>();
  const add = (into: Map<string, number>, from: object | undefined) => {
    for (const [k, n] of Object.entries(from ?? {})) into.set(k, (into.get(k) ?? 0) + (typeof n === 'number' ? n : 0));
  };
  for (const d of docs) {
    count += d.count;
    failed += d.failed_securely;
    total += d.duration_ms_total;
    add(buckets, d.duration_buckets);
    add(failures, d.failures);
  }
  const round = (ms: number) => Math.round(ms * 1000) / 1000;
  return {
    window,
    'app_function.execution.count': count,
    'app_function.execution.failed_securely': failed,
    'app_function.execution.duration_ms': { total: round(total), mean: count ? round(total / count) : null, p95: percentileOf(buckets, count, 0.95) },
    failure_rate: count ? failed / count : null,
    failures: Object.fromEntries(failures),
  };
}
