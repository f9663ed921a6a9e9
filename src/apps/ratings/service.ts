import { ObjectId, type Filter } from 'mongodb';
import { isDuplicateKeyError } from '../../db.js';
import { PlatformError, notFound } from '../../errors.js';
import { parseObjectId } from '../../ids.js';
import { findPage } from '../../pagination.js';
import type { Platform } from '../../platform.js';
import { findPublishedApp } from '../app-store/service.js';
import { requireDeveloper } from '../partners/developers.js';
import { presentAppRating, presentOwnAppRating, type AppRatingView, type OwnAppRatingView } from './present.js';
import type { AppRatingReplyBody, AppRatingsQuery, CreateAppRatingBody, UpdateAppRatingBody } from './schemas.js';
import { apps, type AppDocument } from '../partners/models.js';
import { appRatings, type AppRatingDocument } from './models.js';
import { installations } from '../installations/models.js';
import { findOwnApp } from '../partners/submissions.js';

/**
 * Catalog reviews (docs/apps.md, Catalog reviews of apps): a merchant reviews an app once per store that
 * has or had it installed; the app's partner replies once; the app document counts the ratings
 * (`rating_summary`) so the catalog shows them without another read.
 *
 * The count follows each review write: the review is written first (an insert the unique
 * (app_id, store_id) index decides, or a write conditional on the version read), and only when
 * that write took effect is its difference added to the app with $inc. Concurrent writes thus
 * each add exactly their own change.
 */

/** Whether the calling merchant may act for a store (the route's store access). */
export type StoreCheck = (storeId: string) => Promise<boolean>;

/** Reads and conditional writes of one change before 409 review_busy. */
const WRITE_ATTEMPTS = 5;

const storeForbidden = () => new PlatformError('not_allowed', 'store_forbidden', 'You do not have access to this store');
const reviewBusy = () => new PlatformError('conflict', 'review_busy', 'The review kept changing while this change was applied; try again');

async function requirePublishedApp(platform: Platform, appId: string): Promise<AppDocument> {
  const app = await findPublishedApp(platform, appId);
  if (!app) throw notFound('App');
  return app;
}

/** Newest first (`_id` descending), optionally one rating; the (app_id, _id) or (app_id, rating, _id) index serves it. */
async function pageOfReviews(platform: Platform, appId: ObjectId, query: AppRatingsQuery): Promise<{ items: AppRatingView[]; nextCursor: string | null }> {
  const filter: Filter<AppRatingDocument> = { app_id: appId };
  if (query.rating !== undefined) filter.rating = query.rating;
  if (query.cursor) filter._id = { $lt: query.cursor };
  const { items, nextCursor } = await findPage(appRatings(platform.db), filter, query.limit, -1);
  return { items: items.map(presentAppRating), nextCursor };
}

/** GET /v1/app-store/apps/:id/reviews: a published app's reviews, for anyone. */
export async function listAppRatings(platform: Platform, appId: string, query: AppRatingsQuery) {
  const app = await requirePublishedApp(platform, appId);
  return pageOfReviews(platform, app._id, query);
}

/** GET /v1/app-store/developers/apps/:id/reviews: the partner's own app's reviews. */
export async function listDeveloperAppReviews(platform: Platform, merchantId: string, appId: string, query: AppRatingsQuery) {
  await requireDeveloper(platform, merchantId);
  const app = await findOwnApp(platform, merchantId, appId);
  return pageOfReviews(platform, app._id, query);
}

/**
 * What a review write changes in the app's `rating_summary`, as $inc terms: a rating `removed`
 * (edit, delete) and one `added` (create, edit). Null when nothing changes (an edit that keeps
 * the rating).
 */
function summaryChange(removed: number | null, added: number | null): Record<string, number> | null {
  const inc = new Map<string, number>();
  const add = (key: string, n: number) => inc.set(key, (inc.get(key) ?? 0) + n);
  for (const [rating, sign] of [
    [removed, -1],
    [added, 1],
  ] as const) {
    if (rating === null) continue;
    add('rating_summary.count', sign);
    add('rating_summary.sum', sign * rating);
    add(`rating_summary.distribution.${rating}`, sign);
  }
  const terms = [...inc].filter(([, n]) => n !== 0);
  return terms.length > 0 ? Object.fromEntries(terms) : null;
}

async function countRatings(platform: Platform, appId: ObjectId, removed: number | null, added: number | null): Promise<void> {
  const inc = summaryChange(removed, added);
  if (inc) await apps(platform.db).updateOne({ _id: appId }, { $inc: inc });
}

/**
 * A merchant's review of a published app for one of their stores: the store must have (or have
 * had) the app installed, and the app must not be the merchant's own. Once per store: a second
 * review is 409 `review_exists`, naming the first.
 */
