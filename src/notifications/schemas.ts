import { z } from 'zod';
import { NOTIFICATION_LIMITS } from './liquid.js';

const Part = (max: number) => z.string().max(max);

/** PUT /v1/notifications/:kind: the store's own subject, text and HTML templates (Liquid). */
export const PutTemplateBody = z.strictObject({
  subject: Part(1000).trim().min(1),
  text: Part(NOTIFICATION_LIMITS.chars).min(1),
  html: Part(NOTIFICATION_LIMITS.chars).min(1),
});
export type PutTemplateBody = z.infer<typeof PutTemplateBody>;

/** POST /v1/notifications/:kind/preview: the store's template, or the one given (unsaved), rendered with a sample or the store's latest order. */
export const PreviewBody = z.strictObject({
  template: PutTemplateBody.optional(),
  order: z.enum(['latest', 'sample']).default('latest'),
});
export type PreviewBody = z.infer<typeof PreviewBody>;
