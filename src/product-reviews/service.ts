import { ObjectId, type Filter } from 'mongodb';
import { productExists } from '../catalog/index.js';
import { getCustomer } from '../customers/index.js';
import { customerBoughtProduct } from '../orders/index.js';
import { PlatformError, invalidInput, notFound, type InputIssue } from '../errors.js';
import { afterCursor, findPage } from '../pagination.js';
import type { Platform } from '../platform.js';
import { deleteAsRead } from '../deleting.js';
import { presentReview, type RatingSummary, type ReviewView } from './present.js';
import type { CreateReviewBody, CustomerReviewBody, ListReviewsQuery, ReplyBody, UpdateReviewBody } from './schemas.js';
import { REVIEWS, reviews, type ReviewDocument } from './models.js';
import { carrying, type PendingEvent } from '../events/index.js';
import { parseObjectId } from '../ids.js';

/** The product and customer a new review names must be this store's: otherwise 400, nothing written. */
async function checkReferences(platform: Platform, storeId: string, input: CreateReviewBody): Promise<void> {
  const problems: InputIssue[] = [];
  if (!(await productExists(platform, storeId, input.product_id))) problems.push({ path: 'product_id', message: 'is not a product of this store' });
  if (input.customer_id !== null) {
    try {
      await getCustomer(platform, storeId, input.customer_id);
    } catch (err) {
      if (!(err instanceof PlatformError && err.kind === 'not_found')) throw err;
      problems.push({ path: 'customer_id', message: 'is not a customer of this store' });
    }
  }
  if (problems.length > 0) throw invalidInput(problems);
}

export async function createReview(platform: Platform, storeId: string, input: CreateReviewBody): Promise<ReviewView> {
  await checkReferences(platform, storeId, input);
  const now = platform.clock.now();
  const doc: ReviewDocument = {
    _id: new ObjectId(),
    store_id: new ObjectId(storeId),
    product_id: new ObjectId(input.product_id),
    customer_id: input.customer_id === null ? null : new ObjectId(input.customer_id),
    author_name: input.author_name,
    author_email: input.author_email,
    rating: input.rating,
    title: input.title,
    body: input.body,
    status: input.status,
    reply: null,
    version: 1,
    created_at: now,
    updated_at: now,
  };
  const view = presentReview(doc);
  const pending = [platform.events.pending('review.created', doc.store_id, { review: view }, `review.created:${view.id}`)];
  await platform.events.insert(reviews(platform.db), doc, pending);
  return view;
}

export async function listReviews(platform: Platform, storeId: string, query: ListReviewsQuery): Promise<{ items: ReviewView[]; nextCursor: string | null }> {
  const filter: Filter<ReviewDocument> = { store_id: new ObjectId(storeId), ...afterCursor(query) };
  if (query.product_id) filter.product_id = new ObjectId(query.product_id);
  if (query.status) filter.status = query.status;
  if (query.rating !== undefined) filter.rating = query.rating;
  const { items, nextCursor } = await findPage(reviews(platform.db), filter, query.limit);
  return { items: items.map(presentReview), nextCursor };
}

/** The review's scope: its id in this store (an id that cannot be one matches nothing). */
function scopeOf(storeId: string, reviewId: string) {
  const id = parseObjectId(reviewId);
  return id ? { _id: id, store_id: new ObjectId(storeId) } : null;
}

async function loadReview(platform: Platform, storeId: string, reviewId: string): Promise<ReviewDocument> {
  const scope = scopeOf(storeId, reviewId);
  const doc = scope ? await reviews(platform.db).findOne(scope) : null;
  if (!doc) throw notFound('Review');
  return doc;
}

export async function getReview(platform: Platform, storeId: string, reviewId: string): Promise<ReviewView> {
  return presentReview(await loadReview(platform, storeId, reviewId));
}

/** Reads and conditional writes of one change before 409 review_busy. */
const WRITE_ATTEMPTS = 5;

const reviewBusy = () => new PlatformError('conflict', 'review_busy', 'The review kept changing while this change was applied; try again');

/**
 * One change of a review: read it, let `change` decide the update from what it read (null:
 * nothing to change, answered with the review as read), then write on the condition that the
 * review is still the version read. So the review as it becomes is known before the write, and
 * the event(s) `events` build from it travel with the write. A change that loses a race reads
 * again (409 review_busy after WRITE_ATTEMPTS). 404 when the review is not the store's.
 */
async function changeReview(
  platform: Platform,
  storeId: string,
  reviewId: string,
  change: (current: ReviewDocument) => Partial<ReviewDocument> | null,
  events: (review: ReviewView, version: number) => PendingEvent[],
): Promise<{ view: ReviewView; changed: boolean }> {
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    const current = await loadReview(platform, storeId, reviewId);
    const set = change(current);
    if (!set) return { view: presentReview(current), changed: false };
    const version = current.version + 1;
    const view = presentReview({ ...current, ...set, version });
    const pending = events(view, version);
    const result = await reviews(platform.db).updateOne(
      { _id: current._id, store_id: current.store_id, version: current.version },
      carrying({ $set: set, $inc: { version: 1 } }, pending),
    );
    if (result.matchedCount === 0) continue;
    await platform.events.settle(reviews(platform.db), current._id, pending);
    return { view, changed: true };
  }
  throw reviewBusy();
}

/**
 * Moderate: set the status (any status may follow any other). Setting the status it already
 * has changes nothing and records no event. Conditional on the version read, so concurrent
 * moderators each get a version and an event of their own.
 */
