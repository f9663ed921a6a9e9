import type { Platform } from '../../platform.js';
import { summarise } from '../function-runs/figures.js';
import { flushFunctionRuns } from '../function-runs/record.js';
import { METRICS_WINDOW_DAYS, windowStart } from '../function-runs/runs.js';
import { functionAppMetrics } from '../function-runs/models.js';
import type { AppDocument } from '../partners/models.js';
import { presentRating } from '../ratings/present.js';
import { qualityChecks, type QualityCheckDocument } from './models.js';

/**
 * The quality gates' thresholds (docs/extensions.md, Quality gates), from Shopify's "Built for
 * Shopify" criteria where they have one: 50 net installs, 5 reviews, a 4.0 rating, at least 1,000
 * checkout requests over 28 days with at most 0.1 % failing. The p95 differs: Shopify's 500 ms is
 * for a partner's server on the network; a Checkout Function runs inside the platform, stopped
 * at 5 ms, so ours is 2 ms.
 */
export const QUALITY_THRESHOLDS = {
  performance: { window_days: METRICS_WINDOW_DAYS, min_runs: 1000, p95_ms: 2, failure_rate: 0.001 },
  reviews: { min_reviews: 5, min_rating: 4 },
  installs: { min_net_installs: 50 },
} as const;

export type GateStatus = 'pass' | 'fail' | 'not_enough_data';
export type QualityGate = {
  check: 'performance' | 'reviews' | 'installs' | 'app_blocks' | 'privacy_url';
  status: GateStatus;
  /** False when the app has nothing the check measures (no Checkout Function, no app block): it passes. */
  applies: boolean;
  measured: Record<string, unknown>;
  threshold: Record<string, unknown>;
  /** What fails, or why there is not enough data. */
  details: string[];
};

/** The app review checklist (spec 2.3): the quality gates, and the worst of their statuses. */
export type ReviewChecklist = { status: GateStatus; checks: QualityGate[] };

/**
 * The review checklists of apps, by app id: two reads whatever the number of apps (the apps'
 * daily function figures over the window, and the worker's checks).
 */
export async function reviewChecklists(platform: Platform, list: readonly AppDocument[]): Promise<Map<string, ReviewChecklist>> {
  await flushFunctionRuns(platform); // what this process still holds
  const since = windowStart(platform.clock.now(), METRICS_WINDOW_DAYS);
  const ids = list.map((a) => a._id);
  const [days, checks] = await Promise.all([
    functionAppMetrics(platform.db)
      .find({ app_id: { $in: ids }, day: { $gte: since } })
      .toArray(),
    qualityChecks(platform.db)
      .find({ _id: { $in: ids } })
      .toArray(),
  ]);
  return new Map(
    list.map((app) => {
      const check = checks.find((c) => c._id.equals(app._id)) ?? null;
      const figures = summarise(
        days.filter((d) => d.app_id.equals(app._id)),
        { days: METRICS_WINDOW_DAYS, since },
      );
      const gates = [
        performanceGate(
          (app.published?.extensions ?? []).some((e) => e.kind === 'checkout_function'),
          figures,
        ),
        reviewsGate(app),
        installsGate(app),
        appBlocksGate(app, check),
        privacyGate(app, check),
      ];
      const status: GateStatus = gates.some((g) => g.status === 'fail')
        ? 'fail'
        : gates.some((g) => g.status === 'not_enough_data')
          ? 'not_enough_data'
          : 'pass';
      return [app._id.toHexString(), { status, checks: gates }];
    }),
  );
}

