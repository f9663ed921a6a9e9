import { expectCreated, type As } from './factories.js';
import type { Client } from './http.js';

/**
 * A review of a product of the store (`body.product_id`) that the merchant recorded: Ann's four
 * stars, pending, unless `body` says otherwise. The review as answered.
 */
export const givenProductReview = (api: Client, as: As, body: Record<string, unknown> & { product_id: string }): Promise<any> =>
  expectCreated(api.post('/v1/reviews', { author_name: 'Ann', rating: 4, body: 'Pours well', ...body }, as));
