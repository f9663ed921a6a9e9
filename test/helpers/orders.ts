import { expectCreated, type As } from './factories.js';
import type { Client } from './http.js';

/** An order the merchant created: one custom line at 10.00 unless `body` gives its line items. The order as answered. */
export const givenOrder = (api: Client, as: As, body: Record<string, unknown> = {}): Promise<any> =>
  expectCreated(api.post('/v1/orders', { line_items: [{ title: 'Item', price: 1000, quantity: 1 }], ...body }, as));
