import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { Client } from './http.js';

export type GivenMerchant = { id: string; email: string; password: string; token: string };
export type GivenStore = { id: string; subdomain: string };

const unique = () => randomBytes(4).toString('hex');

export async function givenMerchant(api: Client, overrides: { email?: string; password?: string; name?: string } = {}): Promise<GivenMerchant> {
  const email = overrides.email ?? `merchant-${unique()}@example.com`;
  const password = overrides.password ?? `pw-${unique()}-${unique()}`;
  const res = await api.post('/v1/auth/signup', { email, password, name: overrides.name ?? 'Test Merchant' });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return { id: res.body.data.merchant.id, email: res.body.data.merchant.email, password, token: res.body.data.session.token };
}

export async function givenStore(api: Client, merchant: GivenMerchant, overrides: { name?: string; subdomain?: string } = {}): Promise<GivenStore> {
  const subdomain = overrides.subdomain ?? `shop-${unique()}`;
  const res = await api.post('/v1/stores', { name: overrides.name ?? 'Test Store', subdomain }, { token: merchant.token });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return { id: res.body.data.id, subdomain };
}

export async function givenMerchantWithStore(api: Client) {
  const merchant = await givenMerchant(api);
  return { merchant, store: await givenStore(api, merchant) };
}
