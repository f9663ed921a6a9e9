import { ObjectId } from 'mongodb';
import type { Platform } from '../platform.js';
import type { Template, TemplateKey, ThemeBundle } from './bundle-types.js';
import { storeThemes, themeVersions } from './store.js';

/**
 * What the storefront renderer needs of a store's theme (docs/rendering.md): the bundle of the
 * installed version (sections, blocks, locales, renderer and assets), the effective templates
 * and settings, and a cache key that changes whenever any of those does (a publish, a
 * rollback, a previewed draft), so compiled templates are cached per key.
 *
 * The live theme is the store's `live_theme_id`. The editor issue layers the store's published
 * template copies and, for a preview session, the session's drafts on top of the bundle's.
 */
export type RenderableTheme = {
  storeThemeId: string;
  slug: string;
  versionId: string;
  bundle: ThemeBundle;
  templates: Partial<Record<TemplateKey, Template>>;
  settingsData: ThemeBundle['config']['settings_data'];
  /** Changes with anything above: `<store theme id>:<version id>:<release or draft marker>`. */
  cacheKey: string;
  /** Whether this is a preview of unpublished drafts (never cached by shared caches). */
  preview: boolean;
};

/** The store's live theme as it renders for shoppers, or null when the store has none. */
export async function liveRenderableTheme(platform: Platform, storeId: string, liveThemeId: string | null): Promise<RenderableTheme | null> {
  if (!liveThemeId) return null;
  const theme = await storeThemes(platform.db).findOne({ _id: new ObjectId(liveThemeId), store_id: new ObjectId(storeId) });
  if (!theme) return null;
  const version = await themeVersions(platform.db).findOne({ _id: theme.version_id });
  if (!version) return null;
  return {
    storeThemeId: theme._id.toHexString(),
    slug: theme.slug,
    versionId: version._id.toHexString(),
    bundle: version.bundle,
    templates: version.bundle.templates,
    settingsData: theme.settings_data,
    cacheKey: `${theme._id.toHexString()}:${version._id.toHexString()}:v${theme.version_counter}`,
    preview: false,
  };
}

/**
 * TEMPORARY stub (branch `render`): the editor issue's preview sessions replace this with the
 * real lookup of a preview token's drafts. Until then no token names a preview.
 */
export async function previewRenderableTheme(_platform: Platform, _storeId: string, _previewToken: string): Promise<RenderableTheme | null> {
  return null;
}
