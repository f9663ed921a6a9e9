import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { findMedia } from '../../src/media/index.js';
import { inspectImage } from '../../src/media/image.js';
import type { S3Storage } from '../../src/storage/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { s3Env, testS3Config, testS3Storage } from '../helpers/s3.js';
import { counts } from '../helpers/database.js';
import { givenMerchantWithStore, givenStore, type GivenMerchant } from '../helpers/factories.js';
import { client, type Client } from '../helpers/http.js';
import { PDF, gif, jpeg, png, webp, webpExtended, webpLossy } from '../helpers/images.js';

const MAX_BYTES = 8192;

describe('Media (/v1/media)', () => {
  let app: TestApp;
  let api: Client;
  let dir: string;
  let owner: { merchant: GivenMerchant; store: { id: string } };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'emporium-media-'));
    app = await startTestApp('media', { STORAGE_LOCAL_DIR: dir, MEDIA_MAX_BYTES: String(MAX_BYTES) });
    api = client(app.url);
    owner = await givenMerchantWithStore(api);
  });
  after(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  type Part = { name: string; bytes?: Buffer; filename?: string; type?: string; value?: string };
  async function upload(parts: Part[], who = owner, headers: Record<string, string> = {}) {
    const form = new FormData();
    for (const p of parts) {
      if (p.bytes) form.append(p.name, new Blob([p.bytes], { type: p.type ?? 'application/octet-stream' }), p.filename ?? 'upload.bin');
      else form.append(p.name, p.value ?? '');
    }
    const res = await fetch(`${app.url}/v1/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${who.merchant.token}`, 'x-store-id': who.store.id, ...headers },
      body: form,
    });
    return { status: res.status, body: (await res.json()) as any };
  }
  const uploadFile = (bytes: Buffer, filename: string, type = 'image/png', who = owner) => upload([{ name: 'file', bytes, filename, type }], who);
  const as = (who: typeof owner) => ({ token: who.merchant.token, storeId: who.store.id });
  const storedFiles = (): string[] => {
    const root = join(dir, 'objects');
    try {
      return readdirSync(root, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => e.name);
    } catch {
      return [];
    }
  };
  const pathOf = (url: string) => url.replace(/^https?:\/\/[^/]+/, '');

  describe('POST /v1/media', () => {
    const cases = [
      { kind: 'PNG', bytes: png(3, 2), type: 'image/png', name: 'pixel.png', width: 3, height: 2 },
      { kind: 'JPEG', bytes: jpeg(640, 480), type: 'image/jpeg', name: 'photo.jpeg', width: 640, height: 480 },
      { kind: 'GIF', bytes: gif(16, 9), type: 'image/gif', name: 'anim.gif', width: 16, height: 9 },
      { kind: 'WebP', bytes: webp(300, 200), type: 'image/webp', name: 'pic.webp', width: 300, height: 200 },
    ];
    for (const c of cases) {
      it(`stores a ${c.kind} image with its detected type and size, and a signed URL that serves it`, async () => {
        const res = await upload([
          { name: 'file', bytes: c.bytes, filename: c.name, type: 'application/octet-stream' },
          { name: 'alt', value: `  A ${c.kind}  ` },
        ]);
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        const m = res.body.data;
        expect(m).to.have.all.keys('id', 'filename', 'content_type', 'size', 'width', 'height', 'alt', 'url', 'created_at');
        expect(m).to.include({ filename: c.name, content_type: c.type, size: c.bytes.length, width: c.width, height: c.height, alt: `A ${c.kind}` });
        const file = await fetch(app.url + pathOf(m.url));
        expect(file.status).to.equal(200);
        expect(file.headers.get('content-type')).to.equal(c.type);
        expect(Buffer.from(await file.arrayBuffer()).equals(c.bytes)).to.be.true;

        const event = await app.platform.db.collection('events').findOne({ idempotency_key: `media.created:${m.id}` });
        expect(event?.type).to.equal('media.created');
        expect(event?.store_id.toHexString()).to.equal(owner.store.id);
        const { url: _url, ...withoutUrl } = m;
        expect(event?.payload).to.deep.equal({ media: withoutUrl });
      });
    }

    it('names the file by what it is: a JPEG called .png gets a .jpg name; paths and odd characters are cleaned', async () => {
      let res = await uploadFile(jpeg(2, 2), 'holiday.png', 'image/png');
      expect(res.body.data).to.include({ content_type: 'image/jpeg', filename: 'holiday.png.jpg' });
      res = await uploadFile(png(), '../../etc/<script>passwd".PNG');
      expect(res.body.data.filename).to.equal('_script_passwd_.png');
      res = await uploadFile(png(), '...');
      expect(res.body.data.filename).to.equal('image.png');
    });

    it('refuses a PDF or text file named .png with 415 and stores nothing', async () => {
      const before = await counts(app.platform.db);
      const files = storedFiles();
      for (const bytes of [PDF, Buffer.from('hello, this is text\n'), Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')]) {
        const res = await uploadFile(bytes, 'innocent.png', 'image/png');
        expect(res.status).to.equal(415);
        expect(res.body.error.code).to.equal('unsupported_media_type');
      }
      expect(await counts(app.platform.db)).to.deep.equal(before);
      expect(storedFiles()).to.deep.equal(files);
    });

    it('refuses a truncated or damaged image with 400 invalid_image and stores nothing', async () => {
      const before = await counts(app.platform.db);
      const files = storedFiles();
      const full = png(4, 4);
      const damaged = [
        full.subarray(0, 20),
        full.subarray(0, full.length - 12),
        jpeg().subarray(0, 30),
        gif().subarray(0, 20),
        webp().subarray(0, 25),
        Buffer.concat([full.subarray(0, 8), Buffer.alloc(40, 0xff)]),
      ];
      for (const bytes of damaged) {
        const res = await uploadFile(bytes, 'broken.png');
        expect(res.status, bytes.toString('hex')).to.equal(400);
        expect(res.body.error.code).to.equal('invalid_image');
      }
      expect(await counts(app.platform.db)).to.deep.equal(before);
      expect(storedFiles()).to.deep.equal(files);
    });

    it('refuses a file over MEDIA_MAX_BYTES with 413 and stores nothing', async () => {
      const before = await counts(app.platform.db);
      const files = storedFiles();
      const big = png(1, 1, MAX_BYTES);
      const res = await uploadFile(big, 'big.png');
      expect(res.status).to.equal(413);
      expect(res.body.error.code).to.equal('payload_too_large');
      // A declared length far over the limit is refused before the body is read.
      const early = await fetch(`${app.url}/v1/media`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${owner.merchant.token}`,
          'x-store-id': owner.store.id,
          'content-type': 'multipart/form-data; boundary=x',
          'content-length': String(MAX_BYTES * 100),
        },
        body: Buffer.alloc(MAX_BYTES * 100),
      });
      expect(early.status).to.equal(413);
      expect(await counts(app.platform.db)).to.deep.equal(before);
      expect(storedFiles()).to.deep.equal(files);
      // A file right at the limit is fine.
      const exact = png(1, 1, 1);
      const fits = png(1, 1, 1 + MAX_BYTES - exact.length);
      expect(fits.length).to.equal(MAX_BYTES);
      expect((await uploadFile(fits, 'fits.png')).status).to.equal(201);
    });

    it('needs exactly one file in the "file" field and takes only an alt text besides', async () => {
      const before = await counts(app.platform.db);
      const bad: [Part[], RegExp][] = [
        [[{ name: 'alt', value: 'no file' }], /body\.file: one image file is required/],
        [[{ name: 'image', bytes: png(), filename: 'a.png' }], /body\.image: Unrecognized file field/],
        [
          [
            { name: 'file', bytes: png(), filename: 'a.png' },
            { name: 'caption', value: 'x' },
          ],
          /body: Unrecognized key: "caption"/,
        ],
        [
          [
            { name: 'file', bytes: png(), filename: 'a.png' },
            { name: 'alt', value: 'x'.repeat(501) },
          ],
          /body\.alt: must be at most 500 characters/,
        ],
        [
          [
            { name: 'file', bytes: png(), filename: 'a.png' },
            { name: 'alt', value: 'a' },
            { name: 'alt', value: 'b' },
          ],
          /body\.alt/,
        ],
      ];
      for (const [parts, detail] of bad) {
        const res = await upload(parts);
        expect(res.status, JSON.stringify(res.body)).to.equal(400);
        expect(res.body.error.details.join('\n')).to.match(detail);
      }
      const two = await upload([
        { name: 'file', bytes: png(), filename: 'a.png' },
        { name: 'file', bytes: png(), filename: 'b.png' },
      ]);
      expect(two.status).to.equal(400);
      expect(two.body.error.code).to.equal('invalid_multipart');
      const empty = await upload([{ name: 'file', bytes: Buffer.alloc(0), filename: 'a.png' }]);
      expect(empty.status).to.equal(400);
      expect(await counts(app.platform.db)).to.deep.equal(before);
    });

    it('takes multipart only here: JSON here and multipart elsewhere are 415; a malformed body is 400', async () => {
      const json = await api.post('/v1/media', { file: 'x' }, as(owner));
      expect(json.status).to.equal(415);
      const form = new FormData();
      form.append('name', 'Shop');
      const elsewhere = await fetch(`${app.url}/v1/stores`, { method: 'POST', headers: { authorization: `Bearer ${owner.merchant.token}` }, body: form });
      expect(elsewhere.status).to.equal(415);
      const malformed = await fetch(`${app.url}/v1/media`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.merchant.token}`, 'x-store-id': owner.store.id, 'content-type': 'multipart/form-data; boundary=abc' },
        body: '--abc\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nnot finished',
      });
      expect(malformed.status).to.equal(400);
      const noBoundary = await fetch(`${app.url}/v1/media`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.merchant.token}`, 'x-store-id': owner.store.id, 'content-type': 'multipart/form-data' },
        body: 'whatever',
      });
      expect(noBoundary.status).to.equal(400);
    });

    it('never answers 500 to a cut-off or garbled multipart body', async () => {
      const before = await counts(app.platform.db);
      const head = '--b0undary\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n';
      const full = Buffer.concat([Buffer.from(head), png(2, 2), Buffer.from('\r\n--b0undary--\r\n')]);
      const bodies = [
        ...[10, 40, 90, head.length + 10, full.length - 20, full.length - 3].map((n) => full.subarray(0, n)),
        Buffer.from(full.toString('latin1').replace('Content-Disposition', 'Content-Transfer-Encoding: rot13\r\nContent-Disposition'), 'latin1'),
        Buffer.from('\r\n\r\n--b0undary--\r\n'),
        Buffer.alloc(300, 0),
      ];
      for (const body of bodies) {
        const res = await fetch(`${app.url}/v1/media`, {
          method: 'POST',
          headers: { authorization: `Bearer ${owner.merchant.token}`, 'x-store-id': owner.store.id, 'content-type': 'multipart/form-data; boundary=b0undary' },
          body,
        });
        expect(res.status, body.toString('latin1').slice(0, 120)).to.be.within(400, 499);
      }
      expect(await counts(app.platform.db)).to.deep.equal(before);
      // A file part with an empty name is still a file: it is named after its type.
      const unnamed = await fetch(`${app.url}/v1/media`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.merchant.token}`, 'x-store-id': owner.store.id, 'content-type': 'multipart/form-data; boundary=b0undary' },
        body: Buffer.from(full.toString('latin1').replace('filename="a.png"', 'filename=""'), 'latin1'),
      });
      expect(unnamed.status).to.equal(201);
      expect(((await unnamed.json()) as any).data.filename).to.equal('image.png');
    });

    it('needs a session (401) and a store the caller owns (403)', async () => {
      const other = await givenMerchantWithStore(api);
      const anonymous = await fetch(`${app.url}/v1/media`, { method: 'POST', headers: { 'x-store-id': owner.store.id }, body: new FormData() });
      expect(anonymous.status).to.equal(401);
      const res = await upload([{ name: 'file', bytes: png(), filename: 'a.png' }], { merchant: owner.merchant, store: other.store });
      expect(res.status).to.equal(403);
      expect(res.body.error.code).to.equal('store_forbidden');
      expect((await api.get('/v1/media', { token: owner.merchant.token, storeId: other.store.id })).status).to.equal(403);
    });
  });

  describe('GET, DELETE and other stores', () => {
    it("lists the store's media in pages, each with a signed URL", async () => {
      const shop = await givenMerchantWithStore(api);
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await uploadFile(png(i + 1, 1), `p${i}.png`, 'image/png', shop)).body.data.id);
      const first = await api.get('/v1/media?limit=2', as(shop));
      expect(first.status).to.equal(200);
      expect(first.body.data.map((m: any) => m.id)).to.deep.equal(ids.slice(0, 2));
      expect(first.body.data[0].url).to.match(/\/v1\/media\/files\/.+\?expires=\d+&signature=[0-9a-f]{64}$/);
      const second = await api.get(`/v1/media?limit=2&cursor=${first.body.page.next_cursor}`, as(shop));
      expect(second.body.data.map((m: any) => m.id)).to.deep.equal(ids.slice(2));
      expect(second.body.page.next_cursor).to.equal(null);
      expect((await api.get('/v1/media?sort=1', as(shop))).status).to.equal(400);
    });

    it('gets one with a URL valid for 15 minutes', async () => {
      const id = (await uploadFile(gif(), 'g.gif', 'image/gif')).body.data.id;
      const asked = Math.floor(Date.now() / 1000);
      const res = await api.get(`/v1/media/${id}`, as(owner));
      const answered = Math.floor(Date.now() / 1000);
      expect(res.status).to.equal(200);
      // 900 s from when the URL was signed, between the request and its answer (however long that took).
      const expires = Number(new URL(res.body.data.url).searchParams.get('expires'));
      expect(expires).to.be.within(asked + 900, answered + 900);
    });

    it("answers 404 for another store's media (get and delete) and changes nothing", async () => {
      const id = (await uploadFile(png(), 'mine.png')).body.data.id;
      const other = await givenMerchantWithStore(api);
      const before = await counts(app.platform.db);
      expect((await api.get(`/v1/media/${id}`, as(other))).status).to.equal(404);
      expect((await api.delete(`/v1/media/${id}`, as(other))).status).to.equal(404);
      expect((await api.get('/v1/media', as(other))).body.data).to.deep.equal([]);
      // The same merchant's second store does not see it either.
      const second = { merchant: owner.merchant, store: await givenStore(api, owner.merchant) };
      const afterStore = await counts(app.platform.db);
      expect((await api.get(`/v1/media/${id}`, as(second))).status).to.equal(404);
      expect((await api.delete(`/v1/media/${id}`, as(second))).status).to.equal(404);
      expect((await api.get('/v1/media/not-an-id', as(owner))).status).to.equal(404);
      expect(afterStore.stores).to.equal(before.stores! + 1);
      expect({ ...(await counts(app.platform.db)) }).to.deep.equal(afterStore);
      expect((await api.get(`/v1/media/${id}`, as(owner))).status).to.equal(200);
    });

    it('deletes the file with the document and records media.deleted', async () => {
      const created = (await uploadFile(webp(), 'gone.webp', 'image/webp')).body.data;
      const filesBefore = storedFiles().length;
      const res = await api.delete(`/v1/media/${created.id}`, as(owner));
      expect(res.status).to.equal(204);
      expect(storedFiles().length).to.equal(filesBefore - 1);
      expect((await fetch(app.url + pathOf(created.url))).status).to.equal(404);
      expect((await api.get(`/v1/media/${created.id}`, as(owner))).status).to.equal(404);
      expect((await api.delete(`/v1/media/${created.id}`, as(owner))).status).to.equal(404);
      const event = await app.platform.db.collection('events').findOne({ idempotency_key: `media.deleted:${created.id}` });
      expect(event?.type).to.equal('media.deleted');
      expect(event?.payload.media.id).to.equal(created.id);
    });

    it('findMedia tells which ids are media of the store', async () => {
      const a = (await uploadFile(png(), 'a.png')).body.data.id;
      const other = await givenMerchantWithStore(api);
      const b = (await uploadFile(png(), 'b.png', 'image/png', other)).body.data.id;
      const found = await findMedia(app.platform, owner.store.id, [a, b, 'nonsense', '0123456789abcdef01234567', a]);
      expect(found).to.deep.equal([a]);
      expect(await findMedia(app.platform, owner.store.id, [])).to.deep.equal([]);
    });
  });

  describe('image inspection', () => {
    it('reads the size of each WebP flavour and of large images', () => {
      expect(inspectImage(webpLossy(1024, 768))).to.deep.equal({ ok: true, image: { contentType: 'image/webp', extension: 'webp', width: 1024, height: 768 } });
      expect(inspectImage(webpExtended(5000, 4000))).to.deep.include({ ok: true });
      expect((inspectImage(webpExtended(5000, 4000)) as any).image).to.include({ width: 5000, height: 4000 });
      expect((inspectImage(webp(16383, 2)) as any).image).to.include({ width: 16383, height: 2 });
      expect((inspectImage(png(1, 1)) as any).image).to.include({ width: 1, height: 1 });
    });

    it('calls every truncation of every fixture damaged (never a crash) and refuses zero sizes', () => {
      for (const full of [png(2, 2), jpeg(2, 2), gif(2, 2), webp(2, 2), webpLossy(2, 2), webpExtended(2, 2)]) {
        for (let n = 0; n < full.length; n++) {
          const result = inspectImage(full.subarray(0, n));
          expect(result.ok, `${full.subarray(0, 12).toString('hex')} cut at ${n}`).to.equal(false);
        }
        expect(inspectImage(full).ok).to.equal(true);
      }
      expect(inspectImage(gif(0, 5))).to.deep.equal({ ok: false, reason: 'damaged' });
      expect(inspectImage(jpeg(0, 5))).to.deep.equal({ ok: false, reason: 'damaged' });
      expect(inspectImage(Buffer.alloc(0))).to.deep.equal({ ok: false, reason: 'unsupported' });
    });
  });
});

