import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ObjectId } from 'mongodb';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { givenMerchant, givenShop } from '../helpers/factories.js';
import { client } from '../helpers/http.js';
import { runProcfileProcess } from '../helpers/processes.js';
import { bundleOf } from '../helpers/theme-uploads.js';
import { until } from '../helpers/waiting.js';

/**
 * A themes worker killed in the middle of a review (SIGKILL while its persistence check waits on
 * object storage): another worker takes the review once the lease runs out and completes it,
 * once. Object storage is an S3 stand-in (a real local HTTP server) that can hold reads.
 */
describe('Theme review when the themes worker dies mid-review', () => {
  let app: TestApp;
  let s3: Server;
  const objects = new Map<string, Buffer>();
  let holdReads = false;
  const held: (() => void)[] = [];

  before(async () => {
    s3 = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url!.split('?')[0]!;
        const answer = () => {
          if (req.method === 'PUT') {
            objects.set(path, Buffer.concat(chunks));
            res.writeHead(200).end();
          } else if (req.method === 'GET') {
            const o = objects.get(path);
            if (!o) res.writeHead(404, { 'content-type': 'application/xml' }).end('<Error><Code>NoSuchKey</Code></Error>');
            else res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(o);
          } else res.writeHead(204).end();
        };
        if (req.method === 'GET' && holdReads) held.push(answer);
        else answer();
      });
    });
    await new Promise<void>((resolve) => s3.listen(0, '127.0.0.1', () => resolve()));
    const endpoint = `http://127.0.0.1:${(s3.address() as AddressInfo).port}`;
    app = await startTestApp('theme_review_recovery', {
      OPERATOR_EMAILS: 'op-recovery@example.com',
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_BUCKET: 'themes-bucket',
      S3_ACCESS_KEY_ID: 'AKIDTEST',
      S3_SECRET_ACCESS_KEY: 'test-secret',
      S3_FORCE_PATH_STYLE: 'true',
      THEMES_REVIEW_LEASE_MS: '1500',
      THEMES_SWEEP_INTERVAL_MS: '300',
    });
  });
  after(async () => {
    for (const answer of held.splice(0)) answer();
    await app.close();
    s3.closeAllConnections();
    await new Promise<void>((resolve) => s3.close(() => resolve()));
  });

  it('completes the review once, in another worker, after the first was killed holding it', async () => {
    const api = client(app.url);
    const author = await givenShop(api);
    const operator = await givenMerchant(api, { email: 'op-recovery@example.com' });
    const up = await api.post('/v1/themes/packages/upload', { bundle: bundleOf('aurora') }, { token: author.merchant.token });
    expect(up.status, JSON.stringify(up.body)).to.equal(201);
    const reviewId = up.body.data.review_record.id as string;

    holdReads = true;
    const first = runProcfileProcess('themes', app.childEnv());
    await first.waitFor('themes.review_started');
    await until('the first worker waiting on object storage', async () => held.length > 0);
    first.child.kill('SIGKILL');
    await first.exited;
    const stored = await app.platform.db.collection('theme_reviews').findOne({ _id: new ObjectId(reviewId) });
    expect(stored).to.include({ status: 'pending_checks', check_runs: 1 });
    holdReads = false;
    for (const answer of held.splice(0)) answer();

    const second = runProcfileProcess('themes', app.childEnv());
    try {
      const done = await until('the review completed by the second worker', async () => {
        const r = await api.get(`/v1/operations/theme-reviews/${reviewId}`, { token: operator.token });
        return r.body.data.status === 'awaiting_review' ? r.body.data : null;
      });
      expect(done.checks.find((c: { name: string }) => c.name === 'theme_package_persistence').status).to.equal('passed');
      // Logged just after the review's write (and its event's settle): wait for the line.
      await second.waitFor('themes.review_completed');
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
    const after = await app.platform.db.collection('theme_reviews').findOne({ _id: new ObjectId(reviewId) });
    expect(after).to.include({ check_runs: 2, lease_owner: null });
    expect(await app.platform.db.collection('events').countDocuments({ idempotency_key: `theme.review.completed:${reviewId}` })).to.equal(1);
  });
});
