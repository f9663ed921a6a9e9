import { ObjectId } from 'mongodb';
import { z } from 'zod';
import { PlatformError, notFound } from '../../errors.js';
import { carrying } from '../../events/index.js';
import { IdString, parseObjectId } from '../../ids.js';
import { defineJob } from '../../job.js';
import { afterCursor, type Page, findPage } from '../../pagination.js';
import type { Platform } from '../../platform.js';
import { claimLease, settleLease } from '../../work/lease.js';
import { presentReview, type ReviewView } from '../present.js';
import { listingFields, themePackages, themeVersions, type CatalogMeta, type ThemeVersionDocument } from '../packages/models.js';
import { runCheck } from './checks/index.js';
import { themeReviews, type ReviewCheck, type ThemeReviewDocument } from './models.js';

/**
 * Review of an uploaded version (docs/themes.md, "Review"): the automated checks (checks/, one
 * per file) run by the `themes` worker, then an operator's decision.
 */

export async function enqueueReview(platform: Pick<Platform, 'jobs'>, reviewId: ObjectId): Promise<void> {
  await platform.jobs.enqueue(ReviewThemeVersion, { review_id: reviewId.toHexString() });
}

/**
 * Run a review's automated checks (the `themes.review` job, and the sweep for reviews whose
 * job or worker was lost): the review is taken under a lease, so two workers never check it at
 * once and a dead worker's review is taken again when its lease runs out. Each run computes
 * every check afresh from what is stored, so a re-run records the same results; the results and
 * `theme.review.completed` are written by one update conditional on the lease held.
 */
export async function runReview(platform: Platform, reviewId: string): Promise<'completed' | 'not_due'> {
  const id = parseObjectId(reviewId);
  if (!id) return 'not_due';
  const now = platform.clock.now();
  const owner = platform.process.id;
  const held = await claimLease(
    themeReviews(platform.db),
    { owner, ms: platform.config.themes.reviewLeaseMs },
    now,
    { _id: id, status: 'pending_checks' },
    { inc: { check_runs: 1 } },
  );
  if (!held) return 'not_due';
  platform.log.info({ event: 'themes.review_started', review_id: reviewId, run: held.check_runs });
  const version = await themeVersions(platform.db).findOne({ _id: held.resource_id });
  const checks: ReviewCheck[] = [];
  for (const check of held.checks) {
    const outcome = version ? await runCheck(platform, check.name, version) : { status: 'failed' as const, details: ['the version is missing'] };
    checks.push({ name: check.name, status: outcome.status, details: outcome.details.slice(0, 200), ran_at: platform.clock.now() });
  }
  const status = checks.some((c) => c.status === 'failed') ? 'checks_failed' : 'awaiting_review';
  const after: ThemeReviewDocument = { ...held, checks, status, updated_at: platform.clock.now() };
  const pending = [
    platform.events.pending(
      'theme.review.completed',
      held.event_store_id,
      { review: presentReview(after) },
      `theme.review.completed:${held._id.toHexString()}`,
    ),
  ];
  const settled = await settleLease(themeReviews(platform.db), held, owner, carrying({ $set: { checks, status, updated_at: after.updated_at } }, pending), {
    status: 'pending_checks',
  });
  if (!settled) return 'not_due';
  await platform.events.settle(themeReviews(platform.db), held._id, pending);
  platform.log.info({ event: 'themes.review_completed', review_id: reviewId, status });
  return 'completed';
}

/** Runs a review's automated checks (`runReview`); declared beside them, enqueued when a version is uploaded. */
export const ReviewThemeVersion = defineJob({
  name: 'themes.review',
  group: 'themes',
  concurrency: 2,
  payload: z.object({ review_id: IdString('review') }),
  run: async (platform, { review_id }) => ({ review_id, outcome: await runReview(platform, review_id) }),
});

/** Reviews whose checks are due but nobody holds (a lost job, a dead worker): the sweep runs them. */
export async function sweepReviews(platform: Platform): Promise<number> {
  const now = platform.clock.now();
  const due = await themeReviews(platform.db)
    .find({ status: 'pending_checks', $or: [{ lease_until: null }, { lease_until: { $lte: now } }] }, { projection: { _id: 1, created_at: 1, lease_until: 1 } })
    .limit(50)
    .toArray();
  let ran = 0;
  // A review just uploaded has its job queued: leave it a moment (the job takes it); a stranded one is taken here.
  const settle = new Date(now.getTime() - Math.min(platform.config.themes.sweepIntervalMs, 10_000));
  for (const r of due) {
    if (r.lease_until === null && r.created_at > settle) continue;
    if ((await runReview(platform, r._id.toHexString())) === 'completed') ran++;
  }
  return ran;
}

export async function listReviews(
  platform: Platform,
  q: Page & { status?: ThemeReviewDocument['status'] | undefined },
): Promise<{ items: ReviewView[]; nextCursor: string | null }> {
  const page = await findPage(themeReviews(platform.db), { ...(q.status ? { status: q.status } : {}), ...afterCursor(q) }, q.limit);
  return { items: page.items.map(presentReview), nextCursor: page.nextCursor };
}

async function findReview(platform: Platform, reviewId: string): Promise<ThemeReviewDocument> {
  const id = parseObjectId(reviewId);
  const doc = id ? await themeReviews(platform.db).findOne({ _id: id }) : null;
  if (!doc) throw notFound('Review');
  return doc;
}

