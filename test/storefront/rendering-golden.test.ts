import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { useTestApp } from '../helpers/app.js';
import { givenMerchantWithStore, type As, type GivenMerchantWithStore } from '../helpers/factories.js';
import { bundleOf } from '../helpers/theme-uploads.js';

/**
 * The fixture themes' pages byte for byte, against the HTML the renderer gave before Liquid moved
 * into worker threads (fixtures/rendering/*.html, written by the in-process renderer of issue 15).
 * Ids, the store's subdomain and the theme's slug differ per run and are replaced by placeholders.
 * `UPDATE_GOLDEN=1` rewrites the files (only when a change of output is intended).
 */
const GOLDEN = new URL('../../../fixtures/rendering/', import.meta.url).pathname;
const SF = '/v1/storefront';

describe('Rendered pages of the fixture themes (the same bytes as before)', () => {
  const { app, api } = useTestApp('rendering-golden');

  async function shopWith(fixture: 'aurora' | 'ember-liquid'): Promise<{ shop: GivenMerchantWithStore; slug: string; cartToken: string }> {
    const shop = await givenMerchantWithStore(api);
    const bundle = bundleOf(fixture);
    const up = await api.post('/v1/themes/packages/upload', { bundle, submission_mode: 'private_install' }, { token: shop.merchant.token });
    expect(up.status, JSON.stringify(up.body)).to.equal(201);
    const installed = await api.post(`/v1/themes/${bundle.package.slug}/install`, { store_id: shop.store.id }, { token: shop.merchant.token });
    expect(installed.status, JSON.stringify(installed.body)).to.equal(201);
    const mug = await product(shop.as, {
      title: '<script>alert(1)</script> & "Mug"',
      handle: 'mug',
      description_html: '<p>Wood-fired <em>stoneware</em></p>',
      variants: [{ price: 1250, compare_at_price: 1500, inventory_tracked: false }],
    });
    const bowl = await product(shop.as, { title: 'Rice Bowl', handle: 'rice-bowl', variants: [{ price: 2400, inventory_tracked: false }] });
    for (const handle of ['new', 'bestsellers']) {
      const res = await api.post(
        '/v1/products/collections',
        { type: 'manual', title: `Collection ${handle}`, handle, product_ids: [mug.id, bowl.id] },
        shop.as,
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
    }
    const cart = await api.post(`${SF}/${shop.store.subdomain}/cart`, { lines: [{ variant_id: bowl.variants[0].id, quantity: 2 }] });
    expect(cart.status, JSON.stringify(cart.body)).to.equal(201);
    return { shop, slug: bundle.package.slug, cartToken: cart.body.data.token };
  }

  async function product(as: As, body: Record<string, unknown>) {
    const res = await api.post('/v1/products', { status: 'active', ...body }, as);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.data;
  }

  for (const fixture of ['ember-liquid', 'aurora'] as const) {
    it(`renders the ${fixture} pages as before`, async () => {
      const { shop, slug, cartToken } = await shopWith(fixture);
      const pages: [string, string, Record<string, string>][] = [
        ['home', 'home', {}],
        ['home-es', 'home?locale=es', {}],
        ['product', 'product/mug', {}],
        ['collection', 'collection/new', {}],
        ['cart', 'cart', { 'X-Cart-Token': cartToken }],
        ['cart-empty', 'cart', {}],
      ];
      for (const [name, path, headers] of pages) {
        const res = await fetch(`${app.url}${SF}/${shop.store.subdomain}/pages/${path}`, { headers });
        expect(res.status, `${fixture} ${name}`).to.equal(200);
        const html = (await res.text())
          .replaceAll(shop.store.subdomain, '<shop>')
          .replaceAll(slug, '<slug>')
          .replace(/[0-9a-f]{24}/g, '<id>');
        const file = join(GOLDEN, `${fixture}-${name}.html`);
        if (process.env.UPDATE_GOLDEN === '1') {
          mkdirSync(GOLDEN, { recursive: true });
          writeFileSync(file, html);
        }
        expect(html, `${fixture} ${name} (fixtures/rendering/${fixture}-${name}.html)`).to.equal(readFileSync(file, 'utf8'));
      }
    });
  }
});
