import { expectCreated, unique, type As } from './factories.js';
import type { Client } from './http.js';

/** A customer the merchant created, with a fresh email unless `body` gives one: the customer as answered. */
export const givenCustomer = (api: Client, as: As, body: Record<string, unknown> = {}): Promise<any> =>
  expectCreated(api.post('/v1/customers', { email: `customer-${unique()}@example.com`, ...body }, as));

/** An address's body: 1 Main St, Springfield, US, with `extra` fields. */
export const anAddress = (extra: Record<string, unknown> = {}) => ({ address1: '1 Main St', city: 'Springfield', country_code: 'US', ...extra });

/** An address of the customer (`anAddress(extra)`): the address as answered. */
export const givenAddress = (api: Client, as: As, customerId: string, extra: Record<string, unknown> = {}): Promise<any> =>
  expectCreated(api.post(`/v1/customers/${customerId}/addresses`, anAddress(extra), as));
