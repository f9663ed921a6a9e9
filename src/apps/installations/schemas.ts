import { z } from 'zod';
import { PageQuery } from '../../pagination.js';
import { unstorableJson } from '../../storable.js';

const STORE_ID = /^[0-9a-f]{24}$/;

/** Spec 2.1: the merchant's consent to install an app into a store. */
export const AuthorizeBody = z.strictObject({
  store_id: z.string().regex(STORE_ID, 'must be a store id'),
  redirect_uri: z.string().min(1).max(2048),
  code_challenge: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be the base64url (no padding) SHA-256 of the code verifier: 43 characters'),
  code_challenge_method: z.literal('S256', { message: 'must be S256 (the plain method is not accepted)' }),
  scopes: z.array(z.string().min(1).max(64)).min(1).max(64),
  state: z.string().min(1).max(1024),
  webhook_url: z.string().min(1).max(2048),
});
export type AuthorizeBody = z.infer<typeof AuthorizeBody>;

/** The start of an install: which store (the merchant must own it). */
export const InstallBody = z.strictObject({ store_id: z.string().regex(STORE_ID, 'must be a store id') });

export const ListInstallationsQuery = PageQuery.extend({ status: z.enum(['active', 'uninstalled']).optional() }).strict();

/** The app's metadata for its store: a JSON object whose keys can be stored (size-limited in the service). */
export const MetadataBody = z.strictObject({
  metadata: z.record(z.string(), z.unknown()).superRefine((metadata, ctx) => {
    for (const issue of unstorableJson(metadata, '')) ctx.addIssue({ code: 'custom', path: issue.path.split('.'), message: issue.message });
  }),
});
