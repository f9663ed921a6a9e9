import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../src/config.js';
import { LocalStorage, S3Storage, StorageError, objectStorage } from '../../src/storage/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { testS3Config, testS3Storage } from '../helpers/s3.js';

// The contract both drivers keep is test/platform/storage-contract.test.ts; here, what is each driver's own.

describe('Object storage', () => {
  describe('s3 driver against the real S3-compatible server', () => {
    const made: S3Storage[] = [];
    const make = (overrides: Parameters<typeof testS3Storage>[1] = {}) => {
      const storage = testS3Storage(undefined, overrides);
      made.push(storage);
      return storage;
    };
    after(() => made.forEach((s) => s.close()));

    it('is refused by the server when it signs with the wrong secret (signature checks are on)', async () => {
      const error = await make({ secretAccessKey: 'not-the-secret' })
        .put('media/wrong-secret.png', Buffer.from('x'), 'image/png')
        .then(
          () => null,
          (e: Error) => e,
        );
      expect(error?.name).to.equal('SignatureDoesNotMatch');
      expect(await make().get('media/wrong-secret.png')).to.equal(null);
    });

    it('keeps objects private: an unsigned GET is refused', async () => {
      const key = `media/private-${Date.now()}.png`;
      await make().put(key, Buffer.from('private bytes'), 'image/png');
      const { endpoint, bucket } = testS3Config();
      const res = await fetch(`${endpoint}/${bucket}/${key}`);
      expect(res.status).to.equal(403);
      expect(await res.text()).not.to.include('private bytes');
    });

    it('presigns path-style URLs at the endpoint, at the clock it is given', async () => {
      const signedAt = new Date(Date.now() - 60_000);
      const url = new URL(await testS3Storage({ now: () => signedAt }).url('media/a.png', 900));
      const { endpoint, bucket } = testS3Config();
      expect(url.origin + url.pathname).to.equal(`${endpoint}/${bucket}/media/a.png`);
      expect(url.searchParams.get('X-Amz-Expires')).to.equal('900');
      expect(url.searchParams.get('X-Amz-Date')).to.equal(
        signedAt
          .toISOString()
          .replace(/[-:]/g, '')
          .replace(/\.\d{3}/, ''),
      );
      expect(url.searchParams.get('X-Amz-Signature')).to.match(/^[0-9a-f]{64}$/);
    });
  });

  describe('local driver', () => {
    let dir: string;
    before(() => (dir = mkdtempSync(join(tmpdir(), 'emporium-storage-'))));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const keys = loadConfig({ APP_ENV: 'test' }).secretsKeys;

    it('stores bytes with their content type, and deletes them', async () => {
      const local = new LocalStorage(dir, 'http://127.0.0.1:3000', keys, { now: () => new Date() });
      await local.put('media/s1/one.gif', Buffer.from('GIF89a'), 'image/gif');
      expect(await local.get('media/s1/one.gif')).to.deep.equal({ bytes: Buffer.from('GIF89a'), contentType: 'image/gif' });
      await local.delete('media/s1/one.gif');
      expect(await local.get('media/s1/one.gif')).to.equal(null);
      await local.delete('media/s1/one.gif'); // twice is fine
      expect(readdirSync(join(dir, 'objects', 'media', 's1'))).to.deep.equal([]);
    });

    it('refuses keys that could leave its folder', async () => {
      const local = new LocalStorage(dir, 'http://127.0.0.1:3000', keys, { now: () => new Date() });
      for (const key of ['../escape', 'a/../../b', '/etc/passwd', '', '.hidden', 'a//b', 'a\\b', 'a/./b', 'x'.repeat(600)]) {
        let error: unknown;
        await local.put(key, Buffer.from('x'), 'text/plain').catch((e) => (error = e));
        expect(error, key).to.be.instanceOf(Error);
        expect(await local.get(key), key).to.equal(null);
      }
    });
  });

  describe('local driver: multipart uploads', () => {
    let dir: string;
    const keys = loadConfig({ APP_ENV: 'test' }).secretsKeys;
    const local = () => new LocalStorage(dir, 'http://127.0.0.1:3000', keys, { now: () => new Date() });
    beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'emporium-multipart-'))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('keeps an upload in uploads/<id>/ until it completes, then only the object and its metadata', async () => {
      const { uploadId } = await local().startMultipart('exports/s1/a.jsonl', 'application/jsonl');
      expect(uploadId).to.match(/^[0-9a-f]{32}$/);
      const part = await local().uploadPart('exports/s1/a.jsonl', uploadId, 1, Buffer.from('{"a":1}\n'));
      expect(part.etag).to.equal('"' + createHash('md5').update('{"a":1}\n').digest('hex') + '"');
      expect(readdirSync(join(dir, 'uploads', uploadId)).sort()).to.deep.equal(['1.part', 'upload.json']);
      expect(existsSync(join(dir, 'objects', 'exports', 's1', 'a.jsonl'))).to.equal(false);
      await local().completeMultipart('exports/s1/a.jsonl', uploadId, [{ partNumber: 1, etag: part.etag }]);
      expect(readdirSync(join(dir, 'uploads'))).to.deep.equal([]);
      expect(readdirSync(join(dir, 'objects', 'exports', 's1'))).to.deep.equal(['a.jsonl']); // no temporary file left
    });

    it('refuses the etag of a part that was replaced since', async () => {
      const key = 'exports/s1/b.jsonl';
      const { uploadId } = await local().startMultipart(key, 'application/jsonl');
      const before = await local().uploadPart(key, uploadId, 1, Buffer.from('old'));
      await local().uploadPart(key, uploadId, 1, Buffer.from('new'));
      const error = await local()
        .completeMultipart(key, uploadId, [{ partNumber: 1, etag: before.etag }])
        .catch((e: unknown) => e);
      expect(error).to.be.instanceOf(StorageError);
      expect((error as StorageError).code).to.equal('invalid_part');
      expect(await local().get(key)).to.equal(null);
    });

    it('takes no upload id that could leave its folder, and no key that could', async () => {
      for (const uploadId of ['../../objects', '..', 'ABC', `${'0'.repeat(31)}/`]) {
        const error = await local()
          .uploadPart('exports/s1/c.jsonl', uploadId, 1, Buffer.from('x'))
          .catch((e: unknown) => e);
        expect((error as StorageError).code, uploadId).to.equal('no_such_upload');
        await local().abortMultipart('exports/s1/c.jsonl', uploadId);
      }
      let error: unknown;
      await local()
        .startMultipart('../escape', 'text/plain')
        .catch((e) => (error = e));
      expect(String(error)).to.match(/not a storage key/);
      expect(readdirSync(dir)).to.deep.equal([]);
    });
  });

  describe('GET /v1/media/files/:key (signed local URLs)', () => {
    let app: TestApp;
    let dir: string;
    const key = 'media/test/hello.png';
    const pathOf = (url: string) => url.replace(/^https?:\/\/[^/]+/, '');
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'emporium-storage-'));
      app = await startTestApp('storage', { STORAGE_LOCAL_DIR: dir, PUBLIC_BASE_URL: 'https://shop.example.com/' });
      await objectStorage(app.platform).put(key, Buffer.from('not really a png'), 'image/png');
    });
    after(async () => {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('serves the object to whoever holds the URL, without a session', async () => {
      const url = await objectStorage(app.platform).url(key, 600);
      expect(url).to.match(/^https:\/\/shop\.example\.com\/v1\/media\/files\/media%2Ftest%2Fhello\.png\?expires=\d+&signature=[0-9a-f]{64}$/);
      const res = await fetch(app.url + pathOf(url));
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('image/png');
      expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(res.headers.get('cache-control')).to.match(/^private, max-age=(59\d|600)$/);
      expect(await res.text()).to.equal('not really a png');
    });

    it('refuses a changed signature, expiry or key with 403', async () => {
      const url = new URL(app.url + pathOf(await objectStorage(app.platform).url(key, 600)));
      const sig = url.searchParams.get('signature')!;
      const variants = [
        `${url.pathname}?expires=${url.searchParams.get('expires')}&signature=${(sig[0] === 'a' ? 'b' : 'a') + sig.slice(1)}`,
        `${url.pathname}?expires=${Number(url.searchParams.get('expires')) + 3600}&signature=${sig}`,
        `/v1/media/files/${encodeURIComponent('media/test/other.png')}?expires=${url.searchParams.get('expires')}&signature=${sig}`,
        `${url.pathname}?expires=abc&signature=${sig}`,
        `${url.pathname}?expires=${url.searchParams.get('expires')}&signature=short`,
      ];
      for (const path of variants) {
        const res = await fetch(app.url + path);
        expect(res.status, path).to.equal(403);
        expect(((await res.json()) as any).error.code).to.equal('invalid_signature');
      }
      expect((await fetch(`${app.url}${url.pathname}`)).status).to.equal(400);
    });

    it('refuses an expired URL with 403', async () => {
      const anHourAgo = new Date(Date.now() - 3600_000);
      const old = await new LocalStorage(dir, app.url, app.config.secretsKeys, { now: () => anHourAgo }).url(key, 60);
      const res = await fetch(old);
      expect(res.status).to.equal(403);
      expect(((await res.json()) as any).error.code).to.equal('url_expired');
    });

    it('answers 404 for a correctly signed URL of a key that does not exist', async () => {
      const res = await fetch(app.url + pathOf(await objectStorage(app.platform).url('media/test/missing.png', 60)));
      expect(res.status).to.equal(404);
    });
  });

  describe('configuration', () => {
    it('lists every missing S3 variable when STORAGE_DRIVER is s3', () => {
      let error: unknown;
      try {
        loadConfig({ APP_ENV: 'test', STORAGE_DRIVER: 's3', S3_REGION: 'us-east-1' });
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      for (const name of ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'])
        expect(problems).to.include(`${name}: is required when STORAGE_DRIVER is s3`);
      expect(problems).not.to.include('S3_REGION');
    });

    it('defaults to local files and a base URL on the listening port', () => {
      const config = loadConfig({ APP_ENV: 'test', PORT: '4100' });
      expect(config.storage).to.deep.include({ driver: 'local', localDir: '.localdb/storage', publicBaseUrl: 'http://127.0.0.1:4100', s3: null });
      expect(config.media.maxBytes).to.equal(10 * 1024 * 1024);
    });
  });
});