function performanceGate(applies: boolean, figures: ReturnType<typeof summarise>): QualityGate {
  const t = QUALITY_THRESHOLDS.performance;
  const runs = figures['app_function.execution.count'];
  const p95 = figures['app_function.execution.duration_ms'].p95;
  const measured = { runs, p95_ms: p95, failure_rate: figures.failure_rate, since: figures.window.since };
  const gate = { check: 'performance' as const, applies, measured, threshold: { ...t } };
  if (!applies) return { ...gate, status: 'pass', details: ['the app declares no Checkout Function'] };
  if (runs < t.min_runs) return { ...gate, status: 'not_enough_data', details: [`${runs} runs in ${t.window_days} days; the gate needs ${t.min_runs}`] };
  const details = [
    ...(p95 !== null && p95 > t.p95_ms ? [`p95 duration ${p95} ms is over ${t.p95_ms} ms`] : []),
    ...(figures.failure_rate !== null && figures.failure_rate > t.failure_rate
      ? [`failure rate ${(figures.failure_rate * 100).toFixed(2)} % is over ${t.failure_rate * 100} %`]
      : []),
  ];
  return { ...gate, status: details.length ? 'fail' : 'pass', details };
}

function reviewsGate(app: AppDocument): QualityGate {
  const t = QUALITY_THRESHOLDS.reviews;
  const rating = presentRating(app.rating_summary);
  const gate = { check: 'reviews' as const, applies: true, measured: { reviews: rating.count, rating: rating.average }, threshold: { ...t } };
  if (rating.count < t.min_reviews) return { ...gate, status: 'not_enough_data', details: [`${rating.count} reviews; the gate needs ${t.min_reviews}`] };
  return rating.average! >= t.min_rating
    ? { ...gate, status: 'pass', details: [] }
    : { ...gate, status: 'fail', details: [`rating ${rating.average} is under ${t.min_rating}`] };
}

function installsGate(app: AppDocument): QualityGate {
  const t = QUALITY_THRESHOLDS.installs;
  const net = app.install_counts?.active ?? 0;
  const gate = { check: 'installs' as const, applies: true, measured: { net_installs: net }, threshold: { ...t } };
  return net >= t.min_net_installs
    ? { ...gate, status: 'pass', details: [] }
    : { ...gate, status: 'fail', details: [`${net} net installs (active installations); the gate needs ${t.min_net_installs}`] };
}

/** The worker's check counts only for the version published now. */
const currentCheck = (app: AppDocument, check: QualityCheckDocument | null) =>
  check && app.published_version_id && check.app_version_id.equals(app.published_version_id) ? check : null;

function appBlocksGate(app: AppDocument, stored: QualityCheckDocument | null): QualityGate {
  const declared = (app.published?.extensions ?? []).filter((e) => e.kind === 'theme_app_block').map((e) => e.handle);
  const check = currentCheck(app, stored);
  const failing = check?.app_blocks.filter((b) => !b.ok) ?? [];
  const gate = {
    check: 'app_blocks' as const,
    applies: declared.length > 0,
    measured: {
      declared: declared.length,
      rendering: check ? check.app_blocks.length - failing.length : null,
      checked_at: check?.checked_at.toISOString() ?? null,
    },
    threshold: { all_render: true },
  };
  if (declared.length === 0) return { ...gate, status: 'pass', details: ['the app declares no theme app block'] };
  if (!check) return { ...gate, status: 'not_enough_data', details: ['the extensions worker has not rendered this version’s blocks yet'] };
  return { ...gate, status: failing.length ? 'fail' : 'pass', details: failing.flatMap((b) => b.problems.map((p) => `${b.handle}: ${p}`)) };
}

function privacyGate(app: AppDocument, stored: QualityCheckDocument | null): QualityGate {
  const url = app.published?.privacy_policy_url ?? null;
  const check = currentCheck(app, stored);
  const result = check && check.privacy_url.url === url ? check.privacy_url : null;
  const gate = {
    check: 'privacy_url' as const,
    applies: true,
    measured: { url, https: url?.startsWith('https://') ?? false, status: result?.status ?? null, checked_at: result ? check!.checked_at.toISOString() : null },
    threshold: { https: true, status: 200 },
  };
  if (!result) return { ...gate, status: 'not_enough_data', details: ['the extensions worker has not fetched this URL yet'] };
  return { ...gate, status: result.ok ? 'pass' : 'fail', details: result.error ? [result.error] : [] };
}
