import { sha256 } from '../../../digest.js';
import { findMediaFiles } from '../../../media/index.js';
import { objectStorage } from '../../../storage/index.js';
import { listStoresOwnedBy } from '../../../stores/index.js';
import { assetKey, bundleHash } from '../../bundle/hashing.js';
import { themeVersions } from '../../packages/models.js';
import type { ThemeReviewCheck } from '../check.js';

export const themePackagePersistence: ThemeReviewCheck = {
  code: 'theme_package_persistence',
  blocking: true,
  description: 'The stored version reads back with its upload hash, and every asset is in object storage with its SHA-256 (media files with their size).',
  async run(platform, version) {
    const details: string[] = [];
    const stored = await themeVersions(platform.db).findOne({ _id: version._id });
    if (!stored) return ['the version document is missing'];
    if (bundleHash(stored.bundle) !== stored.bundle_sha256) details.push('the stored bundle does not hash to its upload hash (bundle_sha256)');
    const storage = objectStorage(platform);
    // Media files the version names, from the uploader's stores (the upload checked they were theirs).
    const mediaIds = stored.bundle.renderer.assets.flatMap((a) => (a.media_id ? [a.media_id] : []));
    const owned = mediaIds.length > 0 ? (await listStoresOwnedBy(platform, stored.uploaded_by.toHexString())).map((s) => s.id) : [];
    const files = new Map((await findMediaFiles(platform, owned, mediaIds)).map((f) => [f.id, f]));
    for (const asset of stored.bundle.renderer.assets) {
      if (asset.content !== undefined) {
        const object = await storage.get(assetKey(stored.package_id, stored._id, asset.path));
        if (!object) details.push(`${asset.path}: not in object storage`);
        else if (sha256(object.bytes) !== asset.sha256) details.push(`${asset.path}: object storage holds other bytes (sha256 ${sha256(object.bytes)})`);
      } else if (asset.media_id !== undefined) {
        const file = files.get(asset.media_id);
        const object = file ? await storage.get(file.storage_key) : null;
        if (!object) details.push(`${asset.path}: media ${asset.media_id} is not in object storage`);
        else if (object.bytes.length !== asset.size)
          details.push(`${asset.path}: media ${asset.media_id} is ${object.bytes.length} bytes, not the ${asset.size} declared`);
      }
    }
    return details;
  },
};
