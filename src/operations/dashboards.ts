import { z } from 'zod';
import { COUNTER_SERIES, counterDocuments, RESOLUTIONS, resolutionFor, sumCounters } from '../counters/index.js';
import type { Platform } from '../platform.js';

/** The windows a dashboard shows, and the step of its points (docs/operations.md, Dashboards). */
const WINDOWS = {
  '15m': { ms: 15 * 60_000, stepMs: 60_000 },
  '1h': { ms: 3_600_000, stepMs: 60_000 },
  '6h': { ms: 6 * 3_600_000, stepMs: 5 * 60_000 },
  '24h': { ms: 24 * 3_600_000, stepMs: 3_600_000 },
  '48h': { ms: 48 * 3_600_000, stepMs: 3_600_000 },
  '7d': { ms: 7 * 86_400_000, stepMs: 6 * 3_600_000 },
  '30d': { ms: 30 * 86_400_000, stepMs: 86_400_000 },
} as const;

export const DashboardQuery = z
  .object({
    window: z.enum(Object.keys(WINDOWS) as [keyof typeof WINDOWS, ...(keyof typeof WINDOWS)[]]).default('1h'),
    /** Series to show, comma separated (all when absent). */
    series: z
      .string()
      .max(500)
      .transform((raw) => raw.split(',').map((s) => s.trim()))
      .pipe(z.array(z.enum(COUNTER_SERIES)).min(1))
      .optional(),
  })
  .strict();
export type DashboardQuery = z.output<typeof DashboardQuery>;

/** `name=value,…` back into an object. */
const labelsOf = (line: string): Record<string, string> =>
  line === '' ? {} : Object.fromEntries(line.split(',').map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));

/**
 * `GET /v1/operations/runtime/dashboards` (docs/operations.md, Dashboards): each series' lines
 * (one per set of labels) as points over the window, every step present (0 when nothing
 * happened), with each line's total. Read from the runtime counters (minutes up to six hours,
 * hours beyond): at most lines × buckets small documents, never the raw collections.
 */
export async function dashboards(platform: Platform, query: DashboardQuery) {
  const { ms, stepMs } = WINDOWS[query.window];
  const now = platform.clock.now().getTime();
  const resolution = resolutionFor(ms);
  // Whole steps: the window ends at the end of the current step, so the last point is the one filling now.
  const to = Math.floor(now / stepMs) * stepMs + stepMs;
  const from = to - ms;
  const steps = Math.round(ms / stepMs);
  const series = query.series ?? [...COUNTER_SERIES];
  const lines = new Map<string, Map<string, number[]>>(series.map((s) => [s, new Map()]));
  const start = new Date(Math.floor(from / RESOLUTIONS[resolution]) * RESOLUTIONS[resolution]);
  for await (const doc of counterDocuments(platform.db, series, start, new Date(to), resolution)) {
    const byLine = lines.get(doc.series);
    if (!byLine) continue;
    const points = byLine.get(doc.labels) ?? new Array<number>(steps).fill(0);
    const i = Math.max(0, Math.floor((doc.at.getTime() - from) / stepMs));
    if (i < steps) points[i] = (points[i] ?? 0) + doc.count;
    byLine.set(doc.labels, points);
  }
  return {
    window: query.window,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    step_seconds: stepMs / 1000,
    resolution,
    series: series.map((name) => ({
      name,
      lines: [...(lines.get(name) ?? new Map<string, number[]>())]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([line, points]) => ({
          labels: labelsOf(line),
          total: points.reduce((sum, n) => sum + n, 0),
          points: points.map((count, i) => ({ at: new Date(from + i * stepMs).toISOString(), count })),
        })),
    })),
  };
}

/** Webhook attempts over the last `minutes` and the share that failed (retried or given up), from the counters. */
export async function webhookFailureRate(platform: Pick<Platform, 'db' | 'clock'>, minutes: number) {
  const now = platform.clock.now();
  const sums = await sumCounters(platform.db, ['webhooks.attempts'], new Date(now.getTime() - minutes * 60_000), new Date(now.getTime() + 60_000), 'minute');
  const lines = sums.get('webhooks.attempts') ?? new Map<string, number>();
  const attempts = [...lines.values()].reduce((sum, n) => sum + n, 0);
  const failed = attempts - (lines.get('outcome=successful') ?? 0);
  return { minutes, attempts, failed, failure_rate: attempts === 0 ? 0 : Math.round((failed / attempts) * 1000) / 1000 };
}
