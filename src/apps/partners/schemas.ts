import { z } from 'zod';
import { PageQuery } from '../../pagination.js';

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
