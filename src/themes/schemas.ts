import { z } from 'zod';
import { PageQuery } from '../pagination.js';

/** spec 4.6: the upload body, strict (unknown keys and a bad submission_mode are refused). */
export const UploadBody = z.strictObject({
  bundle: z.record(z.string(), z.unknown(), { error: 'must be a JSON object (the theme bundle)' }),
  submission_mode: z.enum(['marketplace', 'private_install']).default('marketplace'),
});
export type UploadBody = z.infer<typeof UploadBody>;

export const CatalogQuery = PageQuery.extend({
  site_type: z.string().min(1).max(40).optional(),
  pricing_type: z.enum(['free', 'paid']).optional(),
}).strict();
export type CatalogQuery = z.infer<typeof CatalogQuery>;

/** The install body: the store to install into (owned by the caller), and whether to make it the live theme at once. */
export const InstallBody = z.strictObject({
  store_id: z.string().regex(/^[0-9a-f]{24}$/, 'must be a store id'),
  publish: z.boolean().default(false),
});
export type InstallBody = z.infer<typeof InstallBody>;

export const ReviewListQuery = PageQuery.extend({
  status: z.enum(['pending_checks', 'checks_failed', 'awaiting_review', 'approved', 'rejected']).optional(),
}).strict();

export const RejectBody = z.strictObject({ reasons: z.array(z.string().trim().min(1).max(1000)).min(1).max(20) });
