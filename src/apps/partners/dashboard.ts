import { z } from 'zod';
import { dayOf } from '../../clock.js';
import { appCallsByScope } from '../stats/api-calls.js';
import type { Platform } from '../../platform.js';
import { appDeliveryFigures } from '../../webhooks/index.js';
import { requireDeveloper } from './developers.js';
import { installDays } from '../stats/models.js';
import { presentRating } from '../ratings/present.js';
import { reviewChecklists } from '../quality/checklist.js';
import { appVersions, apps } from './models.js';

/**
 * The partner dashboard (spec 4.7; docs/apps.md, Partner dashboard): for each of the signed-in
 * partner's apps, installs (now, and by day over the window), review status, catalog rating,
 * webhook delivery success and failing endpoints, API calls by scope, and the app review
 * checklist's quality gates (docs/extensions.md). Every figure comes
 * from counters kept as things happen (stats/installs.ts, webhooks/deliveries/app-stats.ts,
 * stats/api-calls.ts), so a read costs a few small documents per app whatever the number of
 * installations, deliveries or calls (bench:dashboard measures it at 10,000 installations).
 */

export const MAX_DASHBOARD_DAYS = 90;
/** A partner's apps on one dashboard, at most (the oldest first). */
export const MAX_DASHBOARD_APPS = 50;

export const DashboardQuery = z.strictObject({ days: z.coerce.number().int().min(1).max(MAX_DASHBOARD_DAYS).default(30) });

/** The UTC days of the window, oldest first: `days` days ending today. */
function windowDays(now: Date, days: number): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, i) => dayOf(new Date(today - (days - 1 - i) * 86_400_000)));
}

export async function partnerDashboard(platform: Platform, merchantId: string, query: z.infer<typeof DashboardQuery>) {
  const developer = await requireDeveloper(platform, merchantId);
  const days = windowDays(platform.clock.now(), query.days);
  const since = days[0]!;
  const list = await apps(platform.db).find({ developer_id: developer._id }).sort({ _id: 1 }).limit(MAX_DASHBOARD_APPS).toArray();
  const ids = list.map((a) => a._id);
  const [versions, installs, deliveries, calls, checklists] = await Promise.all([
    appVersions(platform.db)
      .find({ _id: { $in: list.map((a) => a.latest_version_id) } })
      .toArray(),
    installDays(platform.db)
      .find({ app_id: { $in: ids }, day: { $gte: since } })
      .toArray(),
    appDeliveryFigures(platform, ids, since),
    appCallsByScope(platform.db, ids, since),
    reviewChecklists(platform, list),
  ]);
  const versionOf = new Map(versions.map((v) => [v._id.toHexString(), v]));
  return {
    window: { days: query.days, since, until: days.at(-1)! },
    developer: { id: developer._id.toHexString(), name: developer.name },
    apps: list.map((app) => {
      const id = app._id.toHexString();
      const latest = versionOf.get(app.latest_version_id.toHexString()) ?? null;
      const byDay = new Map(installs.filter((d) => d.app_id.equals(app._id)).map((d) => [d.day, d]));
      const series = days.map((day) => ({ day, installed: byDay.get(day)?.installed ?? 0, uninstalled: byDay.get(day)?.uninstalled ?? 0 }));
      const byScope = calls.get(id) ?? new Map<string, number>();
      return {
        id,
        handle: app.handle,
        name: app.published?.name ?? app.name,
        status: app.status,
        review: {
          published_at: app.published_at?.toISOString() ?? null,
          latest_version: latest
            ? {
                id: latest._id.toHexString(),
                number: latest.number,
                status: latest.status,
                reasons: latest.reasons,
                submitted_at: latest.submitted_at.toISOString(),
                reviewed_at: latest.reviewed_at?.toISOString() ?? null,
              }
            : null,
        },
        installs: {
          active: app.install_counts?.active ?? 0,
          uninstalled: app.install_counts?.uninstalled ?? 0,
          in_window: { installed: series.reduce((n, d) => n + d.installed, 0), uninstalled: series.reduce((n, d) => n + d.uninstalled, 0) },
          by_day: series,
        },
        rating: presentRating(app.rating_summary),
        webhooks: deliveries.get(id)!,
        api_calls: { total: [...byScope.values()].reduce((n, c) => n + c, 0), by_scope: Object.fromEntries(byScope) },
        quality: checklists.get(id)!,
      };
    }),
  };
}