export async function createAppRating(
  platform: Platform,
  merchantId: string,
  mayActOn: StoreCheck,
  appId: string,
  input: CreateAppRatingBody,
): Promise<OwnAppRatingView> {
  const app = await requirePublishedApp(platform, appId);
  if (app.merchant_id.equals(merchantId)) throw new PlatformError('not_allowed', 'review_own_app', 'A partner cannot review their own app');
  if (!(await mayActOn(input.store_id))) throw storeForbidden();
  const storeId = new ObjectId(input.store_id);
  if (!(await installations(platform.db).findOne({ app_id: app._id, store_id: storeId }, { projection: { _id: 1 } }))) {
    throw new PlatformError('not_allowed', 'review_not_eligible', 'Only a store that has or had this app installed can review it');
  }
  const now = platform.clock.now();
  const doc: AppRatingDocument = {
    _id: new ObjectId(),
    app_id: app._id,
    store_id: storeId,
    merchant_id: new ObjectId(merchantId),
    rating: input.rating,
    title: input.title,
    body: input.body,
    reply: null,
    version: 1,
    created_at: now,
    updated_at: now,
  };
  try {
    await appRatings(platform.db).insertOne(doc);
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
    const existing = await appRatings(platform.db).findOne({ app_id: app._id, store_id: storeId }, { projection: { _id: 1 } });
    const id = existing?._id.toHexString() ?? 'unknown';
    throw new PlatformError('conflict', 'review_exists', `This store has already reviewed this app (review ${id}): edit that review instead`, {
      details: [`review_id: ${id}`],
    });
  }
  await countRatings(platform, app._id, null, doc.rating);
  platform.log.info({ event: 'apps.catalog_review_created', app_id: app._id.toHexString(), review_id: doc._id.toHexString(), store_id: input.store_id });
  return presentOwnAppRating(doc);
}

async function loadReview(platform: Platform, appId: ObjectId, reviewId: string): Promise<AppRatingDocument> {
  const id = parseObjectId(reviewId);
  const doc = id ? await appRatings(platform.db).findOne({ _id: id, app_id: appId }) : null;
  if (!doc) throw notFound('Review');
  return doc;
}

/**
 * One change of a review: read it, let `change` check the caller and decide the fields to set
 * from what it read (it may throw), then write on the condition that the review is still the
 * version read. A change that loses a race reads again (409 review_busy after WRITE_ATTEMPTS).
 */
async function changeReview(
  platform: Platform,
  appId: ObjectId,
  reviewId: string,
  change: (current: AppRatingDocument) => Promise<Partial<AppRatingDocument>>,
): Promise<{ before: AppRatingDocument; after: AppRatingDocument }> {
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    const before = await loadReview(platform, appId, reviewId);
    const set = await change(before);
    const result = await appRatings(platform.db).updateOne({ _id: before._id, app_id: appId, version: before.version }, { $set: set, $inc: { version: 1 } });
    if (result.matchedCount === 1) return { before, after: { ...before, ...set, version: before.version + 1 } };
  }
  throw reviewBusy();
}

/** The author edits rating, title or body: any merchant with access to the review's store. */
export async function updateAppRating(
  platform: Platform,
  mayActOn: StoreCheck,
  appId: string,
  reviewId: string,
  input: UpdateAppRatingBody,
): Promise<OwnAppRatingView> {
  const app = await requirePublishedApp(platform, appId);
  const { before, after } = await changeReview(platform, app._id, reviewId, async (current) => {
    if (!(await mayActOn(current.store_id.toHexString()))) throw storeForbidden();
    return {
      ...(input.rating !== undefined ? { rating: input.rating } : {}),
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.body !== undefined ? { body: input.body } : {}),
      updated_at: platform.clock.now(),
    };
  });
  await countRatings(platform, app._id, before.rating, after.rating);
  return presentOwnAppRating(after);
}

/** The author withdraws the review (and its reply); the store may then review the app again. */
export async function deleteAppRating(platform: Platform, mayActOn: StoreCheck, appId: string, reviewId: string): Promise<void> {
  const app = await requirePublishedApp(platform, appId);
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    // 404 once it is gone (also when a concurrent delete took it between attempts).
    const current = await loadReview(platform, app._id, reviewId);
    if (!(await mayActOn(current.store_id.toHexString()))) throw storeForbidden();
    const result = await appRatings(platform.db).deleteOne({ _id: current._id, app_id: app._id, version: current.version });
    if (result.deletedCount === 1) {
      await countRatings(platform, app._id, current.rating, null);
      platform.log.info({ event: 'apps.catalog_review_deleted', app_id: app._id.toHexString(), review_id: current._id.toHexString() });
      return;
    }
  }
  throw reviewBusy();
}

/** The partner's reply to a review of their app, as `write` makes it of the review (a refusal it throws is answered as is). */
async function changeReply(
  platform: Platform,
  merchantId: string,
  appId: string,
  reviewId: string,
  write: (current: AppRatingDocument, developerId: ObjectId) => NonNullable<AppRatingDocument['reply']>,
): Promise<AppRatingView> {
  const developer = await requireDeveloper(platform, merchantId);
  const app = await findOwnApp(platform, merchantId, appId);
  const { after } = await changeReview(platform, app._id, reviewId, async (current) => ({ reply: write(current, developer._id) }));
  return presentAppRating(after);
}

/** The partner's one reply to a review of their app: 409 `reply_exists` when it has one (edit it with PATCH). */
export const replyToAppRating = (platform: Platform, merchantId: string, appId: string, reviewId: string, input: AppRatingReplyBody) =>
  changeReply(platform, merchantId, appId, reviewId, (current, developerId) => {
    if (current.reply) throw new PlatformError('conflict', 'reply_exists', 'This review already has your reply: edit it with PATCH');
    const now = platform.clock.now();
    return { body: input.body, developer_id: developerId, created_at: now, updated_at: now };
  });

/** The partner edits their reply: 404 `reply_not_found` when there is none yet. */
export const updateAppRatingReply = (platform: Platform, merchantId: string, appId: string, reviewId: string, input: AppRatingReplyBody) =>
  changeReply(platform, merchantId, appId, reviewId, (current) => {
    if (!current.reply) throw new PlatformError('not_found', 'reply_not_found', 'This review has no reply yet: reply with POST');
    return { ...current.reply, body: input.body, updated_at: platform.clock.now() };
  });
