import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { givenMerchant, givenMerchantWithStore } from '../helpers/factories.js';
import { client } from '../helpers/http.js';
import { runProcfileProcess } from '../helpers/processes.js';
import { bundleOf } from '../helpers/theme-uploads.js';
import { s3Env, startS3Proxy, type S3Proxy } from '../helpers/s3.js';
import { until } from '../helpers/waiting.js';

/**
 * A themes worker killed in the middle of a review (SIGKILL while its persistence check waits on
 * object storage): another worker takes the review once the lease runs out and completes it,
 * once. Object storage is the test run's real S3 server (SeaweedFS) behind a proxy that can hold reads.
 */
describe('Theme review when the themes worker dies mid-review', () => {
  let app: TestApp;
  let s3: S3Proxy;

  before(async () => {
    s3 = await startS3Proxy();
    app = await startTestApp('theme_review_recovery', {
      OPERATOR_EMAILS: 'op-recovery@example.com',
      ...s3Env(),
      S3_ENDPOINT: s3.endpoint,
      THEMES_REVIEW_LEASE_MS: '1500',
      THEMES_SWEEP_INTERVAL_MS: '300',
    });
  });
  after(async () => {
    await app.close();
    await s3.close();
  });

  it('completes the review once, in another worker, after the first was killed holding it', async () => {
    const api = client(app.url);
    const author = await givenMerchantWithStore(api);
    const operator = await givenMerchant(api, { email: 'op-recovery@example.com' });
    const up = await api.post('/v1/themes/packages/upload', { bundle: bundleOf('aurora') }, { token: author.merchant.token });
    expect(up.status, JSON.stringify(up.body)).to.equal(201);
    const reviewId = up.body.data.review_record.id as string;

    s3.hold = (req) => req.method === 'GET';
    const first = runProcfileProcess('themes', app.childEnv());
    await first.waitFor('themes.review_started');
    await until('the first worker waiting on object storage', async () => s3.held() > 0);
    first.child.kill('SIGKILL');
    await first.exited;
    const stored = await app.platform.db.collection('theme_reviews').findOne({ _id: new ObjectId(reviewId) });
    expect(stored).to.include({ status: 'pending_checks', check_runs: 1 });
    s3.hold = null;
    s3.release();

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
