import { ObjectId } from 'mongodb';
import { PlatformError, notFound } from '../../errors.js';
import type { ScopedStore } from '../../http/context.js';
import { isDuplicateKeyError } from '../../db.js';
import { parseObjectId } from '../../ids.js';
import type { Platform } from '../../platform.js';
import { TEMPLATE_KEYS, type Template, type TemplateKey, type ThemeBundle } from '../bundle/types.js';
import { presentDraft, presentStoreTheme, type DraftView } from '../present.js';
import { SETTINGS_DATA_KEY, themeDrafts, type DraftKey, type SettingsData, type ThemeDraftDocument, type Templates } from './models.js';
import { storeThemes, type StoreThemeDocument } from '../installs/models.js';
import { themeVersions } from '../packages/models.js';
import { validateDraft } from '../bundle/validate.js';

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** A store theme with the bundle of its installed version: what every editor operation starts from. */
export type EditableTheme = { theme: StoreThemeDocument; bundle: ThemeBundle };

/** The store's live copy of its templates (the bundle's for a theme installed before the editor). */
export const liveTemplates = (e: EditableTheme): Templates => e.theme.templates ?? e.bundle.templates;
export const releaseNumber = (theme: StoreThemeDocument): number => theme.release_number ?? 0;

/**
 * `:slug` of an editor route: the store's installed copy of that theme, the most recent install
 * when the store installed it more than once, or exactly `theme_id` (one of the store's installed
 * themes, of that slug). Anything else, another store's theme included, is 404.
 */
export async function editableTheme(platform: Platform, store: ScopedStore, slug: string, themeId?: string): Promise<EditableTheme> {
  if (!SLUG.test(slug) || slug.length > 100) throw notFound('Installed theme');
  const storeId = new ObjectId(store.id);
  let theme: StoreThemeDocument | null;
  if (themeId !== undefined) {
    const id = parseObjectId(themeId);
    theme = id ? await storeThemes(platform.db).findOne({ _id: id, store_id: storeId, slug }) : null;
  } else {
    theme = await storeThemes(platform.db).findOne({ store_id: storeId, slug }, { sort: { _id: -1 } });
  }
  return withBundle(platform, theme);
}

/** The store's installed theme of that id (the merchant admin's editor names an install, not a slug); anything else is 404. */
export async function editableInstall(platform: Platform, store: ScopedStore, themeId: string): Promise<EditableTheme> {
  const id = parseObjectId(themeId);
  return withBundle(platform, id ? await storeThemes(platform.db).findOne({ _id: id, store_id: new ObjectId(store.id) }) : null);
}

async function withBundle(platform: Platform, theme: StoreThemeDocument | null): Promise<EditableTheme> {
  if (!theme) throw notFound('Installed theme');
  const version = await themeVersions(platform.db).findOne({ _id: theme.version_id });
  if (!version) throw notFound('Installed theme');
  return { theme, bundle: version.bundle };
}

/** `GET /v1/themes/:slug/editor`: every template, live and draft, and the theme settings, live and draft. */
export async function editorState(platform: Platform, store: ScopedStore, e: EditableTheme) {
  const drafts = await themeDrafts(platform.db).find({ store_theme_id: e.theme._id }).toArray();
  const byKey = new Map(drafts.map((d) => [d.template_key, d]));
  const live = liveTemplates(e);
  const keys = TEMPLATE_KEYS.filter((k) => live[k] !== undefined || byKey.get(k)?.content);
  const templates = Object.fromEntries(keys.map((k) => [k, { template_key: k, live: live[k] ?? null, ...presentDraft(byKey.get(k)) }]));
  return {
    theme: { ...presentStoreTheme(e.theme), role: store.live_theme_id === e.theme._id.toHexString() ? 'live' : 'unpublished' },
    release_number: releaseNumber(e.theme),
    templates,
    settings: {
      template_key: SETTINGS_DATA_KEY,
      settings_schema: e.bundle.config.settings_schema,
      live: e.theme.settings_data,
      ...presentDraft(byKey.get(SETTINGS_DATA_KEY)),
    },
    sections: e.bundle.sections,
    blocks: e.bundle.blocks,
  };
}

