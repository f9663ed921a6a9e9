import type { Db, ObjectId } from 'mongodb';
import { notFound } from '../../errors.js';
import type { MerchantPrincipal } from '../../http/context.js';
import { parseObjectId } from '../../ids.js';
import type { Platform } from '../../platform.js';
import { findOwnedStore } from '../../stores/index.js';
import type { Template, TemplateKey, ThemeBundle } from '../bundle/types.js';
import { releaseNumber, withDrafts } from '../editor/drafts.js';
import { findPreviewSession } from '../previews/sessions.js';
import { storeThemes, type StoreThemeDocument } from './models.js';
import { themeDrafts, type DraftKey } from '../editor/models.js';
import { themePackages, themeVersions } from '../packages/models.js';
import { visiblePackage } from './service.js';

/**
 * What the storefront renderer needs of a store's theme (docs/rendering.md): the bundle of the
 * installed version (sections, blocks, locales, renderer and assets), the effective templates
 * and settings, and the key of its Liquid sources (the version: compiled templates are kept per
 * version, so a publish, a rollback or a previewed draft, which change only templates and
 * settings, compile nothing).
 *
 * The live theme is the store's `live_theme_id`, with the store's published template copies
 * (docs/themes.md, Releases and rollback). A preview session's theme has the session's drafts
 * laid over those (docs/themes.md, Preview sessions).
 *
 * The effective templates and settings are `templates` and `settingsData`: a Liquid bundle's
 * layout files (`templates/*.json`, `config/settings_data.json` among `bundle.renderer.assets`)
 * hold the bundle's as uploaded, never the store's edits.
 */
export type RenderableTheme = {
  /** The store's installed theme, or null for a theme store theme previewed before it is installed. */
  storeThemeId: string | null;
  slug: string;
  versionId: string;
  bundle: ThemeBundle;
  templates: Partial<Record<TemplateKey, Template>>;
  settingsData: ThemeBundle['config']['settings_data'];
  /** The key of the Liquid sources, what render threads keep compiled templates by: the version id (a version never changes). */
  sourceKey: string;
  /** Whether this is a preview of unpublished drafts (never cached by shared caches). */
  preview: boolean;
  /** The release the live templates are (0: as installed). */
  releaseNumber: number;
};

/** The store's live theme as it renders for shoppers, or null when the store has none. */
export async function liveRenderableTheme(platform: Platform, storeId: string, liveThemeId: string | null): Promise<RenderableTheme | null> {
  const id = liveThemeId ? parseObjectId(liveThemeId) : null;
  const store = parseObjectId(storeId);
  if (!id || !store) return null;
  const theme = await storeThemes(platform.db).findOne({ _id: id, store_id: store });
  return theme ? renderable(platform, theme) : null;
}

/**
 * The theme a preview token shows (its own store theme, live or not), with the session's drafts
 * laid over the published copy: the one key's draft, or every draft when the session names none.
 * Null when the token is malformed, unknown, expired, or another store's: the renderer then shows
 * the live theme (or refuses), never another store's drafts.
 */
export async function previewRenderableTheme(platform: Platform, storeId: string, previewToken: string): Promise<RenderableTheme | null> {
  const session = await findPreviewSession(platform, storeId, previewToken);
  return session ? draftsOverLive(platform, session.store_id, session.store_theme_id, session.template_key) : null;
}

/**
 * The store's installed theme `storeThemeId` with its drafts of `keys` laid over the published
 * copy, as a preview session shows it: the merchant admin's editor frames this for the template it
 * edits and the theme settings (its own session is the admin's, so it needs no token). Null when
 * the theme is not the store's.
 */
export async function draftRenderableTheme(
  platform: Platform,
  storeId: string,
  storeThemeId: string,
  keys: readonly DraftKey[],
): Promise<RenderableTheme | null> {
  const store = parseObjectId(storeId);
  const id = parseObjectId(storeThemeId);
  return store && id ? draftsOverLive(platform, store, id, keys) : null;
}

/** A theme's drafts of `keys` (one key, several, or every draft for null) over its published copy. */
async function draftsOverLive(
  platform: Platform,
  storeId: ObjectId,
  storeThemeId: ObjectId,
  keys: DraftKey | readonly DraftKey[] | null,
): Promise<RenderableTheme | null> {
  const theme = await storeThemes(platform.db).findOne({ _id: storeThemeId, store_id: storeId });
  if (!theme) return null;
  const live = await renderable(platform, theme);
  if (!live) return null;
  const only = keys === null ? {} : { template_key: typeof keys === 'string' ? keys : { $in: [...keys] } };
  const drafts = await themeDrafts(platform.db)
    .find({ store_theme_id: theme._id, content: { $ne: null }, ...only })
    .sort({ template_key: 1 })
    .toArray();
  const { templates, settingsData } = withDrafts(live.templates, live.settingsData, drafts);
  return { ...live, templates, settingsData, preview: true };
}