/**
 * The same endpoints with STORAGE_DRIVER=s3 against the test run's real S3-compatible server
 * (SeaweedFS): the bytes go to the bucket, and each URL is an S3 presigned URL that plain fetch
 * reads from the server itself.
 */
describe('Media (/v1/media) on the s3 driver', () => {
  let app: TestApp;
  let api: Client;
  let owner: { merchant: GivenMerchant; store: { id: string } };
  let bucket: S3Storage;

  before(async () => {
    app = await startTestApp('media_s3', s3Env());
    api = client(app.url);
    owner = await givenMerchantWithStore(api);
    bucket = testS3Storage();
  });
  after(async () => {
    bucket.close();
    await app.close();
  });

  const uploadFile = async (bytes: Buffer, filename: string) => {
    const form = new FormData();
    form.append('file', new Blob([bytes], { type: 'application/octet-stream' }), filename);
    const res = await fetch(`${app.url}/v1/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.merchant.token}`, 'x-store-id': owner.store.id },
      body: form,
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const mine = () => ({ token: owner.merchant.token, storeId: owner.store.id });

  it('stores the image in the bucket and answers a presigned URL that serves it', async () => {
    const image = jpeg(320, 240);
    const res = await uploadFile(image, 'photo.jpeg');
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const m = res.body.data;
    expect(m).to.include({ content_type: 'image/jpeg', size: image.length, width: 320, height: 240 });
    const url = new URL(m.url);
    expect(url.origin).to.equal(testS3Config().endpoint);
    expect(url.pathname).to.equal(`/${testS3Config().bucket}/media/${owner.store.id}/${m.id}.jpg`);
    expect(url.searchParams.get('X-Amz-Expires')).to.equal('900');
    const file = await fetch(m.url);
    expect(file.status).to.equal(200);
    expect(file.headers.get('content-type')).to.equal('image/jpeg');
    expect(Buffer.from(await file.arrayBuffer()).equals(image)).to.be.true;
    const stored = await bucket.get(`media/${owner.store.id}/${m.id}.jpg`);
    expect(stored?.contentType).to.equal('image/jpeg');
    expect(stored?.bytes.equals(image)).to.be.true;
    // The web process's own file route is for the local driver only.
    expect((await fetch(`${app.url}/v1/media/files/${encodeURIComponent(`media/${owner.store.id}/${m.id}.jpg`)}?expires=1&signature=x`)).status).to.not.equal(
      200,
    );
  });

  it('lists and gets media with presigned URLs, and deletes the object with the document', async () => {
    const created = (await uploadFile(png(5, 5), 'five.png')).body.data;
    const listed = await api.get('/v1/media', mine());
    const listedOne = listed.body.data.find((m: any) => m.id === created.id);
    expect((await fetch(listedOne.url)).status).to.equal(200);
    const got = await api.get(`/v1/media/${created.id}`, mine());
    expect(Buffer.from(await (await fetch(got.body.data.url)).arrayBuffer()).equals(png(5, 5))).to.be.true;

    expect((await api.delete(`/v1/media/${created.id}`, mine())).status).to.equal(204);
    expect(await bucket.head(`media/${owner.store.id}/${created.id}.png`)).to.equal(null);
    expect((await fetch(got.body.data.url)).status).to.equal(404);
  });
});
