import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { ObjectId } from 'mongodb';
import type { S3Storage } from '../../src/storage/index.js';
import { png } from '../helpers/images.js';
import { s3Env, testS3Storage } from '../helpers/s3.js';
import { bundleOf } from '../helpers/theme-uploads.js';
import { useThemeMarketplace } from '../helpers/theme-marketplace.js';
import { until } from '../helpers/waiting.js';

const OPERATOR = 'theme-operator-s3@example.com';

/**
 * Theme package uploads with STORAGE_DRIVER=s3 against the test run's real S3-compatible server
 * (SeaweedFS): the web process writes the assets to the bucket, and a real `themes` worker (its
 * own process, the same bucket) checks them there.
 */
describe('Theme packages on the s3 driver: upload, assets in the bucket, the persistence check', () => {
  const { app, api, author, operator } = useThemeMarketplace('theme_packages_s3', OPERATOR, s3Env);
  let bucket: S3Storage;
  before(() => (bucket = testS3Storage()));
  after(() => bucket.close());

  const upload = (bundle: unknown) => api.post('/v1/themes/packages/upload', { bundle }, { token: author.merchant.token });
  const checked = (id: string) =>
    until(`review ${id} checked`, async () => {
      const r = await api.get(`/v1/operations/theme-reviews/${id}`, { token: operator.token });
      return r.body.data && r.body.data.status !== 'pending_checks' ? r.body.data : null;
    });
  const persistence = (review: { checks: { name: string; status: string; details: string[] }[] }) =>
    review.checks.find((c) => c.name === 'theme_package_persistence')!;

  it('stores each inline asset in the bucket, byte for byte, and the worker finds them there', async () => {
    const bundle = bundleOf('aurora');
    const res = await upload(bundle);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const { package: pkg, version, review_record } = res.body.data;
    for (const asset of bundle.renderer.assets) {
      const object = await bucket.get(`themes/${pkg.id}/${version.id}/${asset.path}`);
      expect(object?.bytes.toString('utf8'), asset.path).to.equal(asset.content);
      expect(object?.contentType, asset.path).to.equal(asset.content_type);
    }
    const review = await checked(review_record.id);
    expect(review.status, JSON.stringify(review.checks)).to.equal('awaiting_review');
    expect(persistence(review).status).to.equal('passed');
  });

  it('checks a binary asset held as a media file in the bucket', async () => {
    const image = png(6, 6);
    const form = new FormData();
    form.append('file', new Blob([image], { type: 'image/png' }), 'logo.png');
    const media = await fetch(`${app.url}/v1/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${author.merchant.token}`, 'x-store-id': author.store.id },
      body: form,
    });
    expect(media.status).to.equal(201);
    const mediaId = ((await media.json()) as { data: { id: string } }).data.id;
    const bundle = bundleOf('aurora');
    bundle.renderer.assets.push({
      path: 'assets/logo.png',
      content_type: 'image/png',
      size: image.length,
      sha256: createHash('sha256').update(image).digest('hex'),
      media_id: mediaId,
    });
    const up = await upload(bundle);
    expect(up.status, JSON.stringify(up.body)).to.equal(201);
    const review = await checked(up.body.data.review_record.id);
    expect(persistence(review).status, JSON.stringify(persistence(review).details)).to.equal('passed');
  });

  it('fails the persistence check when an asset is gone from the bucket', async () => {
    const bundle = bundleOf('aurora');
    const ids = (await upload(bundle)).body.data;
    await checked(ids.review_record.id);
    await bucket.delete(`themes/${ids.package.id}/${ids.version.id}/${bundle.renderer.assets[0]!.path}`);
    await app.platform.db
      .collection('theme_reviews')
      .updateOne({ _id: new ObjectId(ids.review_record.id) }, { $set: { status: 'pending_checks', lease_until: null, lease_owner: null } });
    const review = await checked(ids.review_record.id);
    expect(review.status).to.equal('checks_failed');
    expect(persistence(review).details[0]).to.match(/not in object storage/);
  });
});
