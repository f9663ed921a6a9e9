import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { As } from './factories.js';
import type { Client } from './http.js';

/** A new product, active, with one untracked variant at 1000 unless `body` says otherwise: the product as answered. */
export async function givenProduct(api: Client, as: As, body: Record<string, unknown> = {}): Promise<any> {
  const res = await api.post('/v1/products', { title: 'Mug', status: 'active', variants: [{ price: 1000, inventory_tracked: false }], ...body }, as);
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body.data;
}

/** An inventory location of the store: its id. */
export async function givenLocation(api: Client, as: As, name = 'Warehouse'): Promise<string> {
  const res = await api.post('/v1/inventory/locations', { name }, as);
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body.data.id as string;
}

/** A product of its own with one tracked variant at `price`, `available` of it in stock at `location`. */
export async function givenStockedVariant(
  api: Client,
  as: As,
  location: string,
  available: number,
  price = 1000,
): Promise<{ product: string; variant: string }> {
  const product = await givenProduct(api, as, { title: `Item ${randomBytes(3).toString('hex')}`, variants: [{ price }] });
  const variant = product.variants[0].id as string;
  const level = await api.post('/v1/inventory/levels/set', { variant_id: variant, location_id: location, available }, as);
  expect(level.status, JSON.stringify(level.body)).to.equal(200);
  return { product: product.id as string, variant };
}
