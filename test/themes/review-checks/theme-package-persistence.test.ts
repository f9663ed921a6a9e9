import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { objectStorage } from '../../../src/storage/index.js';
import { assetKey, bundleHash } from '../../../src/themes/bundle/hashing.js';
import { themeVersions } from '../../../src/themes/packages/models.js';
import { themePackagePersistence } from '../../../src/themes/review/checks/theme-package-persistence.js';
import { useTestApp } from '../../helpers/app.js';
import { versionOf } from './version.js';

describe('theme review check theme_package_persistence', () => {
  const { app } = useTestApp('review_check_persistence');

  /** A version stored with its hash, and its assets in object storage. */
  const stored = async () => {
    const version = versionOf('aurora');
    version.bundle_sha256 = bundleHash(version.bundle);
    await themeVersions(app.platform.db).insertOne(version);
    for (const a of version.bundle.renderer.assets) {
      await objectStorage(app.platform).put(assetKey(version.package_id, version._id, a.path), Buffer.from(a.content!, 'utf8'), a.content_type);
    }
    return version;
  };

  it('blocks', () => expect(themePackagePersistence.blocking).to.equal(true));

  it('finds nothing when the version reads back with its hash and every asset is stored', async () => {
    expect(await themePackagePersistence.run(app.platform, await stored())).to.deep.equal([]);
  });

  it('names a missing version, a stored bundle that no longer hashes to its upload hash, and assets missing or changed', async () => {
    expect(await themePackagePersistence.run(app.platform, versionOf('aurora'))).to.deep.equal(['the version document is missing']);
    const version = await stored();
    const [first, second] = version.bundle.renderer.assets;
    await themeVersions(app.platform.db).updateOne({ _id: version._id }, { $set: { 'bundle.package.name': 'Changed' } });
    await objectStorage(app.platform).delete(assetKey(version.package_id, version._id, first!.path));
    await objectStorage(app.platform).put(assetKey(version.package_id, version._id, second!.path), Buffer.from('other'), 'text/css');
    const found = await themePackagePersistence.run(app.platform, version);
    expect(found[0]).to.equal('the stored bundle does not hash to its upload hash (bundle_sha256)');
    expect(found.slice(1)).to.deep.equal([
      `${first!.path}: not in object storage`,
      `${second!.path}: object storage holds other bytes (sha256 ${createHash('sha256').update('other').digest('hex')})`,
    ]);
  });
});
