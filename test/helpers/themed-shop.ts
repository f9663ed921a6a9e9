import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import type { Client } from './http.js';
import { givenLocation } from './catalog.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from './factories.js';
import { bundleOf } from './theme-uploads.js';

/** A store ready for a shopper: its products, collections, shipping, the sandbox provider and a fixture theme live. */
export type ThemedShop = GivenMerchantWithStore & {
  location: string;
  products: { id: string; variant: string; handle: string; title: string; price: number }[];
};

export const SHOP_CATALOG = [
  { title: 'Linen Throw Blanket', handle: 'linen-throw', price: 8900, stock: 40 },
  { title: 'Ceramic Pour-Over Set', handle: 'pour-over-set', price: 5400, stock: 40 },
  { title: 'Beeswax Candle Trio', handle: 'candle-trio', price: 3200, stock: 40 },
];
export const SANDBOX_KEY_SECRET = 'sandbox_secret_0123456789abcdef';

/** A store with the catalog in stock, its collections, US shipping rates, the sandbox provider and `fixture` live. */
export async function givenShopWithTheme(api: Client, fixture: 'aurora' | 'ember-liquid'): Promise<ThemedShop> {
  const shop = await givenMerchantWithStore(api);
  const location = await givenLocation(api, shop.as);
  const products: ThemedShop['products'] = [];
  for (const p of SHOP_CATALOG) {
    const res = await api.post(
      '/v1/products',
      { title: p.title, handle: p.handle, status: 'active', description_html: `<p>${p.title}, made to last.</p>`, variants: [{ price: p.price }] },
      shop.as,
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const variant = res.body.data.variants[0].id as string;
    const level = await api.post('/v1/inventory/levels/set', { variant_id: variant, location_id: location, available: p.stock }, shop.as);
    expect(level.status, JSON.stringify(level.body)).to.equal(200);
    products.push({ id: res.body.data.id, variant, handle: p.handle, title: p.title, price: p.price });
  }
  for (const [title, handle] of [
    ['Bestsellers', 'bestsellers'],
    ['New arrivals', 'new-arrivals'],
    ['New', 'new'],
  ]) {
    const res = await api.post('/v1/products/collections', { type: 'manual', title, handle, product_ids: products.map((p) => p.id) }, shop.as);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
  }
  const shipping = await api.put(
    '/v1/shipping',
    {
      rates: [
        { code: 'standard', name: 'Standard', price: 700, country_code: 'US' },
        { code: 'express', name: 'Express', price: 2500, country_code: 'US' },
        { code: 'standard', name: 'International', price: 3000, country_code: '*' },
      ],
    },
    shop.as,
  );
  expect(shipping.status, JSON.stringify(shipping.body)).to.equal(200);
  const sandbox = await api.put('/v1/payments/providers/sandbox', { enabled: true, credentials: { key_secret: SANDBOX_KEY_SECRET } }, shop.as);
  expect(sandbox.status, JSON.stringify(sandbox.body)).to.equal(200);
  const bundle = bundleOf(fixture);
  const up = await api.post('/v1/themes/packages/upload', { bundle, submission_mode: 'private_install' }, { token: shop.merchant.token });
  expect(up.status, JSON.stringify(up.body)).to.equal(201);
  const installed = await api.post(`/v1/themes/${bundle.package.slug}/install`, { store_id: shop.store.id, publish: true }, { token: shop.merchant.token });
  expect(installed.status, JSON.stringify(installed.body)).to.equal(201);
  return { ...shop, location, products };
}

/** A fixture theme's asset as its file holds it. */
export const readFixtureAsset = (fixture: 'aurora' | 'ember-liquid', path: string) =>
  readFileSync(new URL(`../../../fixtures/themes/${fixture}/${path}`, import.meta.url), 'utf8');
