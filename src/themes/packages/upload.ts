import { ObjectId } from 'mongodb';
import { isDuplicateKeyError } from '../../db.js';
import { PlatformError, type InputIssue } from '../../errors.js';
import { carried } from '../../events/index.js';
import type { MerchantPrincipal } from '../../http/context.js';
import type { Platform } from '../../platform.js';
import { findMediaFiles } from '../../media/index.js';
import { isStorageKey, objectStorage } from '../../storage/index.js';
import { listStoresOwnedBy } from '../../stores/index.js';
import type { AssetEntry } from '../bundle/types.js';
import { assetKey, bundleHash } from '../bundle/hashing.js';
import { initialChecks } from '../review/checks/index.js';
import { catalogMeta, enqueueReview } from '../review/service.js';
import { presentUpload, type UploadResult } from '../present.js';
import type { UploadBody } from '../schemas.js';
import { listingFields, themePackages, themeVersions, type ThemePackageDocument, type ThemeVersionDocument } from './models.js';
import { themeReviews, type ThemeReviewDocument } from '../review/models.js';
import { validateBundle } from '../bundle/validate.js';

/** The store `theme.submitted` is recorded in: the one named by X-Store-Id (owned), else the uploader's first store, else none. */
async function eventStore(platform: Platform, merchant: MerchantPrincipal, named: string | undefined): Promise<ObjectId | null> {
  const owned = await listStoresOwnedBy(platform, merchant.merchantId);
  if (named) {
    const store = owned.find((s) => s.id === named);
    if (!store) throw new PlatformError('not_allowed', 'store_forbidden', 'You do not have access to this store');
    return new ObjectId(store.id);
  }
  return owned[0] ? new ObjectId(owned[0].id) : null;
}

/** Assets the validator cannot judge alone: storage-safe paths, and media ids of the uploader's own stores. */
async function assetIssues(platform: Platform, merchant: MerchantPrincipal, assets: readonly AssetEntry[]): Promise<InputIssue[]> {
  const issues: InputIssue[] = [];
  const mediaIds: { i: number; id: ObjectId }[] = [];
  assets.forEach((a, i) => {
    if (!isStorageKey(`themes/x/y/${a.path}`))
      issues.push({
        path: `renderer.assets.${i}.path`,
        message: 'must be segments of letters, digits, ".", "_" and "-", each starting with a letter or digit',
      });
    if (a.media_id !== undefined) {
      if (ObjectId.isValid(a.media_id) && /^[0-9a-f]{24}$/.test(a.media_id)) mediaIds.push({ i, id: new ObjectId(a.media_id) });
      else issues.push({ path: `renderer.assets.${i}.media_id`, message: 'must be a media id' });
    }
  });
  if (mediaIds.length > 0) {
    const stores = (await listStoresOwnedBy(platform, merchant.merchantId)).map((s) => s.id);
    const known = new Set(
      (
        await findMediaFiles(
          platform,
          stores,
          mediaIds.map((m) => m.id.toHexString()),
        )
      ).map((f) => f.id),
    );
    for (const { i, id } of mediaIds)
      if (!known.has(id.toHexString())) issues.push({ path: `renderer.assets.${i}.media_id`, message: 'is not a media file of a store you own' });
  }
  return issues;
}

export type Uploaded = { created: boolean; result: UploadResult };

/**
 * Upload a theme package version (spec 4.6, docs/themes.md "Upload"). The merchant is resolved
 * first; the bundle is validated whole (every issue, before anything is written); then:
 * - the slug's package (created on its first upload; only its author may add versions; a
 *   package stays in the submission mode of its first upload);
 * - the identical bundle uploaded again is the same upload (answered again, nothing written);
 * - the version (its `version_number` above every earlier one), its assets in object storage;
 * - `marketplace`: package and version `draft`, a review record whose checks the themes worker
 *   runs, and `theme.submitted` carried by the review's insert; not installable until approved;
 * - `private_install`: no review, installable at once into the author's own stores only.
 */
