import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { MongoClient } from 'mongodb';
import { listPublicProducts } from '../../src/storefront/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { givenProduct } from '../helpers/catalog.js';
import { givenMerchantWithStore, type GivenMerchantWithStore } from '../helpers/factories.js';
import { client, type Client } from '../helpers/http.js';
import { jpeg, png } from '../helpers/images.js';
import { s3Env } from '../helpers/s3.js';

const SF = '/v1/storefront';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** What every run of these tests needs: an app, a shop and a way to upload media. */
function mediaPublicSuite(name: string, env: () => Record<string, string>, cleanup: () => void = () => {}) {
  const ctx = {} as { app: TestApp; api: Client };
  before(async () => {
    ctx.app = await startTestApp(name, env());
    ctx.api = client(ctx.app.url);
  });
  after(async () => {
    await ctx.app.close();
    cleanup();
  });
  async function upload(shop: GivenMerchantWithStore, bytes: Buffer, filename: string, alt?: string): Promise<any> {
    const form = new FormData();
    form.append('file', new Blob([bytes], { type: 'application/octet-stream' }), filename);
    if (alt !== undefined) form.append('alt', alt);
    const res = await fetch(`${ctx.app.url}/v1/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${shop.merchant.token}`, 'x-store-id': shop.store.id },
      body: form,
    });
    const body = (await res.json()) as any;
    expect(res.status, JSON.stringify(body)).to.equal(201);
    return body.data;
  }
  return { ctx, upload };
}

async function expectNotFound(url: string, init: RequestInit = {}) {
  const res = await fetch(url, init);
  const text = await res.text();
  expect(res.status, `${url}: ${text.slice(0, 200)}`).to.equal(404);
  expect(JSON.parse(text).error.code).to.equal('not_found');
  // A refusal is never cached for a year: the media may be published later.
  expect(res.headers.get('cache-control') ?? '').not.to.contain('immutable');
  expect(res.headers.get('etag')).to.equal(null);
}

