import { ObjectId } from 'mongodb';
import { parseObjectId } from '../../ids.js';
import type { Platform } from '../../platform.js';
import { generateToken, hashToken } from '../../secrets/index.js';
import type { EditableTheme } from '../editor/drafts.js';
import { presentPreviewSession } from '../present.js';
import { themePreviewSessions, type ThemePreviewSessionDocument } from './models.js';
import { type DraftKey } from '../editor/models.js';

/** Preview tokens: `emp_pv_` then 256 random bits; only the SHA-256 is stored. */
export const PREVIEW_TOKEN_PREFIX = 'emp_pv';
/** How long a preview token lives (docs/themes.md, Preview sessions). */
export const PREVIEW_TTL_MS = 30 * 60 * 1000;

/** `POST /v1/themes/:slug/preview-session`: a token for this store's theme and one draft key (null: every draft). */
export async function createPreviewSession(platform: Platform, e: EditableTheme, by: ObjectId, templateKey: DraftKey | null) {
  const { token, hash } = generateToken(PREVIEW_TOKEN_PREFIX);
  const now = platform.clock.now();
  const doc: ThemePreviewSessionDocument = {
    _id: new ObjectId(),
    token_hash: hash,
    store_id: e.theme.store_id,
    store_theme_id: e.theme._id,
    template_key: templateKey,
    created_by: by,
    created_at: now,
    expires_at: new Date(now.getTime() + PREVIEW_TTL_MS),
  };
  await themePreviewSessions(platform.db).insertOne(doc);
  platform.log.info({
    event: 'themes.preview_session_created',
    store_id: doc.store_id.toHexString(),
    theme_id: doc.store_theme_id.toHexString(),
    template_key: templateKey,
  });
  return presentPreviewSession(doc, token);
}

/** The live session a token names for this store, or null (malformed, unknown, expired, or another store's). */
export async function findPreviewSession(platform: Platform, storeId: string, token: unknown): Promise<ThemePreviewSessionDocument | null> {
  if (typeof token !== 'string' || !token.startsWith(`${PREVIEW_TOKEN_PREFIX}_`) || token.length > 100) return null;
  const store = parseObjectId(storeId);
  if (!store) return null;
  const session = await themePreviewSessions(platform.db).findOne({ token_hash: hashToken(token), store_id: store });
  return session && session.expires_at.getTime() > platform.clock.now().getTime() ? session : null;
}

/** The maintenance sweep `maintenance.sweep-theme-previews`: preview sessions past their expiry (reads already ignore them). */
export async function sweepExpiredPreviewSessions(platform: Platform): Promise<number> {
  const result = await themePreviewSessions(platform.db).deleteMany({ expires_at: { $lt: platform.clock.now() } });
  return result.deletedCount;
}