export async function getReview(
  platform: Platform,
  reviewId: string,
): Promise<ReviewView & { version: { id: string; slug: string; version: string; version_number: number } | null }> {
  const doc = await findReview(platform, reviewId);
  const version = await themeVersions(platform.db).findOne({ _id: doc.resource_id }, { projection: { bundle: 0 } });
  return {
    ...presentReview(doc),
    version: version ? { id: version._id.toHexString(), slug: version.slug, version: version.version, version_number: version.version_number } : null,
  };
}

/**
 * Approve (an operator): only a review whose checks passed (`awaiting_review`). The review is
 * marked approved first, carrying `theme.published`; then the version is published (the one
 * published before becomes `superseded`) and the package made active with it. Approving an
 * approved review again finishes those steps if a crash left them undone, and changes nothing
 * otherwise.
 */
export async function approveReview(platform: Platform, operatorId: string, reviewId: string): Promise<ReviewView> {
  let doc = await findReview(platform, reviewId);
  const now = platform.clock.now();
  if (doc.status !== 'approved') {
    if (doc.status !== 'awaiting_review') throw notReady(doc);
    const version = await themeVersions(platform.db).findOne({ _id: doc.resource_id });
    if (!version) throw notFound('Theme version');
    const pending = [
      platform.events.pending(
        'theme.published',
        doc.event_store_id,
        {
          theme_package_id: doc.package_id.toHexString(),
          theme_version_id: version._id.toHexString(),
          slug: version.slug,
          version: version.version,
          version_number: version.version_number,
          review_record_id: doc._id.toHexString(),
        },
        `theme.published:${doc.package_id.toHexString()}:${version._id.toHexString()}`,
      ),
    ];
    const set = { status: 'approved' as const, reviewed_by: new ObjectId(operatorId), reviewed_at: now, updated_at: now };
    const written = await themeReviews(platform.db).updateOne({ _id: doc._id, status: 'awaiting_review' }, carrying({ $set: set }, pending));
    if (written.matchedCount === 0) return approveReview(platform, operatorId, reviewId);
    await platform.events.settle(themeReviews(platform.db), doc._id, pending);
    doc = { ...doc, ...set };
  }
  await publishVersion(platform, doc.package_id, doc.resource_id, now);
  platform.log.info({ event: 'themes.review_approved', review_id: reviewId });
  return presentReview(doc);
}

async function publishVersion(platform: Platform, packageId: ObjectId, versionId: ObjectId, now: Date): Promise<void> {
  const pkg = await themePackages(platform.db).findOne({ _id: packageId });
  if (!pkg) return;
  const incoming = await themeVersions(platform.db).findOne({ _id: versionId });
  // A newer published version is never replaced by an older approval.
  const current = pkg.published_version_id
    ? await themeVersions(platform.db).findOne({ _id: pkg.published_version_id }, { projection: { version_number: 1 } })
    : null;
  if (current && incoming && current.version_number > incoming.version_number) {
    await themeVersions(platform.db).updateOne(
      { _id: versionId, status: { $in: ['draft', 'in_review'] } },
      { $set: { status: 'superseded', updated_at: now } },
    );
    return;
  }
  await themeVersions(platform.db).updateOne({ _id: versionId }, { $set: { status: 'published', updated_at: now } });
  if (pkg.published_version_id && !pkg.published_version_id.equals(versionId)) {
    await themeVersions(platform.db).updateOne({ _id: pkg.published_version_id, status: 'published' }, { $set: { status: 'superseded', updated_at: now } });
  }
  if (!incoming) return;
  await themePackages(platform.db).updateOne(
    { _id: packageId },
    { $set: { status: 'active', published_version_id: versionId, catalog: catalogMeta(incoming, now), updated_at: now } },
  );
}

/** What the catalog shows of a version. */
export function catalogMeta(v: ThemeVersionDocument, at: Date): CatalogMeta {
  return {
    ...listingFields(v.bundle.package),
    version: v.version,
    version_number: v.version_number,
    engine: v.bundle.renderer.engine,
    templates: Object.keys(v.bundle.templates).sort(),
    published_at: at,
  };
}

function notReady(doc: ThemeReviewDocument): PlatformError {
  if (doc.status === 'pending_checks')
    return new PlatformError('conflict', 'review_checks_pending', 'The automated checks of this review have not finished yet');
  if (doc.status === 'checks_failed')
    return new PlatformError('conflict', 'review_checks_failed', 'The automated checks of this review failed; the author uploads a fixed version');
  return new PlatformError('conflict', 'review_decided', `This review is already ${doc.status}`);
}

/** Reject (an operator) with reasons: a review whose checks ran (passed or failed). The version is rejected; a package never published becomes `rejected`. */
export async function rejectReview(platform: Platform, operatorId: string, reviewId: string, reasons: string[]): Promise<ReviewView> {
  const doc = await findReview(platform, reviewId);
  if (doc.status !== 'awaiting_review' && doc.status !== 'checks_failed') throw notReady(doc);
  const now = platform.clock.now();
  const set = { status: 'rejected' as const, reasons, reviewed_by: new ObjectId(operatorId), reviewed_at: now, updated_at: now };
  const written = await themeReviews(platform.db).updateOne({ _id: doc._id, status: doc.status }, { $set: set });
  if (written.matchedCount === 0) return rejectReview(platform, operatorId, reviewId, reasons);
  await themeVersions(platform.db).updateOne({ _id: doc.resource_id }, { $set: { status: 'rejected', updated_at: now } });
  await themePackages(platform.db).updateOne({ _id: doc.package_id, published_version_id: null }, { $set: { status: 'rejected', updated_at: now } });
  platform.log.info({ event: 'themes.review_rejected', review_id: reviewId });
  return presentReview({ ...doc, ...set });
}
