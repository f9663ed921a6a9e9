import type { ObjectId } from 'mongodb';
import { PlatformError, notFound } from '../../errors.js';
import type { MerchantPrincipal } from '../../http/context.js';
import { parseObjectId } from '../../ids.js';
import { afterCursor, findPage } from '../../pagination.js';
import type { Platform } from '../../platform.js';
import { CheckAppQuality } from '../quality/checks.js';
import { presentReview, type ReviewView } from './present.js';
import type { ReviewListQuery } from './schemas.js';
import { appVersions, apps, developers, type AppDocument, type AppVersionDocument, type DeveloperDocument } from '../partners/models.js';

/**
 * Operators review app versions (docs/apps.md, Review): a `submitted` version is approved (it
 * becomes the app's published version, the one before it `superseded`) or rejected with
 * reasons (the app becomes `rejected` only if nothing of it was ever published).
 */

async function developersOf(platform: Platform, ids: ObjectId[]): Promise<Map<string, DeveloperDocument>> {
  const docs = await developers(platform.db)
    .find({ _id: { $in: ids } })
    .toArray();
  return new Map(docs.map((d) => [d._id.toHexString(), d]));
}

export async function listReviews(platform: Platform, query: ReviewListQuery): Promise<{ items: ReviewView[]; nextCursor: string | null }> {
  const { items, nextCursor } = await findPage(appVersions(platform.db), { status: query.status, ...afterCursor(query) }, query.limit);
  const appDocs = await apps(platform.db)
    .find({ _id: { $in: items.map((v) => v.app_id) } })
    .toArray();
  const byId = new Map(appDocs.map((a) => [a._id.toHexString(), a]));
  const devs = await developersOf(
    platform,
    appDocs.map((a) => a.developer_id),
  );
  const views: ReviewView[] = [];
  for (const v of items) {
    const app = byId.get(v.app_id.toHexString());
    if (app) views.push(presentReview(v, app, devs.get(app.developer_id.toHexString()) ?? null, false));
  }
  return { items: views, nextCursor };
}

async function load(platform: Platform, versionId: string): Promise<{ version: AppVersionDocument; app: AppDocument }> {
  const id = parseObjectId(versionId);
  const version = id ? await appVersions(platform.db).findOne({ _id: id }) : null;
  const app = version ? await apps(platform.db).findOne({ _id: version.app_id }) : null;
  if (!version || !app) throw notFound('App version');
  return { version, app };
}

async function view(platform: Platform, version: AppVersionDocument, app: AppDocument): Promise<ReviewView> {
  return presentReview(version, app, await developers(platform.db).findOne({ _id: app.developer_id }), true);
}

export async function getReview(platform: Platform, versionId: string): Promise<ReviewView> {
  const { version, app } = await load(platform, versionId);
  return view(platform, version, app);
}

const notInReview = (v: AppVersionDocument) =>
  new PlatformError('conflict', 'version_not_in_review', `This version is ${v.status}; only a submitted version can be approved or rejected`);

/** Claim the decision on a submitted version (one conditional update: of two operators at once, one decides). */
async function decide(
  platform: Platform,
  version: AppVersionDocument,
  operator: MerchantPrincipal,
  set: Partial<AppVersionDocument>,
): Promise<AppVersionDocument> {
  const decided = await appVersions(platform.db).findOneAndUpdate(
    { _id: version._id, status: 'submitted' },
    { $set: { ...set, reviewed_at: platform.clock.now(), reviewed_by: parseObjectId(operator.merchantId) } },
    { returnDocument: 'after' },
  );
  if (!decided) throw notInReview((await appVersions(platform.db).findOne({ _id: version._id })) ?? version);
  return decided;
}

export async function approveVersion(platform: Platform, operator: MerchantPrincipal, versionId: string): Promise<ReviewView> {
  const { version, app } = await load(platform, versionId);
  const latest = version.number === app.version_count;
  // An approval whose publishing step was cut off (the process stopped between the two writes) may be given again to finish it.
  const unfinished = version.status === 'approved' && latest && !app.published_version_id?.equals(version._id);
  if (version.status !== 'submitted' && !unfinished) throw notInReview(version);
  if (!latest) throw new PlatformError('conflict', 'version_not_latest', 'A newer version of this app was submitted; only the latest version can be approved');
  const decided = unfinished ? version : await decide(platform, version, operator, { status: 'approved' });
  const now = platform.clock.now();
  const published = await apps(platform.db).findOneAndUpdate(
    { _id: app._id },
    { $set: { status: 'published', published_version_id: version._id, published: version.manifest, published_at: now, updated_at: now } },
    { returnDocument: 'after' },
  );
  // The version that served until now is retired.
  await appVersions(platform.db).updateMany({ app_id: app._id, status: 'approved', _id: { $ne: version._id } }, { $set: { status: 'superseded' } });
  platform.log.info({ event: 'apps.version_approved', app_id: app._id.toHexString(), version_id: versionId, operator_id: operator.merchantId });
  // The published version's quality checks (docs/extensions.md, Quality gates); the sweep asks again if this is lost.
  await platform.jobs.enqueue(CheckAppQuality, { app_id: app._id.toHexString() }).catch((err: Error) => {
    platform.log.warn({ event: 'apps.quality_check_not_enqueued', app_id: app._id.toHexString(), err: err.message });
  });
  return view(platform, decided, published ?? app);
}

export async function rejectVersion(platform: Platform, operator: MerchantPrincipal, versionId: string, reasons: string[]): Promise<ReviewView> {
  const { version, app } = await load(platform, versionId);
  if (version.status !== 'submitted') throw notInReview(version);
  const decided = await decide(platform, version, operator, { status: 'rejected', reasons });
  // A published app keeps serving its published version; one never published is rejected.
  const updated = await apps(platform.db).findOneAndUpdate(
    { _id: app._id, published_version_id: null, latest_version_id: version._id },
    { $set: { status: 'rejected', updated_at: platform.clock.now() } },
    { returnDocument: 'after' },
  );
  platform.log.info({ event: 'apps.version_rejected', app_id: app._id.toHexString(), version_id: versionId, operator_id: operator.merchantId });
  return view(platform, decided, updated ?? app);
}
