import { ObjectId } from 'mongodb';
import { isDuplicateKeyError } from '../../db.js';
import { PlatformError, notFound } from '../../errors.js';
import { carrying } from '../../events/index.js';
import { afterCursor, type Page, findPage } from '../../pagination.js';
import type { Platform } from '../../platform.js';
import { TEMPLATE_KEYS } from '../bundle/types.js';
import { liveTemplates, releaseNumber, withDrafts, type EditableTheme } from './drafts.js';
import { presentRelease, presentReleaseRecord, presentReleaseWithSnapshot } from '../present.js';
import {
  SETTINGS_DATA_KEY,
  themeDrafts,
  themeReleases,
  type DraftKey,
  type ReleaseRecord,
  type SettingsData,
  type Templates,
  type ThemeReleaseDocument,
} from './models.js';
import { storeThemes, type StoreThemeDocument } from '../installs/models.js';

const DRAFT_KEY_ORDER: readonly DraftKey[] = [...TEMPLATE_KEYS, SETTINGS_DATA_KEY];
const RELEASE_NUMBER = /^\d{1,9}$/;

/**
 * `POST /v1/themes/:slug/editor/publish`: the drafts of `keys` (default: every draft) become the
 * live copy as a new release. The commit is one conditional write of the store theme (its
 * release number must still be the one read), carrying `theme.released`; the drafts applied are
 * the versions read, and each is cleared only if still at that version, so a draft saved
 * meanwhile stays a draft.
 */
export async function publishDrafts(platform: Platform, e: EditableTheme, by: ObjectId, keys: readonly DraftKey[] | undefined) {
  await recordLastRelease(platform, e.theme);
  const drafts = await themeDrafts(platform.db)
    .find({ store_theme_id: e.theme._id, content: { $ne: null }, ...(keys ? { template_key: { $in: [...keys] } } : {}) })
    .toArray();
  const missing = (keys ?? []).filter((k) => !drafts.some((d) => d.template_key === k));
  if (missing.length > 0)
    throw new PlatformError('conflict', 'no_draft', 'There is no draft to publish for some of template_keys', {
      details: missing.map((k) => `${k}: has no draft`),
    });
  if (drafts.length === 0) throw new PlatformError('conflict', 'nothing_to_publish', 'This theme has no drafts to publish');
  const { templates, settingsData } = withDrafts(liveTemplates(e), e.theme.settings_data, drafts);
  const now = platform.clock.now();
  const record: ReleaseRecord = {
    number: releaseNumber(e.theme) + 1,
    kind: 'publish',
    published_by: by,
    published_at: now,
    template_keys: DRAFT_KEY_ORDER.filter((k) => drafts.some((d) => d.template_key === k)),
    draft_versions: Object.fromEntries(drafts.map((d) => [d.template_key, d.version])),
    rolled_back_to: null,
  };
  const release = await commitRelease(platform, e.theme, record, templates, settingsData);
  for (const d of drafts) {
    await themeDrafts(platform.db).updateOne(
      { _id: d._id, version: d.version },
      { $set: { content: null, updated_by: by, updated_at: now }, $inc: { version: 1 } },
    );
  }
  return presentReleaseWithSnapshot(release);
}

/**
 * `POST /v1/themes/:slug/releases/:number/rollback`: a release's snapshot becomes the live copy
 * again, as a new release (history is never rewritten). Release 0 is the theme as installed (the
 * bundle's templates and settings). Drafts are left as they are.
 */
export async function rollbackRelease(platform: Platform, e: EditableTheme, by: ObjectId, numberParam: string) {
  if (!RELEASE_NUMBER.test(numberParam)) throw notFound('Release');
  const target = Number(numberParam);
  await recordLastRelease(platform, e.theme);
  let snapshot: ThemeReleaseDocument['snapshot'];
  if (target === 0) snapshot = { templates: e.bundle.templates, settings_data: e.bundle.config.settings_data };
  else {
    const found = await themeReleases(platform.db).findOne({ store_theme_id: e.theme._id, number: target });
    if (!found) throw notFound('Release');
    snapshot = found.snapshot;
  }
  const record: ReleaseRecord = {
    number: releaseNumber(e.theme) + 1,
    kind: 'rollback',
    published_by: by,
    published_at: platform.clock.now(),
    template_keys: [...TEMPLATE_KEYS.filter((k) => snapshot.templates[k] !== undefined), SETTINGS_DATA_KEY],
    draft_versions: {},
    rolled_back_to: target,
  };
  return presentReleaseWithSnapshot(await commitRelease(platform, e.theme, record, snapshot.templates, snapshot.settings_data));
}

