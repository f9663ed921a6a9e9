import { z } from 'zod';
import { PageQuery } from '../pagination.js';
import { TEMPLATE_KEYS } from './bundle/types.js';
import { SETTINGS_DATA_KEY } from './editor/models.js';

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

/** A draft's key: a template key, or `settings_data` (the theme settings). */
export const DraftKeyParam = z.enum([...TEMPLATE_KEYS, SETTINGS_DATA_KEY]);

/** Editor routes: `:slug` is the store's most recent install of that theme, unless `theme_id` names one. */
export const EditorQuery = z.strictObject({
  theme_id: z
    .string()
    .regex(/^[0-9a-f]{24}$/, 'must be an installed theme id')
    .optional(),
});

/** `PUT …/editor/draft`: `version` is the draft's version the edit started from (0: the key has never had a draft). */
export const SaveDraftBody = z.strictObject({
  template_key: DraftKeyParam,
  content: z.record(z.string(), z.unknown(), { error: 'must be a JSON object (a template, or settings_data)' }),
  version: z.number().int().min(0).max(1_000_000_000),
});
export type SaveDraftBody = z.infer<typeof SaveDraftBody>;

export const DiscardDraftQuery = EditorQuery.extend({ template_key: DraftKeyParam }).strict();

/** `POST …/editor/publish`: the drafts to publish (default: every draft). */
export const PublishBody = z.strictObject({
  template_keys: z
    .array(DraftKeyParam)
    .min(1)
    .max(TEMPLATE_KEYS.length + 1)
    .refine((keys) => new Set(keys).size === keys.length, 'must not name a key twice')
    .optional(),
});

export const ReleasesQuery = PageQuery.extend(EditorQuery.shape).strict();

/** `POST …/preview-session`: the one draft to preview (absent or null: every draft). */
export const PreviewSessionBody = z.strictObject({ template_key: DraftKeyParam.nullable().default(null) });
