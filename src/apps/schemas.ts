import { z } from 'zod';
import { IdString } from '../ids.js';
import { PageQuery } from '../pagination.js';

/** POST /v1/app-store/developers/register: the whole profile, every time (it creates or replaces). URLs are checked by the service (https). */
export const RegisterDeveloperBody = z.strictObject({
  name: z.string().trim().min(1, 'must not be blank').max(80),
  contact_email: z.email('must be an email address').max(254),
  website_url: z.string().max(2048).nullable().default(null),
  support_url: z.string().max(2048),
  privacy_policy_url: z.string().max(2048),
});
export type RegisterDeveloperBody = z.infer<typeof RegisterDeveloperBody>;

/**
 * Validate, submit and new version: `{ manifest }`, the manifest a JSON object (its own rules
 * are the manifest validator's, which reports them all as `issues`).
 */
export const ManifestBody = z.strictObject({
  manifest: z.record(z.string(), z.unknown(), { error: 'must be a JSON object (the app manifest)' }),
});
export type ManifestBody = z.infer<typeof ManifestBody>;

export const DeveloperAppsQuery = PageQuery.strict();
export type DeveloperAppsQuery = z.infer<typeof DeveloperAppsQuery>;

export const AppWebhookSubscriptionsQuery = PageQuery.strict();
export type AppWebhookSubscriptionsQuery = z.infer<typeof AppWebhookSubscriptionsQuery>;

export const ReviewListQuery = PageQuery.extend({
  status: z.enum(['submitted', 'approved', 'rejected']).default('submitted'),
}).strict();
export type ReviewListQuery = z.infer<typeof ReviewListQuery>;

export const RejectBody = z.strictObject({
  reasons: z.array(z.string().trim().min(1, 'must not be blank').max(1000)).min(1, 'give at least one reason').max(20),
});
export type RejectBody = z.infer<typeof RejectBody>;

export const CatalogQuery = PageQuery.extend({
  q: z.string().trim().min(1, 'must not be blank').max(100).optional(),
}).strict();
export type CatalogQuery = z.infer<typeof CatalogQuery>;

// ── Catalog reviews (docs/apps.md, Catalog reviews of apps) ───────────────────────────────────────────

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

export const CreateCatalogReviewBody = z.strictObject({
  store_id: IdString('store'),
  rating: Rating,
  title: ReviewTitle.default(null),
  body: ReviewText,
});
export type CreateCatalogReviewBody = z.infer<typeof CreateCatalogReviewBody>;

export const UpdateCatalogReviewBody = z
  .strictObject({ rating: Rating.optional(), title: ReviewTitle.optional(), body: ReviewText.optional() })
  .refine((b) => b.rating !== undefined || b.title !== undefined || b.body !== undefined, 'give at least one of rating, title, body');
export type UpdateCatalogReviewBody = z.infer<typeof UpdateCatalogReviewBody>;

export const CatalogReviewReplyBody = z.strictObject({ body: ReviewText });
export type CatalogReviewReplyBody = z.infer<typeof CatalogReviewReplyBody>;

export const CatalogReviewsQuery = PageQuery.extend({
  rating: z.enum(['1', '2', '3', '4', '5'], { message: 'must be a whole number from 1 to 5' }).transform(Number).optional(),
}).strict();
export type CatalogReviewsQuery = z.infer<typeof CatalogReviewsQuery>;
