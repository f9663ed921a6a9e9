import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { S3Storage } from '../../src/storage/index.js';
import type { S3Config } from '../../src/config.js';
import type { Clock } from '../../src/clock.js';

/**
 * The real S3-compatible server of the test run (SeaweedFS, started by test/run.ts; or the one
 * EMPORIUM_TEST_S3_ENDPOINT and its companions name).
 */
export function testS3Config(): S3Config {
  const endpoint = process.env.EMPORIUM_TEST_S3_ENDPOINT;
  if (!endpoint) throw new Error('EMPORIUM_TEST_S3_ENDPOINT is not set: run the tests with npm test (test/run.ts starts SeaweedFS)');
  return {
    endpoint,
    region: process.env.EMPORIUM_TEST_S3_REGION ?? 'us-east-1',
    bucket: process.env.EMPORIUM_TEST_S3_BUCKET ?? 'emporium-test',
    accessKeyId: process.env.EMPORIUM_TEST_S3_ACCESS_KEY_ID ?? '',
    secretAccessKey: process.env.EMPORIUM_TEST_S3_SECRET_ACCESS_KEY ?? '',
    forcePathStyle: true,
  };
}

/** Environment that puts a test app (and its child processes) on the s3 driver against that server. */
export function s3Env(): Record<string, string> {
  const c = testS3Config();
  return {
    STORAGE_DRIVER: 's3',
    S3_ENDPOINT: c.endpoint,
    S3_REGION: c.region,
    S3_BUCKET: c.bucket,
    S3_ACCESS_KEY_ID: c.accessKeyId,
    S3_SECRET_ACCESS_KEY: c.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
  };
}

export function testS3Storage(clock: Clock = { now: () => new Date() }, overrides: Partial<S3Config> = {}): S3Storage {
  return new S3Storage({ ...testS3Config(), ...overrides }, clock);
}

export type S3Proxy = {
  /** Its endpoint: give it as S3_ENDPOINT (the requests are signed for it, and pass on unchanged). */
  endpoint: string;
  /** Requests it answers true for wait until released (null: none waits). */
  hold: ((req: { method: string; url: string }) => boolean) | null;
  /** Reads waiting now. */
  held(): number;
  /** Lets every waiting read through. */
  release(): void;
  close(): Promise<void>;
};

/**
 * A pass-through proxy in front of the test run's S3 server that can hold chosen requests (a
 * process stopped while it waits on storage: a read, or the upload of a given part). Requests go on unchanged, Host header included,
 * so their signatures still hold at the server.
 */
export async function startS3Proxy(): Promise<S3Proxy> {
  const upstream = new URL(testS3Config().endpoint);
  const waiting: (() => void)[] = [];
  const proxy: S3Proxy = {
    endpoint: '',
    hold: null,
    held: () => waiting.length,
    release: () => {
      for (const go of waiting.splice(0)) go();
    },
    close: async () => {
      proxy.release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const forward = () => {
        const out = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        out.on('error', () => res.destroy());
        out.end(Buffer.concat(chunks));
      };
      if (proxy.hold?.({ method: req.method ?? '', url: req.url ?? '' })) waiting.push(forward);
      else forward();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  proxy.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
