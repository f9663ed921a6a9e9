import { ObjectId } from 'mongodb';
import { z } from 'zod';
import { IdString } from '../../ids.js';
import { defineJob } from '../../job.js';
import { get } from '../../outbound/index.js';
import type { Platform } from '../../platform.js';
import { apps } from '../partners/models.js';
import { qualityChecks, type QualityCheckDocument } from './models.js';

/** How a theme app block is rendered for its check: the rendering domain's (given to the apps module in src/modules.ts: apps cannot import rendering). */
export type AppBlockCheck = (appHandle: string, blockHandle: string, config: Record<string, unknown>) => { ok: boolean; problems: string[] };

/** The privacy policy page's fetch: reaching it, and its whole answer. */
const PRIVACY_CONNECT_MS = 5_000;
const PRIVACY_TOTAL_MS = 10_000;
/** The most recently published apps one sweep looks at for a missing check, and how many checks it asks for at most. */
const SWEEP_SCAN = 1_000;
const SWEEP_ENQUEUE = 100;

/**
 * Run the quality checks of an app's published version (the `extensions` worker's
 * `extensions.check-app-quality`): every declared theme app block rendered by `checkBlock`, and
 * the privacy policy URL fetched with the outbound sender (its SSRF guard in staging and
 * production; redirects are not followed): it passes when it answers 200. The result replaces
 * the app's previous one. An app not published is skipped.
 */
export async function runQualityChecks(platform: Platform, appId: string, checkBlock: AppBlockCheck): Promise<'checked' | 'skipped'> {
  const app = await apps(platform.db).findOne({ _id: new ObjectId(appId), status: 'published' });
  if (!app?.published || !app.published_version_id) return 'skipped';
  const manifest = app.published;
  const blocks = manifest.extensions
    .filter((e) => e.kind === 'theme_app_block')
    .map((e) => ({ handle: e.handle, ...checkBlock(app.handle, e.handle, e.config) }));
  const url = manifest.privacy_policy_url;
  const fetched = await get(new URL(url), {
    headers: { 'User-Agent': 'Emporium-Quality-Check/1.0', Accept: 'text/html' },
    connectMs: PRIVACY_CONNECT_MS,
    totalMs: PRIVACY_TOTAL_MS,
    guard: platform.config,
  });
  const privacy = {
    url,
    ok: url.startsWith('https://') && fetched.status === 200,
    status: fetched.status,
    error: !url.startsWith('https://')
      ? 'must use https'
      : fetched.status === 200
        ? null
        : (fetched.error ?? `answered HTTP ${fetched.status}; it must answer 200`),
  };
  const doc: QualityCheckDocument = {
    _id: app._id,
    app_version_id: app.published_version_id,
    checked_at: platform.clock.now(),
    app_blocks: blocks,
    privacy_url: privacy,
  };
  await qualityChecks(platform.db).replaceOne({ _id: app._id }, doc, { upsert: true });
  platform.log.info({ event: 'apps.quality_checked', app_id: appId, app_blocks_failing: blocks.filter((b) => !b.ok).length, privacy_ok: privacy.ok });
  return 'checked';
}

/**
 * Renders an app's declared theme app blocks and fetches its privacy policy URL: the quality gates
 * the worker measures (docs/extensions.md, Quality gates). Declared beside the checks; enqueued
 * when a version is approved and by the sweep below. Its run is given the rendering domain's
 * check by the apps module (`given`).
 */
export const CheckAppQuality = defineJob({
  name: 'extensions.check-app-quality',
  group: 'extensions',
  concurrency: 4,
  payload: z.object({ app_id: IdString('app') }),
  run: async (platform, { app_id }, checkBlock: AppBlockCheck) => ({ app_id, outcome: await runQualityChecks(platform, app_id, checkBlock) }),
});

/**
 * The recurring backstop (`extensions.quality-sweep`): a check job for the published apps whose
 * checks are older than EXTENSIONS_QUALITY_MAX_AGE_MS (the checks' index by time), and for the
 * most recently published ones whose checks are missing or ran on an earlier version (a lost
 * job after an approval). SWEEP_ENQUEUE at most per run; resolves to how many it asked for.
 */
export async function sweepQualityChecks(platform: Platform): Promise<number> {
  const staleBefore = new Date(platform.clock.now().getTime() - platform.config.extensions.qualityMaxAgeMs);
  const [stale, recent] = await Promise.all([
    qualityChecks(platform.db)
      .find({ checked_at: { $lt: staleBefore } }, { projection: { _id: 1 } })
      .sort({ checked_at: 1 })
      .limit(SWEEP_ENQUEUE)
      .toArray(),
    apps(platform.db)
      .find({ status: 'published' }, { projection: { _id: 1, published_version_id: 1 } })
      .sort({ published_at: -1 })
      .limit(SWEEP_SCAN)
      .toArray(),
  ]);
  const checks = await qualityChecks(platform.db)
    .find({ _id: { $in: recent.map((a) => a._id) } }, { projection: { app_version_id: 1 } })
    .toArray();
  const checkedVersion = new Map(checks.map((c) => [c._id.toHexString(), c.app_version_id]));
  const unchecked = recent.filter((a) => a.published_version_id && !checkedVersion.get(a._id.toHexString())?.equals(a.published_version_id));
  const due = [...new Set([...unchecked.map((a) => a._id.toHexString()), ...stale.map((c) => c._id.toHexString())])].slice(0, SWEEP_ENQUEUE);
  for (const appId of due) await platform.jobs.enqueue(CheckAppQuality, { app_id: appId });
  return due.length;
}
