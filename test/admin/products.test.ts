import { expect } from 'chai';
import { AdminBrowser, signedInAdmin } from '../helpers/admin.js';
import { useTestApp } from '../helpers/app.js';
import { givenLocation, givenProduct, givenStockedVariant } from '../helpers/catalog.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { png } from '../helpers/images.js';
import { s3Env } from '../helpers/s3.js';

/**
 * The admin's Products (docs/admin.md, Products): the list (filters, pages over the API's
 * cursors, stock and price range, the empty state), New product and a product's page through the
 * catalog service (options and variants, the description through the sanitiser), Archive and
 * Delete after a confirm step. Refusals: another merchant's store or product (404, nothing
 * changed), a missing or cross-site token, errors at their fields with the input kept, a refusal
 * of the service as a message, markup in a title shown escaped. Images go to the real S3 server
 * of the test run (SeaweedFS), with a small size limit.
 */
describe('Admin: Products', () => {
  const MAX_BYTES = 16 * 1024;
  const { app, api } = useTestApp('admin_products', () => ({ ...s3Env(), MEDIA_MAX_BYTES: String(MAX_BYTES) }));
  let shop: GivenMerchantWithStore;
  let browser: AdminBrowser;
  const products = (path = '') => `/admin/stores/${shop.store.id}/products${path}`;
  const product = async (id: string) => api.get(`/v1/products/${id}`, shop.as);
  const titles = (html: string) => [...html.matchAll(/<a href="\/admin\/stores\/\w+\/products\/\w{24}">([^<]*)<\/a>/g)].map((m) => m[1]);

  before(async () => {
    shop = await givenMerchantWithStore(api);
    browser = await signedInAdmin(app, shop.merchant);
  });

  it('says to add a product when there is none', async () => {
    const list = await browser.get(products());
    expect(list.status).to.equal(200);
    expect(list.html)
      .to.contain('No products yet')
      .and.contain(`href="${products('/new')}"`)
      .and.contain('aria-current="page">Products');
  });

  it('lists products with status, stock and price range, filters and sorts them as the API does, and pages through them', async () => {
    const location = await givenLocation(api, shop.as);
    const stocked = await givenStockedVariant(api, shop.as, location, 7, 1200);
    await givenProduct(api, shop.as, {
      title: 'Tee <script>x</script>',
      status: 'draft',
      tags: ['summer'],
      options: [{ name: 'Size', values: ['S', 'M'] }],
      variants: [
        { option_values: ['S'], price: 1500, inventory_tracked: false },
        { option_values: ['M'], price: 1800, inventory_tracked: false },
      ],
    });
    const list = await browser.get(products());
    expect(list.status).to.equal(200);
    expect(titles(list.html)).to.have.length(2);
    expect(list.html).to.contain('Tee &lt;script&gt;x&lt;/script&gt;').and.not.contain('<script>x</script>');
    expect(list.html).to.contain('$15.00 – $18.00').and.contain('7 in stock').and.contain('badge--warn">draft').and.contain('badge--ok">active');

    const drafts = await browser.get(products('?status=draft'));
    expect(titles(drafts.html)).to.deep.equal(['Tee &lt;script&gt;x&lt;/script&gt;']);
    expect((await browser.get(products('?query=summer'))).html).to.contain('Tee &lt;script&gt;');
    expect((await browser.get(products('?query=nothing-like-it'))).html).to.contain('No product matches these filters.');
    const az = await browser.get(products('?sort=title'));
    expect(titles(az.html)[0]).to.match(/^Item /);

    const one = await browser.get(products('?limit=1&sort=title'));
    const next = /rel="next" href="([^"]+)"/.exec(one.html)![1]!.replace(/&amp;/g, '&');
    const two = await browser.get(next);
    expect(titles(two.html)).to.deep.equal(['Tee &lt;script&gt;x&lt;/script&gt;']);
    expect(two.html).to.contain('rel="prev"');
    expect((await browser.get(products('?status=gone'))).status).to.equal(400);
    void stocked;
  });

  it('creates a product with two variants, keeps the input of a refused form, and sanitises the description', async () => {
    const bad = await browser.submit(products('/new'), products('/new'), {
      variant_rows: '2',
      title: '',
      description_html: '<p>Soft</p>',
      v0_options: 'S',
      v0_price: '12.345',
      v1_options: 'M',
      v1_price: '13',
      options: 'Size: S, M',
    });
    expect(bad.status).to.equal(400);
    expect(bad.html).to.match(/id="f-v0_price-error"[^>]*>must be an amount such as 12.50/);
    expect(bad.html).to.contain('value="12.345"').and.contain('&lt;p&gt;Soft&lt;/p&gt;');

    const made = await browser.submit(products('/new'), products('/new'), {
      variant_rows: '2',
      title: 'Hoodie',
      status: 'active',
      description_html: '<p>Soft</p><script>alert(1)</script>',
      options: 'Size: S, M',
      v0_options: 'S',
      v0_price: '40',
      v0_sku: 'HD-S',
      v0_tracked: 'on',
      v1_options: 'M',
      v1_price: '42.50',
      v1_compare_at: '50',
    });
    expect(made.status, made.html.slice(0, 2000)).to.equal(303);
    const id = /\/products\/(\w{24})$/.exec(made.location!)![1]!;
    const saved = (await product(id)).body.data;
    expect(saved).to.include({ title: 'Hoodie', status: 'active', description_html: '<p>Soft</p>' });
    expect(saved.variants.map((v: any) => [v.option_values, v.price, v.compare_at_price, v.sku, v.inventory_tracked])).to.deep.equal([
      [['S'], 4000, null, 'HD-S', true],
      [['M'], 4250, 5000, null, false],
    ]);
    const page = await browser.get(made.location!);
    expect(page.html).to.contain('Product “Hoodie” created.').and.contain('value="42.50"').and.contain('value="HD-S"');
  });

  it('edits a product, keeping its variants’ ids, adds and removes variants, and shows a catalog refusal as a message', async () => {
    const p = await givenProduct(api, shop.as, { title: 'Cap', variants: [{ price: 900, sku: 'CAP-1' }] });
    const at = products(`/${p.id}`);
    const edited = await browser.submit(at, at, {
      variant_rows: '2',
      title: 'Cap <b>new</b>',
      status: 'active',
      tags: 'hats, summer',
      vendor: 'Acme',
      options: 'Colour: Red, Blue',
      v0_id: p.variants[0].id,
      v0_options: 'Red',
      v0_price: '9.50',
      v0_sku: 'CAP-1',
      v0_tracked: 'on',
      v1_options: 'Blue',
      v1_price: '11',
      v1_sku: 'CAP-2',
    });
    expect(edited.status, /role="alert"[^]*?<\/div>/.exec(edited.html)?.[0]).to.equal(303);
    const after = (await product(p.id)).body.data;
    expect(after).to.include({ title: 'Cap <b>new</b>', vendor: 'Acme' });
    expect(after.tags).to.deep.equal(['hats', 'summer']);
    expect(after.variants[0]).to.include({ id: p.variants[0].id, price: 950 });
    expect(after.variants[1]).to.include({ price: 1100, sku: 'CAP-2' });
    const page = await browser.get(at);
    expect(page.html).to.contain('<h1>Cap &lt;b&gt;new&lt;/b&gt;</h1>').and.contain('Product saved.');

    // Two variants with the same option values: the catalog's refusal, at the row's field, input kept.
    const refused = await browser.submit(at, at, {
      variant_rows: '2',
      title: 'Cap',
      options: 'Colour: Red, Blue',
      v0_id: after.variants[0].id,
      v0_options: 'Red',
      v0_price: '9.50',
      v1_id: after.variants[1].id,
      v1_options: 'Red',
      v1_price: '11',
    });
    expect(refused.status).to.equal(409);
    expect(refused.html).to.match(/id="f-v1_options-error"[^>]*>another variant has the same option values/);
    expect(refused.html).to.contain('value="Cap"');
    expect((await product(p.id)).body.data.title).to.equal('Cap <b>new</b>');

    const removed = await browser.submit(at, at, {
      variant_rows: '3',
      title: 'Cap',
      options: 'Colour: Red, Blue',
      v0_id: after.variants[0].id,
      v0_options: 'Red',
      v0_price: '9.50',
      v1_id: after.variants[1].id,
      v1_options: 'Blue',
      v1_price: '11',
      v1_remove: 'on',
    });
    expect(removed.status, /role="alert"[^]*?<\/div>/.exec(removed.html)?.[0]).to.equal(303);
    expect((await product(p.id)).body.data.variants.map((v: any) => v.id)).to.deep.equal([after.variants[0].id]);
  });

  it('sets and adjusts stock per location, and shows the inventory service’s refusal', async () => {
    const location = await givenLocation(api, shop.as, 'Back room');
    const p = await givenProduct(api, shop.as, { title: 'Lamp', variants: [{ price: 3000, sku: 'LAMP' }] });
    const variant = p.variants[0].id as string;
    const at = products(`/${p.id}`);
    const level = async () => (await api.get(`/v1/inventory/levels?variant_id=${variant}&location_id=${location}`, shop.as)).body.data[0]?.available;
    const set = await browser.submit(at, `${at}/stock`, { variant_id: variant, location_id: location, mode: 'set', quantity: '12' });
    expect([set.status, set.location]).to.deep.equal([303, `${at}#stock`]);
    expect(await level()).to.equal(12);
    expect((await browser.submit(at, `${at}/stock`, { variant_id: variant, location_id: location, mode: 'adjust', quantity: '-5' })).status).to.equal(303);
    expect(await level()).to.equal(7);
    const page = await browser.get(at);
    expect(page.html).to.contain('Stock updated: 7 for sale.').and.contain('Back room').and.contain('7 for sale');

    const over = await browser.submit(at, `${at}/stock`, { variant_id: variant, location_id: location, mode: 'adjust', quantity: '-50' });
    expect(over.status).to.equal(409);
    expect(over.html).to.contain('Only 7 in stock at this location').and.contain('value="-50"');
    const bad = await browser.submit(at, `${at}/stock`, { variant_id: variant, location_id: location, mode: 'set', quantity: 'lots' });
    expect(bad.status).to.equal(400);
    expect(bad.html).to.match(/id="f-quantity-error"[^>]*>must be a whole number/);
    const foreign = await browser.submit(at, `${at}/stock`, { variant_id: p.id, location_id: location, mode: 'set', quantity: '1' });
    expect(foreign.status).to.equal(400);
    expect(await level()).to.equal(7);
  });

  it('adds a product to a manual collection from its page and removes it, naming automatic ones, and refuses another store’s collection', async () => {
    const p = await givenProduct(api, shop.as, { title: 'Beach towel' });
    const at = products(`/${p.id}`);
    const make = async (body: Record<string, unknown>) => (await api.post('/v1/products/collections', body, shop.as)).body.data.id as string;
    const summer = await make({ type: 'manual', title: 'Summer <b>picks</b>' });
    await make({ type: 'rule', title: 'Towels', rules: { match: 'all', conditions: [{ field: 'tag', relation: 'equals', value: 'towel' }] } });
    const members = async (id: string) => (await api.get(`/v1/products/collections/${id}`, shop.as)).body.data.product_ids as string[];

    const page = await browser.get(at);
    expect(page.html).to.contain('In no manual collection.').and.contain('Summer &lt;b&gt;picks&lt;/b&gt;').and.contain('Automatic collections (Towels)');
    const added = await browser.submit(at, `${at}/collections`, { add: summer });
    expect([added.status, added.location]).to.deep.equal([303, at]);
    expect(await members(summer)).to.deep.equal([p.id]);
    const after = await browser.get(at);
    expect(after.html).to.contain('Added to Summer &lt;b&gt;picks&lt;/b&gt;.').and.contain(`href="/admin/stores/${shop.store.id}/collections/${summer}"`);
    expect((await browser.submit(at, `${at}/collections`, { remove: summer })).status).to.equal(303);
    expect(await members(summer)).to.deep.equal([]);

    const other = await givenMerchantWithStore(api);
    const theirs = (await api.post('/v1/products/collections', { type: 'manual', title: 'Theirs' }, other.as)).body.data.id as string;
    expect((await browser.submit(at, `${at}/collections`, { add: theirs })).status).to.equal(404);
    expect((await browser.submit(at, `${at}/collections`, { add: 'not-an-id' })).status).to.equal(404);
    expect(await members(summer)).to.deep.equal([]);
    expect((await api.get(`/v1/products/collections/${theirs}`, other.as)).body.data.product_ids).to.deep.equal([]);
  });

  it('archives and deletes a product after a confirm step', async () => {
    const p = await givenProduct(api, shop.as, { title: 'Old stock' });
    const at = products(`/${p.id}`);
    const confirm = await browser.get(`${at}/archive`);
    expect(confirm.status).to.equal(200);
    expect(confirm.html).to.contain('Archive “Old stock”?').and.contain(`action="${at}/archive"`);
    const archived = await browser.post(`${at}/archive`, { csrf_token: AdminBrowser.csrfOf(confirm) });
    expect([archived.status, archived.location]).to.deep.equal([303, at]);
    expect((await product(p.id)).body.data.status).to.equal('archived');

    const sure = await browser.get(`${at}/delete`);
    const deleted = await browser.post(`${at}/delete`, { csrf_token: AdminBrowser.csrfOf(sure) });
    expect([deleted.status, deleted.location]).to.deep.equal([303, products()]);
    expect((await product(p.id)).status).to.equal(404);
    expect((await browser.get(at)).status).to.equal(404);
  });

  it('refuses another merchant, another store’s product, a missing or cross-site token, changing nothing', async () => {
    const p = await givenProduct(api, shop.as, { title: 'Mine' });
    const at = products(`/${p.id}`);
    const other = await givenMerchantWithStore(api);
    const stranger = await signedInAdmin(app, other.merchant);
    const theirs = await stranger.get(at);
    expect(theirs.status).to.equal(404);
    expect(theirs.html).to.not.contain('Mine');
    expect((await stranger.get(products())).status).to.equal(404);
    const strangerCsrf = AdminBrowser.csrfOf(await stranger.get('/admin/stores/new'));
    expect((await stranger.post(at, { csrf_token: strangerCsrf, title: 'Theirs', variant_rows: '1' })).status).to.equal(404);
    expect((await stranger.post(`${at}/delete`, { csrf_token: strangerCsrf })).status).to.equal(404);
    // The product in the stranger's own store's path: not theirs either.
    const own = `/admin/stores/${other.store.id}/products/${p.id}`;
    expect((await stranger.get(own)).status).to.equal(404);
    expect((await stranger.post(`${own}/delete`, { csrf_token: strangerCsrf })).status).to.equal(404);
    expect((await stranger.get(`/admin/stores/${other.store.id}/products/not-an-id`)).status).to.equal(404);

    const csrf = AdminBrowser.csrfOf(await browser.get(at));
    for (const [fields, headers] of [
      [{ title: 'X' }, {}],
      [{ title: 'X', csrf_token: strangerCsrf }, {}],
      [{ title: 'X', csrf_token: csrf }, { 'sec-fetch-site': 'cross-site' }],
      [{ title: 'X', csrf_token: csrf }, { origin: 'https://evil.example' }],
    ] as const) {
      expect((await browser.post(at, fields, headers)).status, JSON.stringify(fields)).to.equal(403);
    }
    expect((await browser.get(at, { authorization: `Bearer ${shop.merchant.token}` })).status).to.equal(403);
    expect((await product(p.id)).body.data.title).to.equal('Mine');
  });
  describe('images', () => {
    const mediaOf = async (id: string): Promise<string[]> => (await product(id)).body.data.media_ids;
    const storedMedia = async (as = shop.as): Promise<string[]> => (await api.get('/v1/media?limit=250', as)).body.data.map((m: { id: string }) => m.id);
    const uploadTo = async (at: string, fields: Record<string, string>, file: Parameters<AdminBrowser['upload']>[2], headers: Record<string, string> = {}) =>
      browser.upload(`${at}/images`, { csrf_token: AdminBrowser.csrfOf(await browser.get(at)), ...fields }, file, headers);
    const imageUrl = (html: string, mediaId: string) => new RegExp(`<img src="([^"]*${mediaId}[^"]*)"`).exec(html)?.[1]?.replace(/&amp;/g, '&');

    it('uploads a PNG through the admin, shows it on Products and serves it from storage; saves alt text, reorders and removes images', async () => {
      const p = await givenProduct(api, shop.as, { title: 'Pictured tee' });
      const at = products(`/${p.id}`);
      expect((await browser.get(at)).html).to.contain('No images yet');
      const front = png(40, 30);
      const uploaded = await uploadTo(at, { alt: 'Front <b>view</b>' }, { bytes: front, filename: 'front.png', type: 'image/png' });
      expect([uploaded.status, uploaded.location]).to.deep.equal([303, `${at}#images`]);
      const [first] = await mediaOf(p.id);
      const m = (await api.get(`/v1/media/${first}`, shop.as)).body.data;
      expect(m).to.include({ filename: 'front.png', content_type: 'image/png', width: 40, height: 30, alt: 'Front <b>view</b>' });

      const page = await browser.get(at);
      expect(page.html).to.contain('Image “front.png” uploaded.').and.contain('Main image').and.contain('alt="Front &lt;b&gt;view&lt;/b&gt;"');
      const served = await fetch(imageUrl(page.html, first!)!);
      expect([served.status, served.headers.get('content-type')]).to.deep.equal([200, 'image/png']);
      expect(Buffer.from(await served.arrayBuffer()).equals(front)).to.equal(true);
      const list = await browser.get(products());
      const listed = await fetch(imageUrl(list.html, first!)!);
      expect(listed.status, 'the list shows the first image').to.equal(200);

      expect((await uploadTo(at, {}, { bytes: png(8, 8), filename: 'back.png' })).status).to.equal(303);
      const [, second] = await mediaOf(p.id);
      const csrf = AdminBrowser.csrfOf(await browser.get(at));
      const moved = await browser.post(`${at}/images/${second}/move`, { csrf_token: csrf, to: 'up' });
      expect([moved.status, moved.location]).to.deep.equal([303, `${at}#images`]);
      expect(await mediaOf(p.id)).to.deep.equal([second, first]);
      expect((await browser.post(`${at}/images/${second}/move`, { csrf_token: csrf, to: 'up' })).status, 'already first').to.equal(303);
      expect(await mediaOf(p.id)).to.deep.equal([second, first]);

      // New alt text: the same file again with it, in the old one's place; the old media is gone.
      expect((await browser.post(`${at}/images/${first}`, { csrf_token: csrf, alt: 'Front view' })).status).to.equal(303);
      const [stillSecond, renamed] = await mediaOf(p.id);
      expect(stillSecond).to.equal(second);
      expect(renamed).to.not.equal(first);
      expect((await api.get(`/v1/media/${renamed}`, shop.as)).body.data).to.include({ filename: 'front.png', alt: 'Front view', size: front.length });
      expect((await api.get(`/v1/media/${first}`, shop.as)).status).to.equal(404);
      const long = await browser.post(`${at}/images/${renamed}`, { csrf_token: csrf, alt: 'x'.repeat(501) });
      expect(long.status).to.equal(400);
      expect(long.html).to.contain('must be at most 500 characters').and.contain('x'.repeat(501));
      expect(await mediaOf(p.id)).to.deep.equal([second, renamed]);

      const confirm = await browser.get(`${at}/images/${second}/remove`);
      expect(confirm.status).to.equal(200);
      expect(confirm.html).to.contain('Remove image 1 of “Pictured tee”?').and.contain('Remove the image');
      const removed = await browser.post(`${at}/images/${second}/remove`, { csrf_token: AdminBrowser.csrfOf(confirm) });
      expect([removed.status, removed.location]).to.deep.equal([303, `${at}#images`]);
      expect(await mediaOf(p.id)).to.deep.equal([renamed]);
      expect((await api.get(`/v1/media/${second}`, shop.as)).status).to.equal(404);
      expect(await storedMedia())
        .to.include(renamed)
        .and.not.include(second);
    });

    it('says at the field that a text file, an oversize image or no file cannot be uploaded, storing nothing', async () => {
      const p = await givenProduct(api, shop.as, { title: 'Refused pictures' });
      const at = products(`/${p.id}`);
      const before = await storedMedia();
      const text = await uploadTo(at, { alt: 'kept' }, { bytes: Buffer.from('just text, named as a picture'), filename: 'fake.png', type: 'image/png' });
      expect(text.status).to.equal(415);
      expect(text.html).to.contain('must be a PNG, JPEG, GIF or WebP image').and.contain('aria-invalid="true"').and.contain('value="kept"');
      const big = await uploadTo(at, {}, { bytes: png(4, 4, MAX_BYTES), filename: 'big.png' });
      expect(big.status).to.equal(413);
      expect(big.html).to.contain('is larger than 16 KB');
      const none = await uploadTo(at, {}, null);
      expect(none.status).to.equal(400);
      expect(none.html).to.contain('choose an image file');
      expect(await storedMedia()).to.deep.equal(before);
      expect(await mediaOf(p.id)).to.deep.equal([]);
    });

    it('refuses another merchant, another product’s or store’s image, a missing or cross-site token, changing nothing', async () => {
      const p = await givenProduct(api, shop.as, { title: 'Guarded' });
      const at = products(`/${p.id}`);
      expect((await uploadTo(at, {}, { bytes: png(2, 2), filename: 'a.png' })).status).to.equal(303);
      const [mine] = await mediaOf(p.id);
      const plain = await givenProduct(api, shop.as, { title: 'No pictures' });
      const other = await givenMerchantWithStore(api);
      const stranger = await signedInAdmin(app, other.merchant);
      const strangerCsrf = AdminBrowser.csrfOf(await stranger.get('/admin/stores/new'));
      const before = await storedMedia();

      // Another merchant, in this store's path and in their own.
      for (const path of [at, `/admin/stores/${other.store.id}/products/${p.id}`]) {
        expect((await stranger.upload(`${path}/images`, { csrf_token: strangerCsrf }, { bytes: png(2, 2), filename: 'b.png' })).status).to.equal(404);
        expect((await stranger.get(`${path}/images/${mine}/remove`)).status).to.equal(404);
        expect((await stranger.post(`${path}/images/${mine}/remove`, { csrf_token: strangerCsrf })).status).to.equal(404);
        expect((await stranger.post(`${path}/images/${mine}/move`, { csrf_token: strangerCsrf, to: 'down' })).status).to.equal(404);
      }
      // An image of another product, another store's media, and not an id, in this product's path.
      const theirProduct = await givenProduct(api, other.as, { title: 'Theirs' });
      const theirPage = `/admin/stores/${other.store.id}/products/${theirProduct.id}`;
      expect(
        (
          await stranger.upload(
            `${theirPage}/images`,
            { csrf_token: AdminBrowser.csrfOf(await stranger.get(theirPage)) },
            { bytes: png(2, 2), filename: 't.png' },
          )
        ).status,
      ).to.equal(303);
      const [theirs] = (await api.get(`/v1/products/${theirProduct.id}`, other.as)).body.data.media_ids;
      const csrf = AdminBrowser.csrfOf(await browser.get(at));
      for (const [path, id] of [
        [products(`/${plain.id}`), mine],
        [at, theirs],
        [at, 'not-an-id'],
      ] as const) {
        expect((await browser.get(`${path}/images/${id}/remove`)).status, `${path} ${id}`).to.equal(404);
        expect((await browser.post(`${path}/images/${id}/remove`, { csrf_token: csrf })).status).to.equal(404);
        expect((await browser.post(`${path}/images/${id}`, { csrf_token: csrf, alt: 'x' })).status).to.equal(404);
      }
      // A missing or foreign token, another site: refused before anything is stored.
      for (const [fields, headers] of [
        [{}, {}],
        [{ csrf_token: strangerCsrf }, {}],
        [{ csrf_token: csrf }, { 'sec-fetch-site': 'cross-site' }],
        [{ csrf_token: csrf }, { origin: 'https://evil.example' }],
      ] as const) {
        expect((await browser.upload(`${at}/images`, fields, { bytes: png(2, 2), filename: 'c.png' }, headers)).status, JSON.stringify(headers)).to.equal(403);
      }
      expect((await browser.post(`${at}/images/${mine}/remove`, {})).status).to.equal(403);
      expect((await browser.post(`${at}/images/${mine}/move`, { csrf_token: csrf }, { 'sec-fetch-site': 'cross-site' })).status).to.equal(403);
      expect(await storedMedia()).to.deep.equal(before);
      expect(await mediaOf(p.id)).to.deep.equal([mine]);
      expect(await mediaOf(plain.id)).to.deep.equal([]);
      expect((await api.get(`/v1/media/${theirs}`, other.as)).status).to.equal(200);
    });
  });
});
