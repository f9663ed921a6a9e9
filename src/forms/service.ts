import { ObjectId, type Filter } from 'mongodb';
import { invalidInput, notFound } from '../errors.js';
import { findPage } from '../pagination.js';
import type { Platform } from '../platform.js';
import { consumeRateLimit } from '../ratelimit/index.js';
import { keyedHash } from '../secrets/index.js';
import { findStoreBySubdomain } from '../stores/index.js';
import { presentFormSubmission, type FormSubmissionView } from './present.js';
import { HONEYPOT_FIELD, NewsletterEmail, type ListSubmissionsQuery } from './schemas.js';
import { formSubmissions, type FormSubmissionDocument } from './models.js';

export const SUBMISSIONS_PER_WINDOW = 10;
export const SUBMISSION_WINDOW_SECONDS = 600;
const USER_AGENT_MAX = 256;

export type Submission = { subdomain: string; form: string; fields: Record<string, string>; ip: string; userAgent: string };

/**
 * A storefront form submission. Unknown store: not found. Over the per-IP, per-store limit:
 * rate_limited. A filled-in honeypot is accepted exactly like a real submission but stores
 * nothing, so a bot cannot tell. Returns nothing the caller could tell those apart by.
 */
export async function submitForm(platform: Platform, input: Submission): Promise<void> {
  const store = await findStoreBySubdomain(platform, input.subdomain);
  if (!store) throw notFound('Store');
  // Keyed, so the hash of an IPv4 address cannot be reversed by hashing all 2^32 of them.
  const ipHash = keyedHash(platform.config.secretsKeys, 'forms.ip', input.ip);
  await consumeRateLimit(platform, [{ bucket: `forms:${store.id}:ip:${ipHash}`, limit: SUBMISSIONS_PER_WINDOW, windowSeconds: SUBMISSION_WINDOW_SECONDS }]);

  const { [HONEYPOT_FIELD]: honeypot, ...fields } = input.fields;
  if (honeypot !== undefined && honeypot.trim() !== '') return;
  if (input.form === 'newsletter') {
    const email = NewsletterEmail.safeParse(fields.email ?? '');
    if (!email.success) throw invalidInput([{ path: 'fields.email', message: 'a newsletter sign-up needs an email address' }]);
    fields.email = email.data;
  }

  const doc: FormSubmissionDocument = {
    _id: new ObjectId(),
    store_id: new ObjectId(store.id),
    form: input.form,
    fields,
    ip_hash: ipHash,
    user_agent: input.userAgent ? input.userAgent.slice(0, USER_AGENT_MAX) : null,
    created_at: platform.clock.now(),
  };
  const view = presentFormSubmission(doc);
  const pending = [platform.events.pending('form_submission.created', doc.store_id, { form_submission: view }, `form_submission.created:${view.id}`)];
  await platform.events.insert(formSubmissions(platform.db), doc, pending);
}

/** A store's submissions, newest first (descending `_id`; the cursor names the last one seen). */
export async function listFormSubmissions(
  platform: Platform,
  storeId: string,
  query: ListSubmissionsQuery,
): Promise<{ items: FormSubmissionView[]; nextCursor: string | null }> {
  const filter: Filter<FormSubmissionDocument> = { store_id: new ObjectId(storeId) };
  if (query.cursor) filter._id = { $lt: query.cursor };
  if (query.form) filter.form = query.form;
  if (query.created_after || query.created_before) {
    filter.created_at = { ...(query.created_after ? { $gt: query.created_after } : {}), ...(query.created_before ? { $lt: query.created_before } : {}) };
  }
  const { items, nextCursor } = await findPage(formSubmissions(platform.db), filter, query.limit, -1);
  return { items: items.map(presentFormSubmission), nextCursor };
}
