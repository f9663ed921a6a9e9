import { z } from 'zod';

/** The text fields of `POST /v1/media` (the file itself is the `file` part). */
export const UploadFields = z.strictObject({
  alt: z.string().trim().max(500, 'must be at most 500 characters').optional(),
});
export type UploadFields = z.infer<typeof UploadFields>;
