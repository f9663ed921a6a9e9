import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../../db.js';
import type { Template, TemplateKey, ThemeBundle } from '../bundle/types.js';

export const THEME_DRAFTS = 'theme_drafts';
export const THEME_RELEASES = 'theme_releases';

/** The draft key of the theme settings (`config.settings_data`): every other draft key is a template key. */
export const SETTINGS_DATA_KEY = 'settings_data';
export type DraftKey = TemplateKey | typeof SETTINGS_DATA_KEY;
export type SettingsData = ThemeBundle['config']['settings_data'];
export type Templates = Partial<Record<TemplateKey, Template>>;

/** One template's (or the settings') draft of a store's theme. `content: null`: no draft (discarded or published); `version` never goes back. */
export type ThemeDraftDocument = {
  _id: ObjectId;
  store_theme_id: ObjectId;
  store_id: ObjectId;
  template_key: DraftKey;
  content: Template | SettingsData | null;
  version: number;
  updated_by: ObjectId;
  updated_at: Date;
  created_at: Date;
};

export type ReleaseRecord = {
  number: number;
  kind: 'publish' | 'rollback';
  published_by: ObjectId;
  published_at: Date;
  /** The draft keys a publish applied; a rollback's: every template of the snapshot and settings_data. */
  template_keys: DraftKey[];
  /** The draft versions a publish applied, by key. */
  draft_versions: Partial<Record<DraftKey, number>>;
  rolled_back_to: number | null;
};

/** A release of a store theme: who published what when, and the live content it made (history is only ever added to). */
export type ThemeReleaseDocument = ReleaseRecord & {
  _id: ObjectId;
  store_theme_id: ObjectId;
  store_id: ObjectId;
  snapshot: { templates: Templates; settings_data: SettingsData };
};

export const editorIndexes: IndexDeclaration[] = [
  {
    collection: THEME_DRAFTS,
    indexes: [{ key: { store_theme_id: 1, template_key: 1 }, name: 'store_theme_id_template_key_unique', unique: true }],
  },
  {
    collection: THEME_RELEASES,
    indexes: [
      { key: { store_theme_id: 1, number: 1 }, name: 'store_theme_id_number_unique', unique: true },
      { key: { store_theme_id: 1, _id: 1 }, name: 'store_theme_id_id' },
    ],
  },
];

export const themeDrafts = (db: Db) => db.collection<ThemeDraftDocument>(THEME_DRAFTS);
export const themeReleases = (db: Db) => db.collection<ThemeReleaseDocument>(THEME_RELEASES);