/** `GET /v1/themes/:slug/releases`: the releases, oldest first (without their snapshots). */
export async function listReleases(platform: Platform, e: EditableTheme, q: Page) {
  await recordLastRelease(platform, e.theme);
  const page = await findPage(themeReleases(platform.db), { store_theme_id: e.theme._id, ...afterCursor(q) }, q.limit);
  return { items: page.items.map(presentRelease), nextCursor: page.nextCursor };
}

/** `GET /v1/themes/:slug/releases/:number`: one release with its snapshot. */
export async function getRelease(platform: Platform, e: EditableTheme, numberParam: string) {
  if (!RELEASE_NUMBER.test(numberParam)) throw notFound('Release');
  await recordLastRelease(platform, e.theme);
  const found = await themeReleases(platform.db).findOne({ store_theme_id: e.theme._id, number: Number(numberParam) });
  if (!found) throw notFound('Release');
  return presentReleaseWithSnapshot(found);
}

/** The one write that makes a release: only from the release number read (else 409, nothing changed), carrying `theme.released`. */
async function commitRelease(
  platform: Platform,
  theme: StoreThemeDocument,
  record: ReleaseRecord,
  templates: Templates,
  settingsData: SettingsData,
): Promise<ThemeReleaseDocument> {
  const current = releaseNumber(theme);
  const pending = [
    platform.events.pending(
      'theme.released',
      theme.store_id,
      { store_theme_id: theme._id.toHexString(), slug: theme.slug, release: presentReleaseRecord(record) },
      `theme.released:${theme._id.toHexString()}:${record.number}`,
    ),
  ];
  const fromCurrent = current === 0 ? { $or: [{ release_number: 0 }, { release_number: { $exists: false } }] } : { release_number: current };
  const written = await storeThemes(platform.db).updateOne(
    { _id: theme._id, ...fromCurrent },
    carrying<StoreThemeDocument>(
      { $set: { templates, settings_data: settingsData, release_number: record.number, last_release: record, updated_at: record.published_at } },
      pending,
    ),
  );
  if (written.matchedCount === 0) {
    throw new PlatformError('conflict', 'release_conflict', 'This theme was published or rolled back meanwhile; reload the editor and try again');
  }
  await platform.events.settle(storeThemes(platform.db), theme._id, pending);
  const release: ThemeReleaseDocument = {
    _id: new ObjectId(),
    store_theme_id: theme._id,
    store_id: theme.store_id,
    ...record,
    snapshot: { templates, settings_data: settingsData },
  };
  await insertRelease(platform, release);
  platform.log.info({
    event: 'themes.released',
    store_id: theme.store_id.toHexString(),
    theme_id: theme._id.toHexString(),
    number: record.number,
    kind: record.kind,
  });
  return release;
}

/**
 * The history row of the theme's current release, when a process stopped between the commit and
 * writing it: the store theme holds that release's record and content (nothing else changes them).
 */
async function recordLastRelease(platform: Platform, theme: StoreThemeDocument): Promise<void> {
  const last = theme.last_release;
  if (!last || last.number !== releaseNumber(theme) || !theme.templates) return;
  if (await themeReleases(platform.db).findOne({ store_theme_id: theme._id, number: last.number }, { projection: { _id: 1 } })) return;
  await insertRelease(platform, {
    _id: new ObjectId(),
    store_theme_id: theme._id,
    store_id: theme.store_id,
    ...last,
    snapshot: { templates: theme.templates, settings_data: theme.settings_data },
  });
}

async function insertRelease(platform: Platform, release: ThemeReleaseDocument): Promise<void> {
  try {
    await themeReleases(platform.db).insertOne(release);
  } catch (err) {
    // Written already (by a concurrent repair): the same release.
    if (!isDuplicateKeyError(err)) throw err;
  }
}
