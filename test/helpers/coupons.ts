import { expectCreated, unique, type As } from './factories.js';
import type { Client } from './http.js';

/**
 * A coupon with a fresh code unless `body` gives one: 10 % off, or the rule `body` gives (its type
 * and value, which go together, limits, dates). The coupon as answered.
 */
export const givenCoupon = (api: Client, as: As, body: Record<string, unknown> = { type: 'percentage', value: 10 }): Promise<any> =>
  expectCreated(api.post('/v1/coupons', { code: `C-${unique()}`, ...body }, as));
