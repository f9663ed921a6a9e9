import { z } from 'zod';
import { PageQuery } from '../../pagination.js';

export const ReviewListQuery = PageQuery.extend({
  status: z.enum(['submitted', 'approved', 'rejected']).default('submitted'),
}).strict();
export type ReviewListQuery = z.infer<typeof ReviewListQuery>;

export const RejectBody = z.strictObject({
  reasons: z.array(z.string().trim().min(1, 'must not be blank').max(1000)).min(1, 'give at least one reason').max(20),
});
export type RejectBody = z.infer<typeof RejectBody>;
