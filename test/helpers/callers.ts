import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import { givenPublishedApp, installApp } from './apps.js';
import type { GivenMerchantWithStore } from './factories.js';
import type { Client } from './http.js';

/**
 * The callers beside a merchant that an operator-only route must refuse, in `shop`: a published
 * app's installation token (published by `operatorToken`) and a signed-in customer's token.
 */
export async function givenAppAndCustomer(
  api: Client,
  operatorToken: string,
  shop: GivenMerchantWithStore,
): Promise<{ appToken: string; customerToken: string }> {
  const partner = await givenPublishedApp(api, operatorToken, { scopes: ['read_products'] });
  const { token: appToken } = await installApp(api, partner, shop, { scopes: ['read_products'] });
  const email = `buyer-${new ObjectId().toHexString()}@example.com`;
  await api.post('/v1/storefront/customer/signup', { subdomain: shop.store.subdomain, email, password: 'correct horse battery' });
  const login = await api.post('/v1/storefront/customer/login', { subdomain: shop.store.subdomain, email, password: 'correct horse battery' });
  expect(login.status, JSON.stringify(login.body)).to.equal(200);
  return { appToken, customerToken: login.body.data.token as string };
}
