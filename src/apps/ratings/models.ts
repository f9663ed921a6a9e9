import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../../db.js';

export const APP_CATALOG_REVIEWS = 'app_catalog_reviews';

export type RatingKey = '1' | '2' | '3' | '4' | '5';

/** How many app ratings an app has, the sum of their ratings and how many of each rating. */
export type RatingSummary = { count: number; sum: number; distribution: Partial<Record<RatingKey, number>> };

/** A partner's answer to a app rating: one per review, editable. */
export type AppRatingReply = { body: string; developer_id: ObjectId; created_at: Date; updated_at: Date };

/**
 * A merchant's review of an app in the catalog, for one store (unique per app and store): the
 * store has or had the app installed. `merchant_id` is the author (any merchant with access to
 * the store may edit it).
 */
export type AppRatingDocument = {
  _id: ObjectId;
  app_id: ObjectId;
  store_id: ObjectId;
  merchant_id: ObjectId;
  rating: number;
  title: string | null;
  body: string;
  reply: AppRatingReply | null;
  version: number;
  created_at: Date;
  updated_at: Date;
};

export const ratingIndexes: IndexDeclaration[] = [
  {
    collection: APP_CATALOG_REVIEWS,
    indexes: [
      { key: { app_id: 1, store_id: 1 }, name: 'app_id_store_id_unique', unique: true },
      { key: { app_id: 1, _id: 1 }, name: 'app_id_id' },
      { key: { app_id: 1, rating: 1, _id: 1 }, name: 'app_id_rating_id' },
    ],
  },
];

export const appRatings = (db: Db) => db.collection<AppRatingDocument>(APP_CATALOG_REVIEWS);