export async function updateReview(platform: Platform, storeId: string, reviewId: string, input: UpdateReviewBody): Promise<ReviewView> {
  const { view } = await changeReview(
    platform,
    storeId,
    reviewId,
    (current) => (current.status === input.status ? null : { status: input.status, updated_at: platform.clock.now() }),
    (review, version) => [platform.events.pending('review.updated', storeId, { review, changed: ['status'] }, `review.updated:${review.id}:v${version}`)],
  );
  return view;
}

/** Set or replace the merchant's reply (replied_at is now either way). */
export async function replyToReview(platform: Platform, storeId: string, reviewId: string, input: ReplyBody): Promise<ReviewView> {
  const { view } = await changeReview(
    platform,
    storeId,
    reviewId,
    () => {
      const now = platform.clock.now();
      return { reply: { body: input.body, replied_at: now }, updated_at: now };
    },
    (review, version) => [platform.events.pending('review.replied', storeId, { review }, `review.replied:${review.id}:v${version}`)],
  );
  return view;
}

/** Remove the reply: 404 `reply_not_found` when there is none. Recorded as review.updated with changed ["reply"]. */
export async function deleteReviewReply(platform: Platform, storeId: string, reviewId: string): Promise<void> {
  const { changed } = await changeReview(
    platform,
    storeId,
    reviewId,
    (current) => (current.reply === null ? null : { reply: null, updated_at: platform.clock.now() }),
    (review, version) => [platform.events.pending('review.updated', storeId, { review, changed: ['reply'] }, `review.updated:${review.id}:v${version}`)],
  );
  if (!changed) throw new PlatformError('not_found', 'reply_not_found', 'This review has no reply');
}

export async function deleteReview(platform: Platform, storeId: string, reviewId: string): Promise<void> {
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    // 404 once it is gone (also when a concurrent delete took it between attempts).
    const current = await loadReview(platform, storeId, reviewId);
    const target = { collection: reviews(platform.db), carrier: REVIEWS, event: 'review.deleted' as const };
    if (await deleteAsRead(platform, target, current, { review: presentReview(current) })) return;
  }
  throw reviewBusy();
}

/**
 * A product's published reviews: how many, the average rating to one decimal and how many of
 * each rating. One $match/$group by rating (both MongoDB and FerretDB 1.24 run it); the
 * average is rounded half up from the integer sum and count. An id that is not one of the
 * store's products simply has no reviews (summaryForProduct checks the product first).
 */
export async function productRatingSummary(platform: Pick<Platform, 'db'>, storeId: string, productId: string): Promise<RatingSummary> {
  const byRating = new Map<string, number>();
  const id = parseObjectId(productId);
  const storeObjectId = parseObjectId(storeId);
  if (id && storeObjectId) {
    const groups = await reviews(platform.db)
      .aggregate<{ _id: unknown; n: number }>([
        { $match: { store_id: storeObjectId, product_id: id, status: 'published' } },
        { $group: { _id: '$rating', n: { $sum: 1 } } },
      ])
      .toArray();
    for (const g of groups) byRating.set(String(g._id), (byRating.get(String(g._id)) ?? 0) + g.n);
  }
  const of = (rating: number) => byRating.get(String(rating)) ?? 0;
  const distribution = { '1': of(1), '2': of(2), '3': of(3), '4': of(4), '5': of(5) };
  let count = 0;
  let sum = 0;
  for (const rating of [1, 2, 3, 4, 5] as const) {
    count += of(rating);
    sum += rating * of(rating);
  }
  // round(sum / count, 1) half up, in integers: floor((20·sum + count) / (2·count)) tenths.
  const average = count === 0 ? null : Math.floor((20 * sum + count) / (2 * count)) / 10;
  return { product_id: productId, count, average, distribution };
}

/** The summary behind GET /v1/reviews/summary: 404 for a product that is not the store's. */
export async function summaryForProduct(platform: Platform, storeId: string, productId: string): Promise<RatingSummary> {
  if (!(await productExists(platform, storeId, productId))) throw notFound('Product');
  return productRatingSummary(platform, storeId, productId);
}

/**
 * A storefront customer's review: only of a product they bought (an order of theirs, paid and
 * not cancelled, with a line of it; 403 `purchase_required` otherwise), once per product (409
 * `already_reviewed`), and always `pending`, so it waits for the merchant's moderation. The
 * author is the customer: their first name and last initial (or "Customer"), and their email.
 */
export async function createCustomerReview(platform: Platform, storeId: string, customerId: string, input: CustomerReviewBody): Promise<ReviewView> {
  if (!(await productExists(platform, storeId, input.product_id))) throw invalidInput([{ path: 'product_id', message: 'is not a product of this store' }]);
  if (!(await customerBoughtProduct(platform, storeId, customerId, input.product_id))) {
    throw new PlatformError('not_allowed', 'purchase_required', 'Only a customer who bought this product may review it');
  }
  const existing = await reviews(platform.db).findOne(
    { store_id: new ObjectId(storeId), product_id: new ObjectId(input.product_id), customer_id: new ObjectId(customerId) },
    { projection: { _id: 1 } },
  );
  if (existing) throw new PlatformError('conflict', 'already_reviewed', 'You have already reviewed this product');
  const customer = await getCustomer(platform, storeId, customerId);
  const name = [customer.first_name, customer.last_name ? `${[...customer.last_name][0]}.` : null].filter((p): p is string => !!p).join(' ');
  return createReview(platform, storeId, {
    product_id: input.product_id,
    customer_id: customerId,
    author_name: name || 'Customer',
    author_email: customer.email,
    rating: input.rating,
    title: input.title,
    body: input.body,
    status: 'pending',
  });
}
