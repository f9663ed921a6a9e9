import type { AppManifest } from '../manifest/types.js';
import { iso, presentDeveloper, presentVersion, type DeveloperView, type VersionView } from '../partners/present.js';
import type { AppDocument, AppStatus, AppVersionDocument, DeveloperDocument } from '../partners/models.js';

/** A version in the operators' review queue, with its app and partner (`manifest` on a single review). */
export type ReviewView = Omit<VersionView, 'manifest'> & {
  manifest?: AppManifest;
  app: { id: string; handle: string; name: string; status: AppStatus; published_version_id: string | null; published_at: string | null };
  developer: Omit<DeveloperView, 'created_at' | 'updated_at'> | null;
};

/** The partner as the queue shows it: the profile without its timestamps. */
function presentPartner(d: DeveloperDocument): Omit<DeveloperView, 'created_at' | 'updated_at'> {
  const { created_at: _created, updated_at: _updated, ...partner } = presentDeveloper(d);
  return partner;
}

export function presentReview(v: AppVersionDocument, a: AppDocument, d: DeveloperDocument | null, withManifest: boolean): ReviewView {
  const { manifest, ...version } = presentVersion(v);
  return {
    ...version,
    ...(withManifest ? { manifest } : {}),
    app: {
      id: a._id.toHexString(),
      handle: a.handle,
      name: a.name,
      status: a.status,
      published_version_id: a.published_version_id?.toHexString() ?? null,
      published_at: iso(a.published_at),
    },
    developer: d ? presentPartner(d) : null,
  };
}
