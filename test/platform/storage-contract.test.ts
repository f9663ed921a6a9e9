import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Clock } from '../../src/clock.js';
import { LocalStorage, MIN_PART_BYTES, S3Storage, StorageError, type ObjectStorage } from '../../src/storage/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { testS3Config, testS3Storage } from '../helpers/s3.js';

/**
 * One contract, both drivers: the local folder (its URLs served by a real web app) and the s3
 * driver against the test run's real S3-compatible server (SeaweedFS, test/run.ts). `make` gives
 * a new driver instance on the same storage each call, as another process would have.
 */
type Driver = { name: string; setUp(): Promise<void>; tearDown(): Promise<void>; make(clock?: Clock): ObjectStorage };

const systemClock: Clock = { now: () => new Date() };

function localDriver(): Driver {
  let dir: string;
  let app: TestApp;
  return {
    name: 'local',
    async setUp() {
      dir = mkdtempSync(join(tmpdir(), 'emporium-storage-contract-'));
      app = await startTestApp('storage_contract', { STORAGE_LOCAL_DIR: dir });
    },
    async tearDown() {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
    make: (clock = systemClock) => new LocalStorage(dir, app.url, app.config.secretsKeys, clock),
  };
}

function s3Driver(): Driver {
  const made: S3Storage[] = [];
  return {
    name: `s3 (${testS3Config().endpoint})`,
    async setUp() {},
    async tearDown() {
      for (const s of made.splice(0)) s.close();
    },
    make(clock = systemClock) {
      const storage = testS3Storage(clock);
      made.push(storage);
      return storage;
    },
  };
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function refusal(promise: Promise<unknown>): Promise<StorageError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, 'expected a StorageError').to.be.instanceOf(StorageError);
  return error as StorageError;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

for (const driver of [localDriver(), s3Driver()]) {
  describe(`Object storage contract: ${driver.name}`, () => {
    const prefix = `contract/${randomBytes(4).toString('hex')}`;
    let storage: ObjectStorage;
    before(async () => {
      await driver.setUp();
      storage = driver.make();
    });
    after(() => driver.tearDown());

    describe('objects', () => {
      it('puts, reads, heads, streams and deletes an object with its content type', async () => {
        const key = `${prefix}/one.gif`;
        await storage.put(key, Buffer.from('GIF89a-bytes'), 'image/gif');
        expect(await storage.get(key)).to.deep.equal({ bytes: Buffer.from('GIF89a-bytes'), contentType: 'image/gif' });
        expect(await storage.head(key)).to.deep.equal({ size: 12, contentType: 'image/gif' });
        const opened = await storage.open(key);
        expect(opened).to.include({ size: 12, contentType: 'image/gif' });
        expect((await readAll(opened!.stream)).toString()).to.equal('GIF89a-bytes');
        await storage.delete(key);
        expect(await storage.get(key)).to.equal(null);
        expect(await storage.head(key)).to.equal(null);
        expect(await storage.open(key)).to.equal(null);
        await storage.delete(key); // twice is fine
      });

      it('replaces an object whole, and answers null for a key never written', async () => {
        const key = `${prefix}/replaced.txt`;
        await storage.put(key, Buffer.from('first version, longer'), 'text/plain');
        await storage.put(key, Buffer.from('second'), 'text/csv');
        expect(await storage.get(key)).to.deep.equal({ bytes: Buffer.from('second'), contentType: 'text/csv' });
        expect(await storage.get(`${prefix}/never-written.txt`)).to.equal(null);
      });
    });

    describe('URLs', () => {
      const a = `${prefix}/url-a.txt`;
      const b = `${prefix}/url-b.txt`;
      before(async () => {
        await storage.put(a, Buffer.from('object a'), 'text/plain');
        await storage.put(b, Buffer.from('object b'), 'text/plain');
      });

      it('gives a URL that plain fetch reads, without credentials', async () => {
        const res = await fetch(await storage.url(a, 600));
        expect(res.status).to.equal(200);
        expect(res.headers.get('content-type')).to.match(/^text\/plain/);
        expect(await res.text()).to.equal('object a');
      });

      it('refuses the URL with its signature or its key changed', async () => {
        const url = await storage.url(a, 600);
        const signature = /(?:X-Amz-Signature|signature)=([0-9a-f]{64})/.exec(url)![1]!;
        const flipped = url.replace(signature, (signature[0] === 'a' ? 'b' : 'a') + signature.slice(1));
        for (const tampered of [flipped, url.replace('url-a.txt', 'url-b.txt')]) {
          expect(tampered).not.to.equal(url);
          const res = await fetch(tampered);
          expect(res.status, tampered).to.equal(403);
          expect(await res.text()).not.to.include('object');
        }
      });

      it('refuses the URL once it has expired', async () => {
        const anHourAgo = driver.make({ now: () => new Date(Date.now() - 3600_000) });
        const res = await fetch(await anHourAgo.url(a, 60));
        expect(res.status).to.equal(403);
        expect(await res.text()).not.to.include('object a');
      });

      it('signs for up to 7 days, and no longer', async () => {
        expect(await storage.url(a, 7 * 24 * 3600)).to.be.a('string');
        for (const seconds of [0, 7 * 24 * 3600 + 1, 1.5]) {
          const error = await storage.url(a, seconds).then(
            () => null,
            (e: Error) => e,
          );
          expect(error?.message, String(seconds)).to.match(/URL expiry must be/);
        }
      });
    });

    describe('multipart uploads', () => {
      // Two full parts and a short last one, each different.
      const part1 = randomBytes(MIN_PART_BYTES);
      const part2 = randomBytes(MIN_PART_BYTES);
      const part3 = randomBytes(1234);

      it('writes an object from its parts, byte for byte, visible only once completed', async () => {
        const key = `${prefix}/export.jsonl`;
        const { uploadId } = await storage.startMultipart(key, 'application/jsonl');
        const etags = [];
        for (const [i, bytes] of [part1, part2, part3].entries()) etags.push((await storage.uploadPart(key, uploadId, i + 1, bytes)).etag);
        expect(await storage.get(key)).to.equal(null);
        expect(await storage.head(key)).to.equal(null);
        const { size } = await storage.completeMultipart(
          key,
          uploadId,
          etags.map((etag, i) => ({ partNumber: i + 1, etag })),
        );
        const whole = Buffer.concat([part1, part2, part3]);
        expect(size).to.equal(whole.length);
        const object = await storage.get(key);
        expect(object?.contentType).to.equal('application/jsonl');
        expect(sha(object!.bytes)).to.equal(sha(whole));
        expect(await storage.head(key)).to.deep.equal({ size: whole.length, contentType: 'application/jsonl' });
      });

      it('is carried on by another instance: part 1 from one, parts 2 and 3 and the completion from the other', async () => {
        const key = `${prefix}/resumed.jsonl`;
        const first = driver.make();
        const { uploadId } = await first.startMultipart(key, 'application/jsonl');
        const done = [{ partNumber: 1, etag: (await first.uploadPart(key, uploadId, 1, part1)).etag }];
        // What a checkpoint holds: the key, the upload id and the parts done. A new instance takes it from there.
        const second = driver.make();
        done.push({ partNumber: 2, etag: (await second.uploadPart(key, uploadId, 2, part2)).etag });
        done.push({ partNumber: 3, etag: (await second.uploadPart(key, uploadId, 3, part3)).etag });
        expect((await second.completeMultipart(key, uploadId, done)).size).to.equal(2 * MIN_PART_BYTES + 1234);
        expect(sha((await first.get(key))!.bytes)).to.equal(sha(Buffer.concat([part1, part2, part3])));
      });

      it('replaces a part uploaded again under the same number (a resumed writer redoing the part it was unsure of)', async () => {
        const key = `${prefix}/redone.jsonl`;
        const { uploadId } = await storage.startMultipart(key, 'application/jsonl');
        const p1 = await storage.uploadPart(key, uploadId, 1, part1);
        await storage.uploadPart(key, uploadId, 2, Buffer.from('{"half":'));
        const again = await storage.uploadPart(key, uploadId, 2, Buffer.from('{"whole":"line"}\n'));
        await storage.completeMultipart(key, uploadId, [
          { partNumber: 1, etag: p1.etag },
          { partNumber: 2, etag: again.etag },
        ]);
        const bytes = (await storage.get(key))!.bytes;
        expect(bytes.length).to.equal(MIN_PART_BYTES + 17);
        expect(bytes.subarray(MIN_PART_BYTES).toString()).to.equal('{"whole":"line"}\n');
      });

      it('answers a completion repeated with the same parts (its first answer lost) with the object size again', async () => {
        const key = `${prefix}/twice.jsonl`;
        const { uploadId } = await storage.startMultipart(key, 'application/jsonl');
        const parts = [{ partNumber: 1, etag: (await storage.uploadPart(key, uploadId, 1, part3)).etag }];
        expect(await storage.completeMultipart(key, uploadId, parts)).to.deep.equal({ size: 1234 });
        expect(await driver.make().completeMultipart(key, uploadId, parts)).to.deep.equal({ size: 1234 });
      });

      it('refuses parts it does not hold, a part list out of order, and a short part before the last', async () => {
        const key = `${prefix}/refused.jsonl`;
        const { uploadId } = await storage.startMultipart(key, 'application/jsonl');
        const small1 = await storage.uploadPart(key, uploadId, 1, Buffer.from('short'));
        const small2 = await storage.uploadPart(key, uploadId, 2, Buffer.from('parts'));
        const unknownEtag = `"${'0'.repeat(32)}"`;
        expect((await refusal(storage.completeMultipart(key, uploadId, [{ partNumber: 1, etag: unknownEtag }]))).code).to.equal('invalid_part');
        const outOfOrder = [
          { partNumber: 2, etag: small2.etag },
          { partNumber: 1, etag: small1.etag },
        ];
        expect((await refusal(storage.completeMultipart(key, uploadId, outOfOrder))).code).to.equal('invalid_part');
        const tooSmall = [
          { partNumber: 1, etag: small1.etag },
          { partNumber: 2, etag: small2.etag },
        ];
        expect((await refusal(storage.completeMultipart(key, uploadId, tooSmall))).code).to.equal('part_too_small');
        expect(await storage.get(key)).to.equal(null);
        await storage.abortMultipart(key, uploadId);
      });

      it('aborts: the upload is gone for every instance, the key stays empty, and aborting again is fine', async () => {
        const key = `${prefix}/aborted.jsonl`;
        const { uploadId } = await storage.startMultipart(key, 'application/jsonl');
        const p1 = await storage.uploadPart(key, uploadId, 1, part3);
        await storage.abortMultipart(key, uploadId);
        const other = driver.make();
        expect((await refusal(other.uploadPart(key, uploadId, 2, part3))).code).to.equal('no_such_upload');
        expect((await refusal(other.completeMultipart(key, uploadId, [{ partNumber: 1, etag: p1.etag }]))).code).to.equal('no_such_upload');
        expect(await other.get(key)).to.equal(null);
        await other.abortMultipart(key, uploadId);
        await storage.abortMultipart(key, uploadId);
      });

      it('knows an upload only under its own key', async () => {
        const key = `${prefix}/owned.jsonl`;
        const { uploadId } = await storage.startMultipart(key, 'application/jsonl');
        expect((await refusal(storage.uploadPart(`${prefix}/other.jsonl`, uploadId, 1, part3))).code).to.equal('no_such_upload');
        await storage.abortMultipart(key, uploadId);
      });

      it('refuses part numbers outside 1..10,000', async () => {
        const key = `${prefix}/numbers.jsonl`;
        const { uploadId } = await storage.startMultipart(key, 'application/jsonl');
        for (const n of [0, 10_001, 1.5]) {
          const error = await storage.uploadPart(key, uploadId, n, part3).then(
            () => null,
            (e: Error) => e,
          );
          expect(error?.message, String(n)).to.match(/part number must be 1\.\.10000/);
        }
        await storage.abortMultipart(key, uploadId);
      });
    });
  });
}
