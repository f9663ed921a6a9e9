import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../src/config.js';
import { authorizationHeader, presignedQuery, EMPTY_PAYLOAD_SHA256 } from '../../src/storage/sigv4.js';
import { sha256 } from '../../src/digest.js';
import { LocalStorage, S3Storage, objectStorage } from '../../src/storage/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

// The examples of the S3 API reference ("Signature Calculations for the Authorization Header"
// and "Authenticating Requests: Using Query Parameters").
const EXAMPLE = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  region: 'us-east-1',
};
const EXAMPLE_DATE = new Date('2013-05-24T00:00:00Z');

describe('Object storage', () => {
  describe('AWS Signature Version 4', () => {
    it('signs the documented GET object example (Range: bytes=0-9) in the Authorization header', () => {
      const header = authorizationHeader(EXAMPLE, EXAMPLE_DATE, {
        method: 'GET',
        path: '/test.txt',
        headers: { Host: 'examplebucket.s3.amazonaws.com', Range: 'bytes=0-9', 'x-amz-content-sha256': EMPTY_PAYLOAD_SHA256, 'x-amz-date': '20130524T000000Z' },
        payloadHash: EMPTY_PAYLOAD_SHA256,
      });
      expect(header).to.equal(
        'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,' +
          'SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,' +
          'Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
      );
    });

    it('presigns the documented GET /test.txt example (X-Amz-Expires=86400)', () => {
      const query = presignedQuery(EXAMPLE, EXAMPLE_DATE, {
        method: 'GET',
        path: '/test.txt',
        host: 'examplebucket.s3.amazonaws.com',
        expiresInSeconds: 86400,
      });
      expect(query['X-Amz-Signature']).to.equal('aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404');
      expect(query['X-Amz-Credential']).to.equal('AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request');
    });

    it('builds the presigned URL of a virtual-hosted bucket', () => {
      const s3 = new S3Storage(
        {
          endpoint: 'https://s3.amazonaws.com',
          region: 'us-east-1',
          bucket: 'examplebucket',
          accessKeyId: EXAMPLE.accessKeyId,
          secretAccessKey: EXAMPLE.secretAccessKey,
          forcePathStyle: false,
        },
        { now: () => EXAMPLE_DATE },
      );
      expect(s3.url('test.txt', 86400)).to.equal(
        'https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256' +
          '&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z' +
          '&X-Amz-Expires=86400&X-Amz-SignedHeaders=host&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404',
      );
    });
  });

  describe('s3 driver against a recording S3 stand-in', () => {
    type Recorded = { method: string; path: string; headers: IncomingMessage['headers']; body: Buffer };
    const objects = new Map<string, { bytes: Buffer; type: string }>();
    const requests: Recorded[] = [];
    let server: Server;
    let endpoint: string;
    const config = () => ({
      endpoint,
      region: 'eu-central-1',
      bucket: 'media-bucket',
      accessKeyId: 'AKIDTEST',
      secretAccessKey: 'test-secret-key',
      forcePathStyle: true,
    });

    before(async () => {
      server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const body = Buffer.concat(chunks);
          const path = req.url!.split('?')[0]!;
          requests.push({ method: req.method!, path, headers: req.headers, body });
          // Verify the signature as S3 would, from what arrived on the wire.
          const signed = /SignedHeaders=([^,]+)/.exec(String(req.headers.authorization))?.[1]?.split(';') ?? [];
          const headers = Object.fromEntries(signed.map((h) => [h, String(req.headers[h])]));
          // At the time the request says it was signed (x-amz-date), as S3 does: not this moment, which may be the next second.
          const signedAt = String(req.headers['x-amz-date']).replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z');
          const expected = authorizationHeader(config(), new Date(signedAt), {
            method: req.method!,
            path,
            headers,
            payloadHash: String(req.headers['x-amz-content-sha256']),
          });
          if (req.headers.authorization !== expected || sha256(body) !== req.headers['x-amz-content-sha256']) {
            res.writeHead(403).end('<Error><Code>SignatureDoesNotMatch</Code></Error>');
            return;
          }
          if (req.method === 'PUT') {
            objects.set(path, { bytes: body, type: String(req.headers['content-type']) });
            res.writeHead(200).end();
          } else if (req.method === 'GET') {
            const o = objects.get(path);
            if (!o) res.writeHead(404, { 'content-type': 'application/xml' }).end('<Error><Code>NoSuchKey</Code></Error>');
            else res.writeHead(200, { 'content-type': o.type }).end(o.bytes);
          } else if (req.method === 'DELETE') {
            objects.delete(path);
            res.writeHead(204).end();
          } else res.writeHead(405).end();
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
      endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('puts, gets and deletes objects with signed requests', async () => {
      const s3 = new S3Storage(config(), { now: () => new Date() });
      const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
      await s3.put('media/store-1/abc.png', bytes, 'image/png');
      const put = requests.at(-1)!;
      expect(put.method).to.equal('PUT');
      expect(put.path).to.equal('/media-bucket/media/store-1/abc.png');
      expect(put.headers['content-type']).to.equal('image/png');
      expect(put.headers['x-amz-content-sha256']).to.equal(sha256(bytes));
      expect(put.headers.authorization).to.match(
        /^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d{8}\/eu-central-1\/s3\/aws4_request,SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date,Signature=[0-9a-f]{64}$/,
      );
      expect(put.body.equals(bytes)).to.be.true;

      const got = await s3.get('media/store-1/abc.png');
      expect(got?.contentType).to.equal('image/png');
      expect(got?.bytes.equals(bytes)).to.be.true;
      expect(requests.at(-1)!.headers['x-amz-content-sha256']).to.equal(EMPTY_PAYLOAD_SHA256);

      await s3.delete('media/store-1/abc.png');
      expect(requests.at(-1)!.method).to.equal('DELETE');
      expect(await s3.get('media/store-1/abc.png')).to.equal(null);
    });

    it('fails loudly when the server refuses the signature', async () => {
      const s3 = new S3Storage({ ...config(), secretAccessKey: 'wrong' }, { now: () => new Date() });
      let error: unknown;
      await s3.put('media/x.png', Buffer.from('x'), 'image/png').catch((e) => (error = e));
      expect(String(error)).to.match(/S3 PUT media\/x.png answered 403/);
    });

    it('presigns path-style URLs at the endpoint', () => {
      const url = new URL(new S3Storage(config(), { now: () => new Date() }).url('media/a.png', 900));
      expect(url.origin + url.pathname).to.equal(`${endpoint}/media-bucket/media/a.png`);
      expect(url.searchParams.get('X-Amz-Expires')).to.equal('900');
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
      const url = objectStorage(app.platform).url(key, 600);
      expect(url).to.match(/^https:\/\/shop\.example\.com\/v1\/media\/files\/media%2Ftest%2Fhello\.png\?expires=\d+&signature=[0-9a-f]{64}$/);
      const res = await fetch(app.url + pathOf(url));
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('image/png');
      expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(res.headers.get('cache-control')).to.match(/^private, max-age=(59\d|600)$/);
      expect(await res.text()).to.equal('not really a png');
    });

    it('refuses a changed signature, expiry or key with 403', async () => {
      const url = new URL(app.url + pathOf(objectStorage(app.platform).url(key, 600)));
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
      const old = new LocalStorage(dir, app.url, app.config.secretsKeys, { now: () => anHourAgo }).url(key, 60);
      const res = await fetch(old);
      expect(res.status).to.equal(403);
      expect(((await res.json()) as any).error.code).to.equal('url_expired');
    });

    it('answers 404 for a correctly signed URL of a key that does not exist', async () => {
      const res = await fetch(app.url + pathOf(objectStorage(app.platform).url('media/test/missing.png', 60)));
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
