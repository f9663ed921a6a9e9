import { ObjectId } from 'mongodb';
import { PlatformError, notFound } from '../../errors.js';

import type { MerchantPrincipal, ScopedStore } from '../../http/context.js';
import { escapeRegex, parseObjectId } from '../../ids.js';
import { afterCursor, type Page, findPage } from '../../pagination.js';
import type { Platform } from '../../platform.js';
import { setLiveTheme } from '../../stores/index.js';
import { presentCatalogTheme, presentStoreTheme, type CatalogThemeView, type StoreThemeView } from '../present.js';
import { hasPaidPurchase } from '../purchases/service.js';
import type { CatalogQuery } from '../schemas.js';
import { storeThemes, type StoreThemeDocument } from './models.js';
import { editableTheme, type EditableTheme } from '../editor/drafts.js';
import { themePackages, themeVersions, type CatalogMeta, type ThemePackageDocument } from '../packages/models.js';

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** The marketplace catalog (spec 4.6): published, installable marketplace packages; filters by site type and pricing. */
export async function listCatalog(platform: Platform, q: CatalogQuery): Promise<{ items: CatalogThemeView[]; nextCursor: string | null }> {
  const page = await findPage(
    themePackages(platform.db),
    {
      status: 'active',
      visibility: 'marketplace',
      catalog: { $ne: null },
      ...(q.site_type ? { 'catalog.site_types': { $regex: `^${escapeRegex(q.site_type)}$`, $options: 'i' } } : {}),
      ...(q.pricing_type ? { 'catalog.pricing_type': q.pricing_type } : {}),
      ...afterCursor(q),
    },
    q.limit,
  );
  return { items: page.items.map((p) => presentCatalogTheme(p as ThemePackageDocument & { catalog: CatalogMeta })), nextCursor: page.nextCursor };
}

/** A marketplace package that is published, by slug (anything else, and a malformed slug, is null). */
async function publishedPackage(platform: Platform, slug: string): Promise<ThemePackageDocument | null> {
  if (!SLUG.test(slug) || slug.length > 100) return null;
  return themePackages(platform.db).findOne({ slug, status: 'active', published_version_id: { $ne: null } });
}

/** A published package the caller may see: a marketplace one, or a private one only its author; else 404. */
export async function visiblePackage(platform: Platform, slug: string, caller: MerchantPrincipal | null): Promise<ThemePackageDocument> {
  const pkg = await publishedPackage(platform, slug);
  if (!pkg || (pkg.visibility === 'private' && !(caller && pkg.author_id.equals(caller.merchantId)))) throw notFound('Theme');
  return pkg;
}

/** `GET /v1/themes/:slug/schema`: what a theme offers, from its published version (marketplace themes; private ones only to their author). */
export async function themeSchema(platform: Platform, slug: string, caller: MerchantPrincipal | null) {
  const pkg = await visiblePackage(platform, slug, caller);
  const version = await themeVersions(platform.db).findOne({ _id: pkg.published_version_id! });
  if (!version) throw notFound('Theme');
  const b = version.bundle;
  return {
    slug: pkg.slug,
    package_id: pkg._id.toHexString(),
    version: version.version,
    version_number: version.version_number,
    schema_version: b.schema_version,
    renderer: { engine: b.renderer.engine, renderer_version: b.renderer.renderer_version, liquid_ready: b.renderer.liquid_ready },
    settings_schema: b.config.settings_schema,
    settings_data: b.config.settings_data,
    templates: b.templates,
    sections: b.sections,
    blocks: b.blocks,
    locales: b.locales,
  };
}

/**
 * Install a theme into a store the merchant owns (spec 4.6; docs/themes.md "Install"): a
 * published marketplace theme, or the merchant's own private one. The store gets its own copy:
 * the version it was installed at and its own `settings_data` and templates (copied from the bundle; the editor changes them). The
 * store's first theme becomes live, as does one installed with `publish: true` (one write of the
 * store: never two live themes). A paid marketplace theme needs the store's verified purchase of
 * the package, any version (../purchases/service.ts); without one it is refused (402 `purchase_required`).
 */
export async function installTheme(
  platform: Platform,
  merchant: MerchantPrincipal,
  store: ScopedStore,
  slug: string,
  publish: boolean,
): Promise<StoreThemeView> {
  const pkg = await publishedPackage(platform, slug);
  if (!pkg || (pkg.visibility === 'private' && !pkg.author_id.equals(merchant.merchantId))) throw notFound('Theme');
  const version = await themeVersions(platform.db).findOne({ _id: pkg.published_version_id!, status: 'published' });
  if (!version) throw new PlatformError('conflict', 'theme_not_installable', 'This theme has no published version to install');
  if (version.bundle.package.pricing_type !== 'free' && pkg.visibility === 'marketplace' && !(await hasPaidPurchase(platform, store.id, pkg._id))) {
    throw new PlatformError(
      'payment_required',
      'purchase_required',
      `${pkg.slug} is a paid theme (${version.bundle.package.price} ${version.bundle.package.currency}); purchase it for this store first: POST /v1/themes/${pkg.slug}/purchase, then POST /v1/themes/${pkg.slug}/purchase/verify`,
    );
  }
  const now = platform.clock.now();
  const live = !store.live_theme_id || publish;
  const doc: StoreThemeDocument = {
    _id: new ObjectId(),
    store_id: new ObjectId(store.id),
    package_id: pkg._id,
    version_id: version._id,
    slug: pkg.slug,
    version: version.version,
    role: 'unpublished',
    settings_data: structuredClone(version.bundle.config.settings_data),
    templates: structuredClone(version.bundle.templates),
    release_number: 0,
    installed_by: new ObjectId(merchant.merchantId),
    version_counter: 1,
    created_at: now,
    updated_at: now,
  };
  const view = { ...presentStoreTheme(doc), role: live ? ('live' as const) : ('unpublished' as const) };
  const pending = [platform.events.pending('theme.installed', doc.store_id, { theme: view }, `theme.installed:${doc._id.toHexString()}`)];
  await platform.events.insert(storeThemes(platform.db), doc, pending);
  if (live) await setLiveTheme(platform, store.id, doc._id);
  platform.log.info({ event: 'themes.installed', store_id: store.id, theme_id: doc._id.toHexString(), live });
  return view;
}

