import { z } from 'zod';

/** A merchant's change of one registry row: its state, its settings (within the manifest's), whether a validation function blocks checkout. */
export const UpdateRegistrationBody = z
  .strictObject({
    /** The row's version as read: a stale one is 409 with the row as it is now. */
    version: z.number().int().min(1),
    state: z.enum(['enabled', 'disabled']).optional(),
    settings: z.record(z.string().max(64), z.union([z.string().max(1000), z.number(), z.boolean()])).optional(),
    blocking: z.boolean().optional(),
  })
  .refine((b) => b.state !== undefined || b.settings !== undefined || b.blocking !== undefined, 'give state, settings or blocking');
export type UpdateRegistrationBody = z.infer<typeof UpdateRegistrationBody>;