/**
 * A theme store theme as it would render before it is installed (the merchant admin's preview of a
 * catalog theme, Shopify's "Try theme"): its published version's bundle with the bundle's own
 * templates and default settings, nothing of any store's copy. 404 as the catalog's reads rule:
 * a theme not published, or another author's private one; a published version only (an unpublished
 * or rejected upload never renders here). Reads only: nothing is installed or drafted.
 */
export async function catalogRenderableTheme(platform: Platform, slug: string, caller: MerchantPrincipal): Promise<RenderableTheme> {
  const pkg = await visiblePackage(platform, slug, caller);
  const version = await themeVersions(platform.db).findOne({ _id: pkg.published_version_id!, status: 'published' }, { projection: { _id: 1 } });
  const bundle = version && (await versionBundle(platform, version._id));
  if (!bundle) throw notFound('Theme');
  const id = version._id.toHexString();
  return {
    storeThemeId: null,
    slug: pkg.slug,
    versionId: id,
    bundle,
    templates: bundle.templates,
    settingsData: bundle.config.settings_data,
    sourceKey: id,
    preview: true,
    releaseNumber: 0,
  };
}

/** Bundles of theme versions kept per process (LRU by entries): a stored version's bundle never changes. */
const BUNDLES_KEPT = 64;
const bundles = new WeakMap<Db, Map<string, ThemeBundle>>();

/**
 * A version's bundle, read once per process: versions are immutable once stored (an upload
 * makes a new one), so the largest read of a page (the whole bundle) is not made per request.
 */
async function versionBundle(platform: Platform, versionId: ObjectId): Promise<ThemeBundle | null> {
  let kept = bundles.get(platform.db);
  if (!kept) bundles.set(platform.db, (kept = new Map()));
  const key = versionId.toHexString();
  const hit = kept.get(key);
  if (hit) {
    kept.delete(key); // re-inserted last: the Map's order is the age order
    kept.set(key, hit);
    return hit;
  }
  const version = await themeVersions(platform.db).findOne({ _id: versionId }, { projection: { bundle: 1 } });
  if (!version) return null;
  kept.set(key, version.bundle);
  if (kept.size > BUNDLES_KEPT) kept.delete(kept.keys().next().value!);
  return version.bundle;
}

async function renderable(platform: Platform, theme: StoreThemeDocument): Promise<RenderableTheme | null> {
  const bundle = await versionBundle(platform, theme.version_id);
  if (!bundle) return null;
  const version = { _id: theme.version_id, bundle };
  const release = releaseNumber(theme);
  return {
    storeThemeId: theme._id.toHexString(),
    slug: theme.slug,
    versionId: version._id.toHexString(),
    bundle: version.bundle,
    templates: theme.templates ?? version.bundle.templates,
    settingsData: theme.settings_data,
    sourceKey: version._id.toHexString(),
    preview: false,
    releaseNumber: release,
  };
}

/**
 * The bundle of a theme version the store may show, or null: what the theme asset route serves
 * from. A version installed in the store (any of its store themes, live or not: a preview of a
 * theme that is not live finds its assets), or the version a theme store theme publishes now (the
 * admin's preview of a catalog theme before it is installed): a marketplace theme's (public
 * anyway, anyone may install it), or a private theme's when its author owns the store (the only
 * one who may preview it). Never a draft, in-review, rejected or superseded upload that is not
 * installed, nor another author's private theme. Assets are immutable per version.
 */
export async function servableThemeBundle(platform: Platform, storeId: string, versionId: string): Promise<ThemeBundle | null> {
  const store = parseObjectId(storeId);
  const version = parseObjectId(versionId);
  if (!store || !version) return null;
  const installed = await storeThemes(platform.db).findOne({ store_id: store, version_id: version }, { projection: { _id: 1 } });
  if (installed) return versionBundle(platform, version);
  const published = await themeVersions(platform.db).findOne({ _id: version, status: 'published' }, { projection: { package_id: 1 } });
  const pkg =
    published &&
    (await themePackages(platform.db).findOne(
      { _id: published.package_id, published_version_id: version, status: 'active' },
      { projection: { visibility: 1, author_id: 1 } },
    ));
  if (!pkg || (pkg.visibility === 'private' && !(await findOwnedStore(platform, pkg.author_id.toHexString(), storeId)))) return null;
  return versionBundle(platform, version);
}
