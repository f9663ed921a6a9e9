import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../db.js';
import type { CarriesEvents } from '../events/index.js';

export const REVIEWS = 'reviews';

export const REVIEW_STATUSES = ['pending', 'published', 'hidden'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

export type ReviewReply = { body: string; replied_at: Date };

export type ReviewDocument = {
  _id: ObjectId;
  store_id: ObjectId;
  /** A product of the same store (checked on create; the review outlives a deleted product). */
  product_id: ObjectId;
  /** A customer of the same store, or null for an anonymous or imported review. */
  customer_id: ObjectId | null;
  author_name: string;
  /** Trimmed, NFC-normalised and lower-cased; null when not given. */
  author_email: string | null;
  /** Integer 1..5. */
  rating: number;
  title: string | null;
  /** Plain text exactly as given: escaped when rendered, never here. */
  body: string;
  status: ReviewStatus;
  /** The merchant's public answer, or null. */
  reply: ReviewReply | null;
  /** Incremented by every change; names the change in its event's idempotency key. */
  version: number;
  created_at: Date;
  updated_at: Date;
} & CarriesEvents;

export const reviewIndexes: IndexDeclaration[] = [
  {
    collection: REVIEWS,
    indexes: [
      { key: { store_id: 1, _id: 1 }, name: 'store_id_id' },
      { key: { store_id: 1, product_id: 1, _id: 1 }, name: 'store_id_product_id_id' },
      { key: { store_id: 1, status: 1, _id: 1 }, name: 'store_id_status_id' },
      { key: { store_id: 1, rating: 1, _id: 1 }, name: 'store_id_rating_id' },
      // The rating summary: a product's published reviews, by rating.
      { key: { store_id: 1, product_id: 1, status: 1, rating: 1 }, name: 'store_id_product_id_status_rating' },
    ],
  },
];

export const reviews = (db: Db) => db.collection<ReviewDocument>(REVIEWS);
