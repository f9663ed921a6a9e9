import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../../db.js';
import type { CarriesEvents } from '../../events/index.js';
import type { ReleaseRecord, SettingsData, Templates } from '../editor/models.js';

export const STORE_THEMES = 'store_themes';

/** A theme installed in a store: its own copy of the version's bundle pieces and its own settings. */
export type StoreThemeDocument = {
  _id: ObjectId;
  store_id: ObjectId;
  package_id: ObjectId;
  version_id: ObjectId;
  slug: string;
  version: string;
  role: 'live' | 'unpublished';
  settings_data: SettingsData;
  /**
   * The store's published templates (the bundle's at install; each publish or rollback replaces
   * them). Absent on a theme installed before the editor: the bundle's templates are its copy.
   */
  templates?: Templates;
  /** The number of the last release (0, or absent: none since install); publish and rollback move it by one, conditionally. */
  release_number?: number;
  /** The last release's record (without its snapshot, which is `templates` and `settings_data`), so a release whose history row was never written is written later. */
  last_release?: ReleaseRecord;
  installed_by: ObjectId;
  version_counter: number;
  created_at: Date;
  updated_at: Date;
} & CarriesEvents;

export const installIndexes: IndexDeclaration[] = [
  {
    collection: STORE_THEMES,
    indexes: [
      { key: { store_id: 1, _id: 1 }, name: 'store_id_id' },
      { key: { store_id: 1, package_id: 1 }, name: 'store_id_package_id' },
      { key: { store_id: 1, role: 1 }, name: 'store_id_role' },
      { key: { store_id: 1, slug: 1, _id: -1 }, name: 'store_id_slug_id' },
    ],
  },
];

export const storeThemes = (db: Db) => db.collection<StoreThemeDocument>(STORE_THEMES);
