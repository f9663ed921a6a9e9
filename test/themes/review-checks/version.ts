import { ObjectId } from 'mongodb';
import { validateBundle } from '../../../src/themes/bundle/validate.js';
import type { ThemeBundle } from '../../../src/themes/index.js';
import type { ThemeVersionDocument } from '../../../src/themes/packages/models.js';
import { loadFixture } from '../../helpers/themes.js';

/** A theme version document of a fixture (normalised as an upload stores it), changed by `change`; not stored anywhere. */
export function versionOf(fixture: string, change: (bundle: ThemeBundle) => void = () => {}): ThemeVersionDocument {
  const bundle = validateBundle(loadFixture(fixture), { config: { env: 'test' } }).bundle!;
  change(bundle);
  const now = new Date();
  return {
    _id: new ObjectId(),
    package_id: new ObjectId(),
    slug: bundle.package.slug,
    version: bundle.package.version,
    version_number: 1,
    status: 'in_review',
    submission_mode: 'marketplace',
    bundle,
    bundle_sha256: '',
    uploaded_by: new ObjectId(),
    created_at: now,
    updated_at: now,
  };
}

/** What a check that reads only the platform's config is given. */
export const configOnly = { config: { env: 'test' } } as never;