describe('Storefront product images (public media URLs)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'emporium-media-public-'));
  const { ctx, upload } = mediaPublicSuite(
    'media_public',
    () => ({ STORAGE_LOCAL_DIR: dir }),
    () => rmSync(dir, { recursive: true, force: true }),
  );
  let shop: GivenMerchantWithStore;
  let other: GivenMerchantWithStore;
  const front = png(40, 30);
  const back = jpeg(640, 480);
  let media: { front: any; back: any; draft: any; loose: any; others: any };
  let product: any;

  before(async () => {
    shop = await givenMerchantWithStore(ctx.api);
    other = await givenMerchantWithStore(ctx.api);
    media = {
      front: await upload(shop, front, 'Front view (1).PNG', 'A blue mug, from the front'),
      back: await upload(shop, back, 'Zürich mug back.jpeg'),
      draft: await upload(shop, png(2, 2), 'draft.png'),
      loose: await upload(shop, png(3, 3), 'loose.png'),
      others: await upload(other, png(4, 4), 'theirs.png'),
    };
    product = await givenProduct(ctx.api, shop.as, { title: 'Blue Mug', handle: 'blue-mug', media_ids: [media.back.id, media.front.id] });
    await givenProduct(ctx.api, shop.as, { title: 'Secret Mug', handle: 'secret-mug', status: 'draft', media_ids: [media.draft.id] });
    await givenProduct(ctx.api, other.as, { title: 'Their Mug', handle: 'their-mug', media_ids: [media.others.id] });
  });

  const imagesOf = async (handle: string, store = shop) => (await ctx.api.get(`${SF}/${store.store.subdomain}/products/${handle}`)).body.data.images;

  it("gives a published product's images in media_ids order: a stable public URL, alt text, width and height", async () => {
    const images = await imagesOf('blue-mug');
    expect(images).to.deep.equal([
      { url: `${SF}/${shop.store.subdomain}/media/${media.back.id}/Zurich-mug-back.jpg`, alt: 'Blue Mug', width: 640, height: 480 },
      { url: `${SF}/${shop.store.subdomain}/media/${media.front.id}/Front-view-1.png`, alt: 'A blue mug, from the front', width: 40, height: 30 },
    ]);
    // The list, a collection's products and a second read give the same URLs: nothing in them expires.
    const listed = (await ctx.api.get(`${SF}/${shop.store.subdomain}/products`)).body.data;
    expect(listed.find((p: any) => p.handle === 'blue-mug').images).to.deep.equal(images);
    const collection = await ctx.api.post('/v1/products/collections', { title: 'Mugs', handle: 'mugs', type: 'manual', product_ids: [product.id] }, shop.as);
    expect(collection.status, JSON.stringify(collection.body)).to.equal(201);
    const inCollection = (await ctx.api.get(`${SF}/${shop.store.subdomain}/collections/mugs/products`)).body.data;
    expect(inCollection[0].images).to.deep.equal(images);
    expect(await imagesOf('blue-mug')).to.deep.equal(images);
  });

  it('serves the bytes with their type, a year of public caching, an ETag and nosniff; 304 on If-None-Match', async () => {
    const [backImage, frontImage] = await imagesOf('blue-mug');
    for (const [image, bytes, type] of [
      [frontImage, front, 'image/png'],
      [backImage, back, 'image/jpeg'],
    ] as const) {
      const res = await fetch(ctx.app.url + image.url);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal(type);
      expect(res.headers.get('content-length')).to.equal(String(bytes.length));
      expect(res.headers.get('cache-control')).to.equal(IMMUTABLE);
      expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
      const etag = res.headers.get('etag')!;
      expect(etag).to.match(/^"[0-9a-f]{24}"$/);
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).to.equal(true);

      for (const ifNoneMatch of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
        const again = await fetch(ctx.app.url + image.url, { headers: { 'if-none-match': ifNoneMatch, 'cache-control': 'no-cache' } });
        expect(again.status, ifNoneMatch).to.equal(304);
        expect(again.headers.get('etag')).to.equal(etag);
        expect(again.headers.get('cache-control')).to.equal(IMMUTABLE);
        expect(await again.text()).to.equal('');
      }
      const changed = await fetch(ctx.app.url + image.url, { headers: { 'if-none-match': '"something-else"' } });
      expect(changed.status).to.equal(200);
      await changed.arrayBuffer();
    }
    // HEAD answers the headers without the bytes.
    const head = await fetch(ctx.app.url + frontImage.url, { method: 'HEAD' });
    expect(head.status).to.equal(200);
    expect(head.headers.get('content-type')).to.equal('image/png');
  });

  it("is 404 for an unpublished product's media, media on no product, another store's media, unknown or malformed ids and names", async () => {
    const base = `${ctx.app.url}${SF}/${shop.store.subdomain}/media`;
    await expectNotFound(`${base}/${media.draft.id}/draft.png`);
    await expectNotFound(`${base}/${media.loose.id}/loose.png`);
    // Another store's published media, through this store's subdomain.
    await expectNotFound(`${base}/${media.others.id}/theirs.png`);
    // … which its own store serves.
    const theirs = (await imagesOf('their-mug', other))[0];
    expect((await fetch(ctx.app.url + theirs.url)).status).to.equal(200);
    await expectNotFound(`${base}/${'0'.repeat(24)}/x.png`);
    for (const bad of ['nope', 'ZZZZZZZZZZZZZZZZZZZZZZZZ', `${media.front.id}00`, 'x'.repeat(2000), '%00']) {
      await expectNotFound(`${base}/${bad}/Front-view-1.png`);
    }
    // Only the file's own name: one URL per file.
    for (const name of ['Front-view-1.jpg', 'front-view-1.png', 'Front-view-1-.png', 'other.png', 'Front%20view%20(1).PNG']) {
      await expectNotFound(`${base}/${media.front.id}/${name}`);
    }
    await expectNotFound(`${ctx.app.url}${SF}/no-such-store-here/media/${media.front.id}/Front-view-1.png`);
    // With a matching If-None-Match too: nothing says an image that is not served was not modified.
    await expectNotFound(`${base}/${media.draft.id}/draft.png`, { headers: { 'if-none-match': `"${media.draft.id}"` } });
  });

  it('stops serving an image when its product is unpublished, and when the media is deleted', async () => {
    const media1 = await upload(shop, png(6, 6), 'lamp.png');
    const lamp = await givenProduct(ctx.api, shop.as, { title: 'Lamp', handle: 'lamp', media_ids: [media1.id] });
    const [image] = await imagesOf('lamp');
    expect((await fetch(ctx.app.url + image.url)).status).to.equal(200);
    const hidden = await ctx.api.patch(`/v1/products/${lamp.id}`, { status: 'draft' }, shop.as);
    expect(hidden.status, JSON.stringify(hidden.body)).to.equal(200);
    await expectNotFound(ctx.app.url + image.url);
    expect((await ctx.api.patch(`/v1/products/${lamp.id}`, { status: 'active' }, shop.as)).status).to.equal(200);
    expect((await fetch(ctx.app.url + image.url)).status).to.equal(200);
    expect((await ctx.api.delete(`/v1/media/${media1.id}`, shop.as)).status).to.equal(204);
    await expectNotFound(ctx.app.url + image.url);
    // The product's public view leaves the deleted media out.
    expect(await imagesOf('lamp')).to.deep.equal([]);
  });

  it("reads a page of products' media in one query, not one per product", async () => {
    const mediaIds: string[] = [];
    for (let i = 0; i < 5; i++) {
      const m = await upload(shop, png(8 + i, 8), `page-${i}.png`);
      mediaIds.push(m.id);
      await givenProduct(ctx.api, shop.as, { title: `Paged ${i}`, handle: `paged-${i}`, tags: ['paged'], media_ids: [m.id] });
    }
    const monitored = new MongoClient(process.env.MONGODB_URL!, { monitorCommands: true });
    await monitored.connect();
    try {
      const commands: string[] = [];
      monitored.on('commandStarted', (e) => commands.push(`${e.commandName} ${String((e.command as Record<string, unknown>)[e.commandName])}`));
      const platform = { ...ctx.app.platform, db: monitored.db(ctx.app.platform.db.databaseName) };
      const store = (await ctx.api.get(`/v1/stores/${shop.store.id}`, shop.as)).body.data;
      const page = await listPublicProducts(platform, store, { q: 'paged', sort: 'created_at', limit: 50 });
      expect(page.items.map((p) => p.images[0]?.url)).to.deep.equal(mediaIds.map((id, i) => `${SF}/${shop.store.subdomain}/media/${id}/page-${i}.png`));
      expect(
        commands.filter((c) => c === 'find media'),
        commands.join('\n'),
      ).to.have.length(1);
    } finally {
      await monitored.close();
    }
  });
});

