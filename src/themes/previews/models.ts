import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../../db.js';
import type { DraftKey } from '../editor/models.js';

export const THEME_PREVIEW_SESSIONS = 'theme_preview_sessions';

/** A preview session: the SHA-256 of its token only, bound to one store and store theme and optionally one draft key. */
export type ThemePreviewSessionDocument = {
  _id: ObjectId;
  token_hash: string;
  store_id: ObjectId;
  store_theme_id: ObjectId;
  template_key: DraftKey | null;
  created_by: ObjectId;
  created_at: Date;
  expires_at: Date;
};

export const previewIndexes: IndexDeclaration[] = [
  {
    collection: THEME_PREVIEW_SESSIONS,
    indexes: [
      { key: { token_hash: 1 }, name: 'token_hash_unique', unique: true },
      { key: { expires_at: 1 }, name: 'expires_at' },
    ],
  },
];

export const themePreviewSessions = (db: Db) => db.collection<ThemePreviewSessionDocument>(THEME_PREVIEW_SESSIONS);
