import { ObjectId } from 'mongodb';
import { notFound } from '../../errors.js';
import type { Platform } from '../../platform.js';
import { isInstallable, presentReview, presentVersion, type ReviewView, type VersionView } from '../present.js';
import { themeReviews } from '../review/models.js';
import { listingFields, themePackages, themeVersions, type ListingFields, type ThemePackageDocument } from './models.js';

/**
 * A theme author's own packages (the merchant admin's uploads, docs/admin.md "Themes"): what an
 * author may see of what they uploaded, a marketplace version's review included (its checks'
 * findings and an operator's reasons), which the catalog never shows.
 */

/** The most packages and versions an author's pages list (newest first); older ones stay reachable through the API. */
const SHOWN = 50;

export type AuthoredPackage = ListingFields & {
  id: string;
  slug: string;
  status: ThemePackageDocument['status'];
  visibility: ThemePackageDocument['visibility'];
  latest_version_number: number;
  created_at: string;
};

export type AuthoredVersion = VersionView & { installable: boolean; review: ReviewView | null };

const presentAuthored = (p: ThemePackageDocument): AuthoredPackage => ({
  id: p._id.toHexString(),
  slug: p.slug,
  ...listingFields(p),
  status: p.status,
  visibility: p.visibility,
  latest_version_number: p.latest_version_number,
  created_at: p.created_at.toISOString(),
});

/** The packages a merchant uploaded, newest first (the `author_id_id` index). */
export async function listAuthoredPackages(platform: Platform, merchantId: string): Promise<AuthoredPackage[]> {
  const docs = await themePackages(platform.db)
    .find({ author_id: new ObjectId(merchantId) })
    .sort({ _id: -1 })
    .limit(SHOWN)
    .toArray();
  return docs.map(presentAuthored);
}

/** One of the merchant's own packages by slug, with its latest versions and each one's review; another author's (or none) is 404. */
export async function getAuthoredPackage(
  platform: Platform,
  merchantId: string,
  slug: string,
): Promise<{ package: AuthoredPackage; versions: AuthoredVersion[] }> {
  const pkg = slug.length <= 100 ? await themePackages(platform.db).findOne({ slug, author_id: new ObjectId(merchantId) }) : null;
  if (!pkg) throw notFound('Theme');
  const versions = await themeVersions(platform.db)
    .find({ package_id: pkg._id }, { projection: { bundle: 0 } })
    .sort({ version_number: -1 })
    .limit(SHOWN)
    .toArray();
  const reviews = await themeReviews(platform.db)
    .find({ resource_id: { $in: versions.map((v) => v._id) } })
    .toArray();
  const reviewOf = new Map(reviews.map((r) => [r.resource_id.toHexString(), r]));
  return {
    package: presentAuthored(pkg),
    versions: versions.map((v) => {
      const review = reviewOf.get(v._id.toHexString());
      return {
        ...presentVersion(v),
        installable: isInstallable(pkg, v) && pkg.published_version_id?.equals(v._id) === true,
        review: review ? presentReview(review) : null,
      };
    }),
  };
}
