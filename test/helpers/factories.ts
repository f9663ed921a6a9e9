import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { Client, Reply } from './http.js';

/**
 * The factories tests build their data with, one file per domain beside this one (customers.ts,
 * orders.ts, coupons.ts, catalog.ts, product-reviews.ts, webhooks.ts, apps.ts): each makes its
 * object through the API, as a client would, fails the test at once if the API refuses it, and
 * answers the object as the API answered it.
 */

/** A fresh suffix for names that must not collide (emails, subdomains, codes). */
export const unique = () => randomBytes(4).toString('hex');

/** The data of an answer that must be 201 Created; any other answer fails the test, showing the body. */
export async function expectCreated(reply: Promise<Reply>): Promise<any> {
  const res = await reply;
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body.data;
}

export type GivenMerchant = { id: string; email: string; password: string; token: string };
export type GivenStore = { id: string; subdomain: string };

/** A new merchant, signed up and then signed in, as a client does (sign-up answers 202 and starts no session). */
export async function givenMerchant(api: Client, overrides: { email?: string; password?: string; name?: string } = {}): Promise<GivenMerchant> {
  const email = overrides.email ?? `merchant-${unique()}@example.com`;
  const password = overrides.password ?? `pw-${unique()}-${unique()}`;
  const signup = await api.post('/v1/auth/signup', { email, password, name: overrides.name ?? 'Test Merchant' });
  expect(signup.status, JSON.stringify(signup.body)).to.equal(202);
  const res = await api.post('/v1/auth/signin', { email, password });
  expect(res.status, `sign-in after sign-up (an email that already had an account?): ${JSON.stringify(res.body)}`).to.equal(200);
  return { id: res.body.data.merchant.id, email: res.body.data.merchant.email, password, token: res.body.data.session.token };
}

export async function givenStore(api: Client, merchant: GivenMerchant, overrides: { name?: string; subdomain?: string } = {}): Promise<GivenStore> {
  const subdomain = overrides.subdomain ?? `shop-${unique()}`;
  const res = await api.post('/v1/stores', { name: overrides.name ?? 'Test Store', subdomain }, { token: merchant.token });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return { id: res.body.data.id, subdomain };
}

/** How a store-scoped request is made: the merchant's session token and the store's id (X-Store-Id). */
export type As = { token: string; storeId: string };
export type GivenMerchantWithStore = { merchant: GivenMerchant; store: GivenStore; as: As };

/**
 * A new merchant with a new store, and the credentials to act on it. ("Shop" in the tests is the
 * storefront a shopper visits: ShopBrowser in shop.ts.)
 */
export async function givenMerchantWithStore(api: Client): Promise<GivenMerchantWithStore> {
  const merchant = await givenMerchant(api);
  const store = await givenStore(api, merchant);
  return { merchant, store, as: { token: merchant.token, storeId: store.id } };
}
