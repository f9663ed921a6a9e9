import { expect } from 'chai';
import { useTestApp } from '../helpers/app.js';
import { givenProduct } from '../helpers/catalog.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';

const SF = '/v1/storefront';
/** Keys that must never appear anywhere in storefront JSON. */
const HIDDEN =
  /"(cost|cost_price|unit_cost|notes|note|internal_notes|inventory_quantity|inventory_tracked|inventory_policy|available_quantity|on_hand|committed|sku|weight_grams|status|store_id|owner_id|token_hash|version)"\s*:/;

describe('Storefront public reads (/v1/storefront)', () => {
  const { api } = useTestApp('storefront-reads', { STOREFRONT_BASE_DOMAIN: 'shops.example.test' });

  let shop: GivenMerchantWithStore;
  let other: GivenMerchantWithStore;
  before(async () => {
    shop = await givenMerchantWithStore(api);
    other = await givenMerchantWithStore(api);
    await givenProduct(api, shop.as, { title: 'Blue Mug', handle: 'blue-mug', tags: ['kitchen'] });
    await givenProduct(api, shop.as, { title: 'Draft Mug', handle: 'draft-mug', status: 'draft' });
    await givenProduct(api, shop.as, { title: 'Old Mug', handle: 'old-mug', status: 'archived' });
    await givenProduct(api, shop.as, { title: 'Apron', handle: 'apron', variants: [{ price: 2500, sku: 'SECRET-SKU', weight_grams: 300 }] });
    await givenProduct(api, other.as, { title: 'Other Store Mug', handle: 'other-mug' });
  });

  describe('GET /v1/storefront/lookup', () => {
    it('finds a store by its subdomain and by a host under the base domain', async () => {
      const bySub = await api.get(`${SF}/lookup?subdomain=${shop.store.subdomain}`);
      expect(bySub.status).to.equal(200);
      expect(bySub.body.data).to.deep.equal({ name: 'Test Store', subdomain: shop.store.subdomain, currency: 'USD', locale: 'en', live_theme_id: null });
      const byHost = await api.get(`${SF}/lookup?host=${shop.store.subdomain}.shops.example.test:443`);
      expect(byHost.status).to.equal(200);
      expect(byHost.body.data).to.deep.equal(bySub.body.data);
    });

    it('answers 404 for an unknown store, a host outside the base domain, or a nested host', async () => {
      for (const q of [
        'subdomain=no-such-store',
        `host=${shop.store.subdomain}.elsewhere.test`,
        `host=a.${shop.store.subdomain}.shops.example.test`,
        'host=shops.example.test',
      ]) {
        const res = await api.get(`${SF}/lookup?${q}`);
        expect(res.status, q).to.equal(404);
        expect(res.body.error.code).to.equal('not_found');
      }
    });

    it('needs exactly one of subdomain and host', async () => {
      expect((await api.get(`${SF}/lookup`)).status).to.equal(400);
      expect((await api.get(`${SF}/lookup?subdomain=a&host=b`)).status).to.equal(400);
      expect((await api.get(`${SF}/lookup?other=1`)).status).to.equal(400);
    });
  });

  describe('GET /v1/storefront/:subdomain', () => {
    it('shows the public face of the store and nothing else', async () => {
      const res = await api.get(`${SF}/${shop.store.subdomain}`);
      expect(res.status).to.equal(200);
      expect(res.body.data).to.have.all.keys('name', 'subdomain', 'currency', 'locale', 'live_theme_id');
      expect(res.headers.get('cache-control')).to.equal('public, max-age=30');
    });

    it('answers an unknown store 404, the same as a missing product', async () => {
      const res = await api.get(`${SF}/no-such-store`);
      expect(res.status).to.equal(404);
      expect(res.body.error.code).to.equal('not_found');
      expect((await api.get(`${SF}/no-such-store/products`)).status).to.equal(404);
      expect((await api.get(`${SF}/no-such-store/collections`)).status).to.equal(404);
    });

    it('reserves the path words it uses as subdomains', async () => {
      for (const subdomain of ['lookup', 'customer', 'cart']) {
        const res = await api.post('/v1/stores', { name: 'X', subdomain }, { token: shop.merchant.token });
        expect(res.status, subdomain).to.equal(400);
        expect(res.body.error.details).to.include('body.subdomain: is reserved');
      }
    });
  });

  describe('GET /v1/storefront/:subdomain/products', () => {
    it('lists only active products of that store, with public fields only', async () => {
      const res = await api.get(`${SF}/${shop.store.subdomain}/products`);
      expect(res.status).to.equal(200);
      expect(res.body.data.map((p: any) => p.handle)).to.deep.equal(['blue-mug', 'apron']);
      expect(res.body.page).to.deep.equal({ next_cursor: null });
      const json = JSON.stringify(res.body);
      expect(json).not.to.match(HIDDEN);
      expect(json).not.to.contain('SECRET-SKU');
      expect(json).not.to.contain('Other Store Mug');
      expect(res.body.data[0]).to.have.all.keys(
        'id',
        'title',
        'handle',
        'description_html',
        'vendor',
        'product_type',
        'tags',
        'options',
        'variants',
        'available',
        'media_ids',
        'price_min',
        'price_max',
        'currency',
        'images',
      );
      expect(res.body.data[0].variants[0]).to.have.all.keys('id', 'title', 'option_values', 'price', 'compare_at_price', 'currency', 'available');
    });

    it('flags availability from stock without showing counts', async () => {
      // Apron tracks stock and never oversells: none anywhere is unavailable.
      let apron = (await api.get(`${SF}/${shop.store.subdomain}/products/apron`)).body.data;
      expect(apron.variants[0].available).to.equal(false);
      expect(apron.available).to.equal(false);
      const location = await api.post('/v1/inventory/locations', { name: 'Warehouse' }, shop.as);
      expect(location.status).to.equal(201);
      const set = await api.post('/v1/inventory/levels/set', { variant_id: apron.variants[0].id, location_id: location.body.data.id, available: 7 }, shop.as);
      expect(set.status, JSON.stringify(set.body)).to.equal(200);
      const res = await api.get(`${SF}/${shop.store.subdomain}/products/apron`);
      apron = res.body.data;
      expect(apron.variants[0].available).to.equal(true);
      expect(JSON.stringify(res.body)).not.to.match(/\b7\b/);
    });

    it('searches with q, sorts and pages with cursors', async () => {
      const found = await api.get(`${SF}/${shop.store.subdomain}/products?q=mug`);
      expect(found.body.data.map((p: any) => p.handle)).to.deep.equal(['blue-mug']);
      const byTitle = await api.get(`${SF}/${shop.store.subdomain}/products?sort=title`);
      expect(byTitle.body.data.map((p: any) => p.handle)).to.deep.equal(['apron', 'blue-mug']);
      const first = await api.get(`${SF}/${shop.store.subdomain}/products?limit=1&sort=-title`);
      expect(first.body.data.map((p: any) => p.handle)).to.deep.equal(['blue-mug']);
      const second = await api.get(`${SF}/${shop.store.subdomain}/products?limit=1&sort=-title&cursor=${first.body.page.next_cursor}`);
      expect(second.body.data.map((p: any) => p.handle)).to.deep.equal(['apron']);
      expect(second.body.page.next_cursor).to.equal(null);
      for (const q of ['sort=updated_at', 'status=draft', 'cursor=nope', 'limit=0', 'q=']) {
        expect((await api.get(`${SF}/${shop.store.subdomain}/products?${q}`)).status, q).to.equal(400);
      }
    });

    it('answers 304 to If-None-Match with the ETag, and a new ETag when the catalog changes', async () => {
      const path = `${SF}/${shop.store.subdomain}/products`;
      const first = await api.get(path);
      const etag = first.headers.get('etag')!;
      expect(etag).to.match(/^W\/"/);
      expect(first.headers.get('cache-control')).to.equal('public, max-age=30');
      const again = await api.get(path, { headers: { 'if-none-match': etag } });
      expect(again.status, `${etag} ${again.headers.get('etag')}`).to.equal(304);
      expect(again.body).to.equal(null);
      await givenProduct(api, shop.as, { title: 'Teapot', handle: 'teapot' });
      const changed = await api.get(path, { headers: { 'if-none-match': etag } });
      expect(changed.status).to.equal(200);
      expect(changed.headers.get('etag')).not.to.equal(etag);
    });
  });

  describe('GET /v1/storefront/:subdomain/products/:handle', () => {
    it("shows an active product and hides drafts, archived products and other stores' products", async () => {
      expect((await api.get(`${SF}/${shop.store.subdomain}/products/blue-mug`)).status).to.equal(200);
      for (const handle of ['draft-mug', 'old-mug', 'other-mug', 'nothing']) {
        expect((await api.get(`${SF}/${shop.store.subdomain}/products/${handle}`)).status, handle).to.equal(404);
      }
      expect((await api.get(`${SF}/${other.store.subdomain}/products/other-mug`)).status).to.equal(200);
    });
  });

  describe('collections', () => {
    it("lists collections with public fields and a collection's active products", async () => {
      const blue = (await api.get(`${SF}/${shop.store.subdomain}/products/blue-mug`)).body.data;
      const draft = (await api.get('/v1/products?query=draft', shop.as)).body.data[0];
      const made = await api.post('/v1/products/collections', { type: 'manual', title: 'Mugs', handle: 'mugs', product_ids: [blue.id, draft.id] }, shop.as);
      expect(made.status, JSON.stringify(made.body)).to.equal(201);
      const list = await api.get(`${SF}/${shop.store.subdomain}/collections`);
      expect(list.status).to.equal(200);
      expect(list.body.data).to.deep.equal([{ id: made.body.data.id, title: 'Mugs', handle: 'mugs', description_html: '' }]);
      const products = await api.get(`${SF}/${shop.store.subdomain}/collections/mugs/products`);
      expect(products.status).to.equal(200);
      expect(products.body.data.map((p: any) => p.handle)).to.deep.equal(['blue-mug']);
      expect((await api.get(`${SF}/${other.store.subdomain}/collections/mugs/products`)).status).to.equal(404);
      expect((await api.get(`${SF}/${other.store.subdomain}/collections`)).body.data).to.deep.equal([]);
    });
  });

  it('no input a client can send is a 500', async () => {
    const pieces = ['', 'x', '%00', '%ff', '..', 'lookup', 'customer', shop.store.subdomain, 'a'.repeat(300), '%7B%7D', '$where', '[]'];
    const queries = ['', '?q=%00', '?sort=$natural', '?limit=99999', '?cursor=eyJ9', '?host=%00', '?subdomain[$ne]=x', '?limit=1e3', '?q=' + 'a'.repeat(300)];
    for (const a of pieces) {
      for (const tail of ['', '/products', '/products/x', '/collections', '/collections/x/products']) {
        for (const q of queries) {
          const res = await api.get(`${SF}/${a}${tail}${q}`);
          expect(res.status, `${a}${tail}${q}`).to.be.below(500);
        }
      }
    }
  });
});
