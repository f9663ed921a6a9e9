import { z } from 'zod';
import { IdString } from '../ids.js';
import { PageQuery } from '../pagination.js';
import { REVIEW_STATUSES } from './models.js';

/** Lone surrogates would be silently replaced when stored: refuse them rather than store something else. */
const wellFormed = (s: string) => !/\p{Cs}/u.test(s);
const WELL_FORMED = 'must be valid Unicode text';

/** As the customers' email: trimmed, NFC-normalised and lower-cased before it is checked. */
const Email = z
  .string()
  .trim()
  .max(254)
  .transform((s) => s.normalize('NFC').toLowerCase())
  .pipe(z.email({ message: 'must be an email address' }));

const AuthorName = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters').refine(wellFormed, WELL_FORMED);

/** Optional title: trimmed; an empty string means none and is stored as null. */
const Title = z
  .string()
  .trim()
  .max(200, 'must be at most 200 characters')
  .refine(wellFormed, WELL_FORMED)
  .nullable()
  .transform((s) => (s === '' ? null : s));

/** Plain text kept exactly as given (not trimmed, not escaped): 1..5000 characters, not only whitespace. */
export const PlainText = z
  .string()
  .min(1, 'must not be empty')
  .max(5000, 'must be at most 5000 characters')
  .refine((s) => s.trim().length > 0, 'must not be only whitespace')
  .refine(wellFormed, WELL_FORMED);

const Rating = z.number().int('must be a whole number from 1 to 5').min(1, 'must be a whole number from 1 to 5').max(5, 'must be a whole number from 1 to 5');
const Status = z.enum(REVIEW_STATUSES);

export const CreateReviewBody = z.strictObject({
  product_id: IdString('product'),
  customer_id: IdString('customer').nullable().default(null),
  author_name: AuthorName,
  author_email: Email.nullable().default(null),
  rating: Rating,
  title: Title.default(null),
  body: PlainText,
  status: Status.default('pending'),
});
export type CreateReviewBody = z.infer<typeof CreateReviewBody>;

/** The merchant moderates; what the author wrote is not theirs to edit. */
export const UpdateReviewBody = z.strictObject({ status: Status });
export type UpdateReviewBody = z.infer<typeof UpdateReviewBody>;

export const ReplyBody = z.strictObject({ body: PlainText });
export type ReplyBody = z.infer<typeof ReplyBody>;

export const ListReviewsQuery = PageQuery.extend({
  product_id: IdString('product').optional(),
  status: Status.optional(),
  rating: z.enum(['1', '2', '3', '4', '5'], { message: 'must be a whole number from 1 to 5' }).transform(Number).optional(),
}).strict();
export type ListReviewsQuery = z.infer<typeof ListReviewsQuery>;

export const SummaryQuery = z.strictObject({ product_id: IdString('product') });

/** A signed-in customer's review of a product they bought: the author and status are not theirs to set. */
export const CustomerReviewBody = z.strictObject({
  product_id: IdString('product'),
  rating: Rating,
  title: Title.default(null),
  body: PlainText,
});
export type CustomerReviewBody = z.infer<typeof CustomerReviewBody>;
