import { z } from 'zod';
import { PageQuery } from '../pagination.js';

export const MAX_FIELDS = 30;
export const MAX_VALUE_LENGTH = 5000;
export const MAX_TOTAL_LENGTH = 20_000;
/** The honeypot: a field people never see and bots fill in. */
export const HONEYPOT_FIELD = 'website';

/** `contact`, `newsletter` or a custom name: lowercase kebab-case, 1–50 characters. */
export const FormName = z
  .string()
  .max(50, 'must be at most 50 characters')
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be lowercase kebab-case: a-z, 0-9 and single inner hyphens');

const FIELD_NAME = /^[a-z0-9_-]{1,64}$/;

const Fields = z.record(z.string(), z.string().max(MAX_VALUE_LENGTH)).superRefine((fields, ctx) => {
  const names = Object.keys(fields);
  for (const name of names) {
    if (!FIELD_NAME.test(name)) ctx.addIssue({ code: 'custom', path: [name], message: 'field names must be 1 to 64 characters of a-z, 0-9, _ and -' });
  }
  if (names.length > MAX_FIELDS) ctx.addIssue({ code: 'custom', message: `must have at most ${MAX_FIELDS} fields` });
  if (Object.values(fields).reduce((n, v) => n + v.length, 0) > MAX_TOTAL_LENGTH) {
    ctx.addIssue({ code: 'custom', message: `values must have at most ${MAX_TOTAL_LENGTH} characters in all` });
  }
});

export const SubmitFormParams = z.object({ subdomain: z.string(), form: FormName });
export const SubmitFormBody = z.strictObject({ fields: Fields });
export type SubmitFormBody = z.infer<typeof SubmitFormBody>;

/** Newsletter sign-ups need an email; it is stored trimmed, NFC-normalised and lower-cased. */
export const NewsletterEmail = z
  .string()
  .trim()
  .max(254)
  .transform((s) => s.normalize('NFC').toLowerCase())
  .pipe(z.email({ message: 'must be an email address' }));

const Timestamp = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 timestamp such as 2026-03-02T09:00:00Z' }).transform((s) => new Date(s));

export const ListSubmissionsQuery = PageQuery.extend({
  form: FormName.optional(),
  created_after: Timestamp.optional(),
  created_before: Timestamp.optional(),
})
  .strict()
  .refine((q) => !q.created_after || !q.created_before || q.created_after < q.created_before, {
    path: ['created_before'],
    message: 'must be later than created_after',
  });
export type ListSubmissionsQuery = z.infer<typeof ListSubmissionsQuery>;
