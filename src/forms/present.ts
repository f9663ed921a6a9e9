import type { FormSubmissionDocument } from './models.js';

export type FormSubmissionView = { id: string; form: string; fields: Record<string, string>; user_agent: string | null; created_at: string };

export const presentFormSubmission = (s: FormSubmissionDocument): FormSubmissionView => ({
  id: s._id.toHexString(),
  form: s.form,
  fields: s.fields,
  user_agent: s.user_agent,
  created_at: s.created_at.toISOString(),
});
