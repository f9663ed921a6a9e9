import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { png } from '../helpers/images.js';
import { useTestApp } from '../helpers/app.js';
import { counts } from '../helpers/database.js';
import { givenMerchant, givenMerchantWithStore, type GivenMerchant, type GivenStore } from '../helpers/factories.js';
import type { Reply } from '../helpers/http.js';

describe('Catalog (/v1/products, /v1/products/collections)', () => {
  let merchant: GivenMerchant;
  let store: GivenStore;
  let as: { token: string; storeId: string };
  const storageDir = mkdtempSync(join(tmpdir(), 'emporium-catalog-media-'));
  const { app, api } = useTestApp('catalog', { STORAGE_LOCAL_DIR: storageDir });
  before(async () => {
    ({ merchant, store } = await givenMerchantWithStore(api));
    as = { token: merchant.token, storeId: store.id };
  });
  after(() => rmSync(storageDir, { recursive: true, force: true }));

  const shirt = {
    title: 'Linen Shirt',
    description_html: '<p onclick="steal()">Soft <b>linen</b><script>alert(1)</script> <a href="javascript:x()">x</a></p>',
    vendor: 'Acme',
    product_type: 'Shirts',
    tags: ['summer', 'Linen'],
    status: 'active',
    options: [
      { name: 'Size', values: ['S', 'M'] },
      { name: 'Color', values: ['White', 'Blue'] },
    ],
    variants: [
      { option_values: ['S', 'White'], sku: 'LS-S-W', price: 4500 },
      { option_values: ['M', 'White'], sku: 'LS-M-W', price: 4500, compare_at_price: 5000 },
      { option_values: ['M', 'Blue'], sku: 'LS-M-B', price: 4800, inventory_policy: 'continue' },
    ],
  };

  const createProduct = async (body: Record<string, unknown>, who = as): Promise<Reply> => api.post('/v1/products', body, who);

  describe('products', () => {
    it('creates a product with options and variants, a derived handle and sanitised HTML', async () => {
      const res = await createProduct(shirt);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const p = res.body.data;
      expect(p).to.include({ title: 'Linen Shirt', handle: 'linen-shirt', status: 'active', currency: 'USD', price_min: 4500, price_max: 4800 });
      expect(p.description_html).to.equal('<p>Soft <b>linen</b> <a rel="noopener noreferrer">x</a></p>');
      expect(p.variants).to.have.length(3);
      expect(p.variants[1]).to.include({
        title: 'M / White',
        sku: 'LS-M-W',
        price: 4500,
        compare_at_price: 5000,
        inventory_tracked: true,
        inventory_policy: 'deny',
        currency: 'USD',
      });
      expect(p.variants[0].id).to.match(/^[0-9a-f]{24}$/);
      const event = await app.platform.db.collection('events').findOne({ idempotency_key: `product.created:${p.id}` });
      expect(event?.type).to.equal('product.created');
    });

    it('makes derived handles unique and refuses a given handle that is taken', async () => {
      const a = await createProduct({ title: 'Mug', variants: [{ price: 1200 }] });
      const b = await createProduct({ title: 'Mug', variants: [{ price: 1300 }] });
      expect(a.body.data.handle).to.equal('mug');
      expect(b.body.data.handle).to.equal('mug-2');
      const c = await createProduct({ title: 'Other', handle: 'mug', variants: [{ price: 1 }] });
      expect(c.status).to.equal(409);
      expect(c.body.error.code).to.equal('handle_taken');
    });

    it('refuses inconsistent or malformed products and changes nothing', async () => {
      const before = await counts(app.platform.db);
      const bad: [Record<string, unknown>, RegExp][] = [
        [{ title: 'X' }, /body\.variants/],
        [{ title: 'X', variants: [] }, /body\.variants/],
        [{ title: 'X', variants: [{ price: 10.5 }] }, /body\.variants\.0\.price: must be an integer/],
        [{ title: 'X', variants: [{ price: -1 }] }, /body\.variants\.0\.price/],
        [{ title: 'X', variants: [{ price: '10' }] }, /body\.variants\.0\.price/],
        [{ ...shirt, variants: [{ option_values: ['S'], price: 1 }] }, /must give one value for each of the 2 options/],
        [{ ...shirt, variants: [{ option_values: ['XL', 'White'], price: 1 }] }, /"XL" is not a value of option "Size"/],
        [
          {
            ...shirt,
            variants: [
              { option_values: ['S', 'White'], price: 1 },
              { option_values: ['S', 'White'], price: 2 },
            ],
          },
          /same option values/,
        ],
        [
          {
            ...shirt,
            options: [
              { name: 'A', values: ['1'] },
              { name: 'B', values: ['1'] },
              { name: 'C', values: ['1'] },
              { name: 'D', values: ['1'] },
            ],
          },
          /body\.options/,
        ],
        [{ ...shirt, status: 'live' }, /body\.status/],
        [{ ...shirt, handle: 'Not A Handle' }, /body\.handle/],
        [{ ...shirt, inventory: 5 }, /Unrecognized key/],
        [{ title: '', variants: [{ price: 1 }] }, /body\.title/],
      ];
      for (const [body, detail] of bad) {
        const res = await createProduct(body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error.details.join('\n'), JSON.stringify(body)).to.match(detail);
      }
      expect(await counts(app.platform.db)).to.deep.equal(before);
    });

    it('updates fields and variants, keeping the ids of variants it keeps', async () => {
      const created = (await createProduct({ ...shirt, title: 'Update Me' })).body.data;
      const [keep] = created.variants;
      const res = await api.patch(
        `/v1/products/${created.id}`,
        {
          title: 'Updated',
          tags: ['new'],
          variants: [
            { id: keep.id, option_values: ['S', 'White'], sku: 'NEW-SKU', price: 100 },
            { option_values: ['S', 'Blue'], price: 200 },
          ],
        },
        as,
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data.title).to.equal('Updated');
      expect(res.body.data.handle).to.equal(created.handle);
      expect(res.body.data.variants.map((v: { id: string }) => v.id)[0]).to.equal(keep.id);
      expect(res.body.data.variants[1].id).to.not.be.oneOf(created.variants.map((v: { id: string }) => v.id));
      expect(res.body.data).to.include({ price_min: 100, price_max: 200 });
      const event = await app.platform.db.collection('events').findOne({ idempotency_key: `product.updated:${created.id}:v2` });
      expect(event?.payload.changed).to.have.members(['title', 'tags', 'variants']);
    });

    it("refuses variant ids that are not the product's, and option changes the variants do not fit", async () => {
      const created = (await createProduct({ ...shirt, title: 'Strict' })).body.data;
      const other = (await createProduct({ title: 'Other', variants: [{ price: 1 }] })).body.data;
      const foreign = await api.patch(`/v1/products/${created.id}`, { variants: [{ id: other.variants[0].id, option_values: ['S', 'White'], price: 1 }] }, as);
      expect(foreign.status).to.equal(400);
      expect(foreign.body.error.details.join()).to.match(/is not a variant of this product/);
      const options = await api.patch(`/v1/products/${created.id}`, { options: [{ name: 'Size', values: ['S'] }] }, as);
      expect(options.status).to.equal(400);
      expect((await api.get(`/v1/products/${created.id}`, as)).body.data).to.deep.equal(created);
    });

    it('refuses to rename a handle to one that is taken, with 409', async () => {
      const a = (await createProduct({ title: 'Handle A', variants: [{ price: 1 }] })).body.data;
      const b = (await createProduct({ title: 'Handle B', variants: [{ price: 1 }] })).body.data;
      const res = await api.patch(`/v1/products/${b.id}`, { handle: a.handle }, as);
      expect(res.status).to.equal(409);
      expect(res.body.error.code).to.equal('handle_taken');
      expect((await api.get(`/v1/products/${b.id}`, as)).body.data.handle).to.equal('handle-b');
    });

    it("links the store's own media and refuses media ids that are not the store's", async () => {
      const upload = async (who: { token: string; storeId: string }) => {
        const form = new FormData();
        form.append('file', new Blob([png()], { type: 'image/png' }), 'p.png');
        const res = await fetch(`${app.url}/v1/media`, {
          method: 'POST',
          headers: { authorization: `Bearer ${who.token}`, 'x-store-id': who.storeId },
          body: form,
        });
        return ((await res.json()) as { data: { id: string } }).data.id;
      };
      const mine = await upload(as);
      const other = await givenMerchantWithStore(api);
      const theirs = await upload({ token: other.merchant.token, storeId: other.store.id });
      const ok = await createProduct({ title: 'With media', variants: [{ price: 1 }], media_ids: [mine] });
      expect(ok.status).to.equal(201);
      expect(ok.body.data.media_ids).to.deep.equal([mine]);
      for (const ids of [[theirs], ['000000000000000000000000']]) {
        const res = await createProduct({ title: 'Bad media', variants: [{ price: 1 }], media_ids: ids });
        expect(res.status).to.equal(400);
        expect(res.body.error.details.join()).to.match(/is not a media item of this store/);
        expect((await api.patch(`/v1/products/${ok.body.data.id}`, { media_ids: ids }, as)).status).to.equal(400);
      }
    });

    it('deletes a product', async () => {
      const created = (await createProduct({ title: 'Gone', variants: [{ price: 1 }] })).body.data;
      const kept = (await createProduct({ title: 'Kept', variants: [{ price: 1 }] })).body.data;
      const picks = (await api.post('/v1/products/collections', { type: 'manual', title: 'Picks with gone', product_ids: [kept.id, created.id] }, as)).body
        .data;
      expect((await api.delete(`/v1/products/${created.id}`, as)).status).to.equal(204);
      expect((await api.get(`/v1/products/${created.id}`, as)).status).to.equal(404);
      expect((await api.delete(`/v1/products/${created.id}`, as)).status).to.equal(404);
      expect(await app.platform.db.collection('events').countDocuments({ idempotency_key: `product.deleted:${created.id}` })).to.equal(1);
      expect((await api.get(`/v1/products/collections/${picks.id}`, as)).body.data.product_ids).to.deep.equal([kept.id]);
    });

    it('replays a create retried with the same Idempotency-Key', async () => {
      const headers = { 'idempotency-key': 'product-create-1' };
      const body = { title: 'Once Only', variants: [{ price: 1 }] };
      const a = await api.post('/v1/products', body, { ...as, headers });
      const b = await api.post('/v1/products', body, { ...as, headers });
      expect(b.body).to.deep.equal(a.body);
      expect(await app.platform.db.collection('products').countDocuments({ title: 'Once Only' })).to.equal(1);

      // The same key and body for another of the merchant's stores is another request.
      const second = await api.post('/v1/stores', { name: 'Second', subdomain: `second-${Date.now()}` }, { token: merchant.token });
      const c = await api.post('/v1/products', body, { token: merchant.token, storeId: second.body.data.id, headers });
      expect(c.status).to.equal(201);
      expect(c.body.data.id).to.not.equal(a.body.data.id);
      expect(c.headers.get('idempotent-replayed')).to.equal(null);
    });
  });

  describe('listing products', () => {
    let who: { token: string; storeId: string };
    before(async () => {
      const m = await givenMerchantWithStore(api);
      who = { token: m.merchant.token, storeId: m.store.id };
      const items = [
        { title: 'Alpha Tee', tags: ['tee'], status: 'active', variants: [{ sku: 'A-1', price: 1000 }] },
        { title: 'Bravo Hoodie', tags: ['winter'], status: 'draft', vendor: 'North', variants: [{ sku: 'B-1', price: 6000 }] },
        { title: 'Charlie Tee', tags: ['tee', 'sale'], status: 'active', variants: [{ sku: 'C-1', price: 800 }] },
        { title: 'Delta Cap', tags: [], status: 'archived', vendor: 'North', variants: [{ sku: 'D-1', price: 2500 }] },
        { title: 'Echo Tee', tags: ['tee'], status: 'active', variants: [{ sku: 'E-1', price: 1500 }] },
      ];
      for (const item of items) expect((await createProduct(item, who)).status).to.equal(201);
    });

    async function walk(query: string, limit = 2): Promise<string[]> {
      const titles: string[] = [];
      let cursor: string | null = null;
      for (let i = 0; i < 20; i++) {
        const res: Reply = await api.get(`/v1/products?limit=${limit}&${query}${cursor ? `&cursor=${cursor}` : ''}`, who);
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        titles.push(...res.body.data.map((p: { title: string }) => p.title));
        cursor = res.body.page.next_cursor;
        if (!cursor) return titles;
      }
      throw new Error('too many pages');
    }

    it('pages through every product in each sort order', async () => {
      expect(await walk('sort=created_at')).to.deep.equal(['Alpha Tee', 'Bravo Hoodie', 'Charlie Tee', 'Delta Cap', 'Echo Tee']);
      expect(await walk('sort=-created_at')).to.deep.equal(['Echo Tee', 'Delta Cap', 'Charlie Tee', 'Bravo Hoodie', 'Alpha Tee']);
      expect(await walk('sort=title')).to.deep.equal(['Alpha Tee', 'Bravo Hoodie', 'Charlie Tee', 'Delta Cap', 'Echo Tee']);
      expect(await walk('sort=-title', 3)).to.deep.equal(['Echo Tee', 'Delta Cap', 'Charlie Tee', 'Bravo Hoodie', 'Alpha Tee']);
      expect(await walk('sort=updated_at')).to.have.length(5);
    });

    it('filters by status, query (title, handle, SKU, tag) and updated_since', async () => {
      expect(await walk('status=active')).to.deep.equal(['Alpha Tee', 'Charlie Tee', 'Echo Tee']);
      expect(await walk('query=TEE')).to.deep.equal(['Alpha Tee', 'Charlie Tee', 'Echo Tee']);
      expect(await walk('query=c-1')).to.deep.equal(['Charlie Tee']);
      expect(await walk('query=sale')).to.deep.equal(['Charlie Tee']);
      expect(await walk('query=bravo-h')).to.deep.equal(['Bravo Hoodie']);
      expect(await walk('query=' + encodeURIComponent('.*'))).to.deep.equal([]);
      expect(await walk(`updated_since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).to.deep.equal([]);
      expect(await walk('status=active&query=echo')).to.deep.equal(['Echo Tee']);
    });

    it('refuses bad list queries', async () => {
      for (const q of ['status=live', 'sort=price', 'limit=0', 'limit=251', 'cursor=abc', 'updated_since=yesterday', 'collection_id=xyz', 'color=red']) {
        const res = await api.get(`/v1/products?${q}`, who);
        expect(res.status, q).to.equal(400);
      }
    });

    it('filters by collection, manual and rule', async () => {
      const all = (await api.get('/v1/products?limit=50', who)).body.data as { id: string; title: string }[];
      const byTitle = (t: string) => all.find((p) => p.title === t)!.id;
      const manual = await api.post(
        '/v1/products/collections',
        { type: 'manual', title: 'Picks', product_ids: [byTitle('Echo Tee'), byTitle('Alpha Tee')] },
        who,
      );
      expect(manual.status, JSON.stringify(manual.body)).to.equal(201);
      expect(manual.body.data.product_ids).to.deep.equal([byTitle('Echo Tee'), byTitle('Alpha Tee')]);
      expect(await walk(`collection_id=${manual.body.data.id}`)).to.deep.equal(['Alpha Tee', 'Echo Tee']);

      const tees = await api.post(
        '/v1/products/collections',
        {
          type: 'rule',
          title: 'Cheap tees',
          rules: {
            match: 'all',
            conditions: [
              { field: 'tag', relation: 'equals', value: 'TEE' },
              { field: 'price', relation: 'less_than', value: 1200 },
            ],
          },
        },
        who,
      );
      expect(tees.status, JSON.stringify(tees.body)).to.equal(201);
      expect(await walk(`collection_id=${tees.body.data.id}`)).to.deep.equal(['Alpha Tee', 'Charlie Tee']);

      const north = await api.post(
        '/v1/products/collections',
        {
          type: 'rule',
          title: 'North or pricey',
          rules: {
            match: 'any',
            conditions: [
              { field: 'vendor', relation: 'equals', value: 'north' },
              { field: 'price', relation: 'greater_than', value: 1400 },
            ],
          },
        },
        who,
      );
      expect(await walk(`collection_id=${north.body.data.id}`)).to.deep.equal(['Bravo Hoodie', 'Delta Cap', 'Echo Tee']);
      expect(await walk(`collection_id=${north.body.data.id}&status=active`)).to.deep.equal(['Echo Tee']);

      // Membership follows the products: retag one and it joins.
      await api.patch(`/v1/products/${byTitle('Delta Cap')}`, { tags: ['tee'], variants: [{ sku: 'D-1', price: 900 }] }, who);
      expect(await walk(`collection_id=${tees.body.data.id}`)).to.deep.equal(['Alpha Tee', 'Charlie Tee', 'Delta Cap']);
    });
  });

  describe('collections', () => {
    it('creates, reads, updates, lists and deletes collections', async () => {
      const p = (await createProduct({ title: 'In Collection', variants: [{ price: 1 }] })).body.data;
      const created = await api.post(
        '/v1/products/collections',
        { type: 'manual', title: 'Summer Picks', description_html: '<p>Hi<img src=x onerror=alert(1)></p>' },
        as,
      );
      expect(created.status).to.equal(201);
      expect(created.body.data).to.include({ handle: 'summer-picks', type: 'manual', description_html: '<p>Hi<img src="x" /></p>' });
      const id = created.body.data.id;
      const updated = await api.patch(`/v1/products/collections/${id}`, { title: 'Summer', product_ids: [p.id] }, as);
      expect(updated.status).to.equal(200);
      expect(updated.body.data).to.include({ title: 'Summer', handle: 'summer-picks' });
      expect(updated.body.data.product_ids).to.deep.equal([p.id]);
      expect((await api.get(`/v1/products/collections/${id}`, as)).body.data.title).to.equal('Summer');
      const list = await api.get('/v1/products/collections', as);
      expect(list.body.data.map((c: { id: string }) => c.id)).to.include(id);
      expect((await api.delete(`/v1/products/collections/${id}`, as)).status).to.equal(204);
      expect((await api.get(`/v1/products/collections/${id}`, as)).status).to.equal(404);
      const types = (await app.platform.db.collection('events').find({ 'payload.collection.id': id }).toArray()).map((e) => e.type);
      expect(types).to.deep.equal(['collection.created', 'collection.updated', 'collection.deleted']);
    });

    it('refuses bad collections and changes nothing', async () => {
      const rule = (
        await api.post(
          '/v1/products/collections',
          { type: 'rule', title: 'Rule', rules: { conditions: [{ field: 'tag', relation: 'equals', value: 'x' }] } },
          as,
        )
      ).body.data;
      const manual = (await api.post('/v1/products/collections', { type: 'manual', title: 'Manual' }, as)).body.data;
      const before = await counts(app.platform.db);
      const cases: [string, string, Record<string, unknown>][] = [
        ['POST', '/v1/products/collections', { type: 'smart', title: 'X' }],
        ['POST', '/v1/products/collections', { type: 'manual', title: 'X', rules: { conditions: [] } }],
        ['POST', '/v1/products/collections', { type: 'rule', title: 'X', rules: { conditions: [] } }],
        ['POST', '/v1/products/collections', { type: 'rule', title: 'X', rules: { conditions: [{ field: 'price', relation: 'equals', value: 1 }] } }],
        ['POST', '/v1/products/collections', { type: 'rule', title: 'X', rules: { conditions: [{ field: 'color', relation: 'equals', value: 'red' }] } }],
        ['POST', '/v1/products/collections', { type: 'manual', title: 'X', product_ids: ['000000000000000000000000'] }],
        ['PATCH', `/v1/products/collections/${rule.id}`, { product_ids: [] }],
        ['PATCH', `/v1/products/collections/${manual.id}`, { rules: { conditions: [{ field: 'tag', relation: 'equals', value: 'x' }] } }],
        ['PATCH', `/v1/products/collections/${manual.id}`, {}],
      ];
      for (const [method, path, body] of cases) {
        const res = await api.send(method, path, body, as);
        expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).to.equal(400);
      }
      expect(await counts(app.platform.db)).to.deep.equal(before);
    });
  });

  describe('isolation between stores', () => {
    it("answers 404 for another store's products and collections, and 403 for a store the caller does not own", async () => {
      const victim = await givenMerchantWithStore(api);
      const theirs = { token: victim.merchant.token, storeId: victim.store.id };
      const product = (await createProduct({ title: 'Private', variants: [{ price: 1 }] }, theirs)).body.data;
      const collection = (await api.post('/v1/products/collections', { type: 'manual', title: 'Private', product_ids: [product.id] }, theirs)).body.data;

      // The attacker uses their own store's id with the victim's resource ids.
      expect((await api.get(`/v1/products/${product.id}`, as)).status).to.equal(404);
      expect((await api.patch(`/v1/products/${product.id}`, { title: 'Mine' }, as)).status).to.equal(404);
      expect((await api.delete(`/v1/products/${product.id}`, as)).status).to.equal(404);
      expect((await api.get(`/v1/products/collections/${collection.id}`, as)).status).to.equal(404);
      expect((await api.patch(`/v1/products/collections/${collection.id}`, { title: 'Mine' }, as)).status).to.equal(404);
      expect((await api.delete(`/v1/products/collections/${collection.id}`, as)).status).to.equal(404);
      expect((await api.get(`/v1/products?collection_id=${collection.id}`, as)).status).to.equal(404);
      const steal = await api.post('/v1/products/collections', { type: 'manual', title: 'Steal', product_ids: [product.id] }, as);
      expect(steal.status).to.equal(400);
      const listed = (await api.get('/v1/products?limit=250', as)).body.data.map((p: { id: string }) => p.id);
      expect(listed).to.not.include(product.id);

      // Naming the victim's store outright.
      const forStore = { token: merchant.token, storeId: victim.store.id };
      expect((await api.get('/v1/products', forStore)).status).to.equal(403);
      expect((await api.get(`/v1/products/${product.id}`, forStore)).status).to.equal(403);
      expect((await api.post('/v1/products', { title: 'X', variants: [{ price: 1 }] }, forStore)).status).to.equal(403);

      expect((await api.get(`/v1/products/${product.id}`, theirs)).body.data.title).to.equal('Private');
    });

    it('needs a session and a store', async () => {
      const m = await givenMerchant(api);
      expect((await api.get('/v1/products', { storeId: store.id })).status).to.equal(401);
      expect((await api.get('/v1/products', { token: m.token })).status).to.equal(400);
    });
  });
});