/** The same route with STORAGE_DRIVER=s3 against the test run's SeaweedFS: the bytes stream from the bucket through the web process. */
describe('Storefront product images on the s3 driver', () => {
  const { ctx, upload } = mediaPublicSuite('media_public_s3', s3Env);

  it('serves a published product image from the bucket with its caching headers, 304, and 404 for a draft', async () => {
    const shop = await givenMerchantWithStore(ctx.api);
    const bytes = jpeg(320, 240);
    const published = await upload(shop, bytes, 'photo.jpeg', 'A photo');
    const hidden = await upload(shop, png(2, 2), 'hidden.png');
    await givenProduct(ctx.api, shop.as, { title: 'Camera', handle: 'camera', media_ids: [published.id] });
    await givenProduct(ctx.api, shop.as, { title: 'Draft', handle: 'draft', status: 'draft', media_ids: [hidden.id] });
    const [image] = (await ctx.api.get(`${SF}/${shop.store.subdomain}/products/camera`)).body.data.images;
    expect(image).to.deep.equal({ url: `${SF}/${shop.store.subdomain}/media/${published.id}/photo.jpg`, alt: 'A photo', width: 320, height: 240 });
    const res = await fetch(ctx.app.url + image.url);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('image/jpeg');
    expect(res.headers.get('cache-control')).to.equal(IMMUTABLE);
    expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).to.equal(true);
    const again = await fetch(ctx.app.url + image.url, { headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(again.status).to.equal(304);
    await expectNotFound(`${ctx.app.url}${SF}/${shop.store.subdomain}/media/${hidden.id}/hidden.png`);
  });
});