export async function uploadPackage(platform: Platform, merchant: MerchantPrincipal, storeHeader: string | undefined, body: UploadBody): Promise<Uploaded> {
  const validation = validateBundle(body.bundle, { config: platform.config });
  if (!validation.ok || !validation.bundle) {
    throw new PlatformError('invalid_data', 'invalid_bundle', 'The theme bundle is invalid; every problem is listed', { details: validation.issues });
  }
  const bundle = validation.bundle;
  const extra = await assetIssues(platform, merchant, bundle.renderer.assets);
  if (extra.length > 0)
    throw new PlatformError('invalid_data', 'invalid_bundle', 'The theme bundle is invalid; every problem is listed', {
      details: extra.map((i) => `${i.path}: ${i.message}`),
    });
  const mode = body.submission_mode;
  const storeId = await eventStore(platform, merchant, storeHeader);
  const author = new ObjectId(merchant.merchantId);
  const hash = bundleHash(bundle);
  const now = platform.clock.now();

  // The package: found, or created by this first upload (a concurrent first upload of the slug wins the unique index).
  let pkg = await themePackages(platform.db).findOne({ slug: bundle.package.slug });
  if (!pkg) {
    const doc: ThemePackageDocument = {
      _id: new ObjectId(),
      slug: bundle.package.slug,
      author_id: author,
      ...listingFields(bundle.package),
      status: mode === 'marketplace' ? 'draft' : 'active',
      visibility: mode === 'marketplace' ? 'marketplace' : 'private',
      published_version_id: null,
      catalog: null,
      latest_version_number: 0,
      created_at: now,
      updated_at: now,
    };
    try {
      await themePackages(platform.db).insertOne(doc);
      pkg = doc;
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      pkg = await themePackages(platform.db).findOne({ slug: bundle.package.slug });
      if (!pkg) throw err;
    }
  }
  if (!pkg.author_id.equals(author)) {
    throw new PlatformError('not_allowed', 'theme_slug_taken', `The slug ${pkg.slug} belongs to another author's theme; only its author uploads new versions`);
  }
  const visibility = mode === 'marketplace' ? 'marketplace' : 'private';
  if (pkg.visibility !== visibility) {
    throw new PlatformError(
      'conflict',
      'submission_mode_mismatch',
      `The package ${pkg.slug} is ${pkg.visibility === 'private' ? 'a private install' : 'a marketplace theme'}; upload its versions in that mode`,
    );
  }

  // The same bundle again: the same upload.
  const same = await themeVersions(platform.db).findOne({ package_id: pkg._id, bundle_sha256: hash });
  if (same) {
    const review = await themeReviews(platform.db).findOne({ resource_id: same._id });
    const current = (await themePackages(platform.db).findOne({ _id: pkg._id })) ?? pkg;
    return { created: false, result: presentUpload(current, same, review) };
  }
  if (bundle.package.version_number <= pkg.latest_version_number) {
    throw new PlatformError(
      'conflict',
      'version_number_not_increasing',
      `package.version_number must be greater than ${pkg.latest_version_number}, the latest version of ${pkg.slug}`,
    );
  }

  const version: ThemeVersionDocument = {
    _id: new ObjectId(),
    package_id: pkg._id,
    slug: pkg.slug,
    version: bundle.package.version,
    version_number: bundle.package.version_number,
    status: mode === 'marketplace' ? 'draft' : 'published',
    submission_mode: mode,
    bundle,
    bundle_sha256: hash,
    uploaded_by: author,
    created_at: now,
    updated_at: now,
  };
  // Assets first: a version whose document exists has its files (the persistence check verifies it).
  const storage = objectStorage(platform);
  for (const asset of bundle.renderer.assets) {
    if (asset.content !== undefined) await storage.put(assetKey(pkg._id, version._id, asset.path), Buffer.from(asset.content, 'utf8'), asset.content_type);
  }
  try {
    await themeVersions(platform.db).insertOne(version);
  } catch (err) {
    if (isDuplicateKeyError(err))
      throw new PlatformError(
        'conflict',
        'version_number_not_increasing',
        `package.version_number ${version.version_number} of ${pkg.slug} was just uploaded by another request`,
      );
    throw err;
  }
  await themePackages(platform.db).updateOne(
    { _id: pkg._id, latest_version_number: { $lt: version.version_number } },
    { $set: { latest_version_number: version.version_number, updated_at: now } },
  );
  if (mode === 'private_install') {
    await themePackages(platform.db).updateOne(
      { _id: pkg._id },
      { $set: { published_version_id: version._id, catalog: catalogMeta(version, now), updated_at: now } },
    );
    const current = (await themePackages(platform.db).findOne({ _id: pkg._id })) ?? pkg;
    platform.log.info({ event: 'themes.uploaded', package_id: pkg._id.toHexString(), version_id: version._id.toHexString(), mode });
    return { created: true, result: presentUpload(current, version, null) };
  }

  const review: ThemeReviewDocument = {
    _id: new ObjectId(),
    submission_type: 'theme_version',
    resource_id: version._id,
    package_id: pkg._id,
    status: 'pending_checks',
    checks: initialChecks(bundle),
    schema_manifest_version: bundle.schema_version,
    renderer_version: bundle.renderer.renderer_version,
    reasons: [],
    reviewed_by: null,
    reviewed_at: null,
    event_store_id: storeId,
    lease_until: null,
    lease_owner: null,
    check_runs: 0,
    created_at: now,
    updated_at: now,
  };
  const pending = [
    platform.events.pending(
      'theme.submitted',
      storeId,
      {
        theme_package_id: pkg._id.toHexString(),
        theme_version_id: version._id.toHexString(),
        review_record_id: review._id.toHexString(),
        slug: pkg.slug,
        version: version.version,
        version_number: version.version_number,
      },
      `theme.submitted:${pkg._id.toHexString()}:${version._id.toHexString()}`,
    ),
  ];
  await themeReviews(platform.db).insertOne({ ...review, ...carried(pending) });
  await platform.events.settle(themeReviews(platform.db), review._id, pending);
  await enqueueReview(platform, review._id);
  platform.log.info({ event: 'themes.uploaded', package_id: pkg._id.toHexString(), version_id: version._id.toHexString(), mode });
  return { created: true, result: presentUpload(pkg, version, review) };
}
