import type { Db, ObjectId } from 'mongodb';
import { countsBy, type IndexDeclaration } from '../../db.js';
import type { CarriesEvents } from '../../events/index.js';

export const THEME_REVIEWS = 'theme_reviews';

export type CheckStatus = 'pending' | 'passed' | 'failed' | 'warning';
export type ReviewCheck = { name: string; status: CheckStatus; details: string[]; ran_at: Date | null };
export type ReviewStatus = 'pending_checks' | 'checks_failed' | 'awaiting_review' | 'approved' | 'rejected';

export type ThemeReviewDocument = {
  _id: ObjectId;
  submission_type: 'theme_version';
  /** The theme version under review. */
  resource_id: ObjectId;
  package_id: ObjectId;
  status: ReviewStatus;
  checks: ReviewCheck[];
  schema_manifest_version: string;
  renderer_version: string;
  reasons: string[];
  reviewed_by: ObjectId | null;
  reviewed_at: Date | null;
  /** The store the review's events are recorded in (the uploader's; null when they own none). */
  event_store_id: ObjectId | null;
  /** The themes worker running the checks holds the review for a while (src/work/lease.ts); a dead worker's review is taken again. */
  lease_until: Date | null;
  lease_owner: string | null;
  check_runs: number;
  created_at: Date;
  updated_at: Date;
} & CarriesEvents;

export const reviewIndexes: IndexDeclaration[] = [
  {
    collection: THEME_REVIEWS,
    indexes: [
      { key: { resource_id: 1 }, name: 'resource_id_unique', unique: true },
      { key: { status: 1, _id: 1 }, name: 'status_id' },
      { key: { status: 1, lease_until: 1 }, name: 'status_lease_until' },
    ],
  },
];

export const themeReviews = (db: Db) => db.collection<ThemeReviewDocument>(THEME_REVIEWS);

/** The theme reviews part of the operators' overview (docs/operations.md): reviews in flight, by status (the `status_id` index). */
export async function reviewsOverview(db: Db) {
  return { theme_reviews: await countsBy(themeReviews(db), { pending_checks: { status: 'pending_checks' }, awaiting_review: { status: 'awaiting_review' } }) };
}