export type SaveDraftOutcome = { outcome: 'saved'; draft: DraftView } | { outcome: 'conflict'; draft: DraftView };

/**
 * `PUT /v1/themes/:slug/editor/draft`: one key's draft, validated by the bundle's rules, written
 * only when the draft is still at `baseVersion` (0: the key never had a draft). The write touches
 * that key's draft document alone, so no other template's draft can be overwritten; of two saves
 * from the same base, one wins and the other is answered with the current draft (409).
 */
export async function saveDraft(
  platform: Platform,
  e: EditableTheme,
  by: ObjectId,
  key: DraftKey,
  content: Record<string, unknown>,
  baseVersion: number,
): Promise<SaveDraftOutcome> {
  const checked = validateDraft(e.bundle, key, content, { config: platform.config });
  if (!checked.ok)
    throw new PlatformError('invalid_data', 'invalid_draft', `The ${key} draft is invalid; every problem is listed`, { details: checked.issues });
  const now = platform.clock.now();
  const drafts = themeDrafts(platform.db);
  if (baseVersion === 0) {
    const doc: ThemeDraftDocument = {
      _id: new ObjectId(),
      store_theme_id: e.theme._id,
      store_id: e.theme.store_id,
      template_key: key,
      content: checked.content,
      version: 1,
      updated_by: by,
      updated_at: now,
      created_at: now,
    };
    try {
      await drafts.insertOne(doc);
      return { outcome: 'saved', draft: presentDraftOf(key, doc) };
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
    }
  } else {
    const saved = await drafts.findOneAndUpdate(
      { store_theme_id: e.theme._id, template_key: key, version: baseVersion },
      { $set: { content: checked.content, updated_by: by, updated_at: now }, $inc: { version: 1 } },
      { returnDocument: 'after' },
    );
    if (saved) return { outcome: 'saved', draft: presentDraftOf(key, saved) };
  }
  return { outcome: 'conflict', draft: presentDraftOf(key, await drafts.findOne({ store_theme_id: e.theme._id, template_key: key })) };
}

/** `DELETE /v1/themes/:slug/editor/draft?template_key=`: that key's draft is gone (its version moves on, so a tab still editing it gets 409). */
export async function discardDraft(platform: Platform, e: EditableTheme, by: ObjectId, key: DraftKey): Promise<DraftView> {
  const discarded = await themeDrafts(platform.db).findOneAndUpdate(
    { store_theme_id: e.theme._id, template_key: key, content: { $ne: null } },
    { $set: { content: null, updated_by: by, updated_at: platform.clock.now() }, $inc: { version: 1 } },
    { returnDocument: 'after' },
  );
  if (!discarded) throw new PlatformError('not_found', 'no_draft', `The ${key} template has no draft`);
  return presentDraftOf(key, discarded);
}

const presentDraftOf = (key: DraftKey, d: ThemeDraftDocument | null | undefined): DraftView & { template_key: DraftKey } => ({
  template_key: key,
  ...presentDraft(d ?? undefined),
});

/** Templates and settings with drafts laid over the live copy. */
export function withDrafts(
  templates: Templates,
  settings: SettingsData,
  drafts: readonly ThemeDraftDocument[],
): { templates: Templates; settingsData: SettingsData } {
  const out: Templates = { ...templates };
  let settingsData = settings;
  for (const d of drafts) {
    if (d.content === null) continue;
    if (d.template_key === SETTINGS_DATA_KEY) settingsData = d.content as SettingsData;
    else out[d.template_key as TemplateKey] = d.content as Template;
  }
  return { templates: out, settingsData };
}