/** A store's installed themes; `role` is read from the store's one live theme id. */
export async function listStoreThemes(platform: Platform, store: ScopedStore, q: Page): Promise<{ items: StoreThemeView[]; nextCursor: string | null }> {
  const page = await findPage(storeThemes(platform.db), { store_id: new ObjectId(store.id), ...afterCursor(q) }, q.limit);
  return { items: page.items.map((d) => withRole(d, store.live_theme_id)), nextCursor: page.nextCursor };
}

/** The store's live theme (the Home page of the merchant admin names it), or null when it has none. */
export async function getLiveTheme(platform: Platform, store: ScopedStore): Promise<StoreThemeView | null> {
  const id = store.live_theme_id ? parseObjectId(store.live_theme_id) : null;
  const doc = id ? await storeThemes(platform.db).findOne({ _id: id, store_id: new ObjectId(store.id) }) : null;
  return doc ? withRole(doc, store.live_theme_id) : null;
}

const withRole = (d: StoreThemeDocument, liveId: string | null): StoreThemeView => ({
  ...presentStoreTheme(d),
  role: liveId === d._id.toHexString() ? 'live' : 'unpublished',
});

/** Make an installed theme the live one: one write of the store, so there is never a moment with two. */
export async function publishStoreTheme(platform: Platform, store: ScopedStore, themeId: string): Promise<StoreThemeView> {
  const id = parseObjectId(themeId);
  const doc = id ? await storeThemes(platform.db).findOne({ _id: id, store_id: new ObjectId(store.id) }) : null;
  if (!doc) throw notFound('Installed theme');
  await setLiveTheme(platform, store.id, doc._id);
  return withRole(doc, doc._id.toHexString());
}

/** One theme as the catalog shows it, by slug: a published marketplace theme, or the caller's own private one (only its author sees it); else 404. */
export async function getCatalogTheme(
  platform: Platform,
  slug: string,
  caller: MerchantPrincipal,
): Promise<CatalogThemeView & { visibility: ThemePackageDocument['visibility'] }> {
  const pkg = await publishedPackage(platform, slug);
  if (!pkg?.catalog || (pkg.visibility === 'private' && !pkg.author_id.equals(caller.merchantId))) throw notFound('Theme');
  return { ...presentCatalogTheme({ ...pkg, catalog: pkg.catalog }), visibility: pkg.visibility };
}

/** An installed theme as the merchant admin lists it: the API's view, its package's name and author, and its last release. */
export type InstalledThemeListing = StoreThemeView & { name: string; author_name: string; release_number: number; released_at: string | null };

/** A page of a store's installed themes (as `listStoreThemes`), each with its package's name and author (one read of the page's packages). */
export async function listInstalledThemes(
  platform: Platform,
  store: ScopedStore,
  q: Page,
): Promise<{ items: InstalledThemeListing[]; nextCursor: string | null }> {
  const page = await findPage(storeThemes(platform.db), { store_id: new ObjectId(store.id), ...afterCursor(q) }, q.limit);
  const ids = [...new Set(page.items.map((d) => d.package_id.toHexString()))].map((id) => new ObjectId(id));
  const packages = await themePackages(platform.db)
    .find({ _id: { $in: ids } }, { projection: { name: 1, author_name: 1 } })
    .toArray();
  const byId = new Map(packages.map((p) => [p._id.toHexString(), p]));
  return {
    items: page.items.map((d) => {
      const pkg = byId.get(d.package_id.toHexString());
      return {
        ...withRole(d, store.live_theme_id),
        name: pkg?.name ?? d.slug,
        author_name: pkg?.author_name ?? '',
        release_number: d.release_number ?? 0,
        released_at: d.last_release?.published_at.toISOString() ?? null,
      };
    }),
    nextCursor: page.nextCursor,
  };
}

/** A store's installed theme by its id, with its version's bundle (what previews and releases start from); another store's or none is 404. */
export async function installedTheme(platform: Platform, store: ScopedStore, themeId: string): Promise<EditableTheme> {
  const id = parseObjectId(themeId);
  const doc = id ? await storeThemes(platform.db).findOne({ _id: id, store_id: new ObjectId(store.id) }, { projection: { slug: 1 } }) : null;
  if (!doc) throw notFound('Installed theme');
  return editableTheme(platform, store, doc.slug, themeId);
}
