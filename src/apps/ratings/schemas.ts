import { z } from 'zod';
import { IdString } from '../../ids.js';
import { PageQuery } from '../../pagination.js';

/** Merchants' app ratings of apps and partners' replies (docs/apps.md, Catalog reviews of apps). */

/** Lone surrogates would be silently replaced when stored: refuse them rather than store something else. */
const wellFormed = (s: string) => !/\p{Cs}/u.test(s);
const WELL_FORMED = 'must be valid Unicode text';

const Rating = z
  .number({ error: 'must be a whole number from 1 to 5' })
  .int('must be a whole number from 1 to 5')
  .min(1, 'must be a whole number from 1 to 5')
  .max(5, 'must be a whole number from 1 to 5');

/** Optional title: trimmed; an empty one (or null) means none. */
const ReviewTitle = z
  .string()
  .trim()
  .max(120, 'must be at most 120 characters')
  .refine(wellFormed, WELL_FORMED)
  .nullable()
  .transform((s) => (s === '' ? null : s));

/** A review's or a reply's text: trimmed, 1..5000 characters. */
const ReviewText = z.string().trim().min(1, 'must not be empty').max(5000, 'must be at most 5000 characters').refine(wellFormed, WELL_FORMED);

export const CreateAppRatingBody = z.strictObject({
  store_id: IdString('store'),
  rating: Rating,
  title: ReviewTitle.default(null),
  body: ReviewText,
});
export type CreateAppRatingBody = z.infer<typeof CreateAppRatingBody>;

export const UpdateAppRatingBody = z
  .strictObject({ rating: Rating.optional(), title: ReviewTitle.optional(), body: ReviewText.optional() })
  .refine((b) => b.rating !== undefined || b.title !== undefined || b.body !== undefined, 'give at least one of rating, title, body');
export type UpdateAppRatingBody = z.infer<typeof UpdateAppRatingBody>;

export const AppRatingReplyBody = z.strictObject({ body: ReviewText });
export type AppRatingReplyBody = z.infer<typeof AppRatingReplyBody>;

export const AppRatingsQuery = PageQuery.extend({
  rating: z.enum(['1', '2', '3', '4', '5'], { message: 'must be a whole number from 1 to 5' }).transform(Number).optional(),
}).strict();
export type AppRatingsQuery = z.infer<typeof AppRatingsQuery>;
