import { z } from 'zod';
import { PageQuery } from '../../pagination.js';

export const CatalogQuery = PageQuery.extend({
  q: z.string().trim().min(1, 'must not be blank').max(100).optional(),
}).strict();
export type CatalogQuery = z.infer<typeof CatalogQuery>;
