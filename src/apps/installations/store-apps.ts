import { ObjectId } from 'mongodb';
import { notFound } from '../../errors.js';
import { afterCursor, findPage, type Page } from '../../pagination.js';
import type { Platform } from '../../platform.js';
import { catalogViews, type PublishedApp } from '../app-store/service.js';
import type { CatalogAppView } from '../app-store/present.js';
import { resolveCapabilities } from '../bridge/embedding.js';
import { BRIDGE_CAPABILITIES, type BridgeCapability } from '../manifest/types.js';
import { normaliseScopes } from '../oauth/scopes.js';
import { apps } from '../partners/models.js';
import { installations, type InstallationDocument } from './models.js';
import { presentInstallation, type InstallationView } from './service.js';

/**
 * A store's apps as the merchant's admin shows them (docs/admin.md, Apps): each installation
 * beside its app's catalog entry, found by the app's handle (the admin's paths name an app by it).
 * Reads only; every change goes through the installations, embedding and registry services.
 */

export type InstalledApp = {
  installation: InstallationView;
  app: CatalogAppView;
  /** The capabilities the app declares (`bridge.capabilities`): the only ones the merchant may switch on. */
  declared: BridgeCapability[];
  /** Each capability as the app's admin embed has it now (docs/apps.md, Resolution). */
  capabilities: Record<BridgeCapability, boolean>;
  /** The merchant's embed URL for this installation, or null (the app's own is used). */
  embed_url: string | null;
  /** Scopes the published manifest asks for that the installation was not granted: Update permissions asks for them. */
  missing_scopes: string[];
};

function installedApp(installation: InstallationDocument, app: PublishedApp, view: CatalogAppView): InstalledApp {
  const declared = BRIDGE_CAPABILITIES.filter((c) => app.published.bridge.capabilities.includes(c));
  const { capabilities } = resolveCapabilities({ declared, extension: null, installation: installation.bridge_capabilities });
  return {
    installation: presentInstallation(installation),
    app: view,
    declared,
    capabilities,
    embed_url: installation.embed?.url ?? null,
    missing_scopes: normaliseScopes(app.published.scopes).filter((s) => !installation.scopes.includes(s)),
  };
}

/** The store's installation of the app with this handle (active or uninstalled), or 404 (no such app, never installed here). */
export async function findInstalledApp(platform: Platform, storeId: string, handle: string): Promise<InstalledApp> {
  const app = (await apps(platform.db).findOne({ handle, status: 'published', published: { $ne: null } })) as PublishedApp | null;
  const installation = app ? await installations(platform.db).findOne({ app_id: app._id, store_id: new ObjectId(storeId) }) : null;
  if (!app || !installation) throw notFound('App');
  const [view] = await catalogViews(platform, [app]);
  return installedApp(installation, app, view!);
}

/** A page of the store's installations (active and uninstalled, oldest first), each with its app: two reads more whatever the page's size. */
export async function listInstalledApps(platform: Platform, storeId: string, query: Page): Promise<{ items: InstalledApp[]; nextCursor: string | null }> {
  const page = await findPage(installations(platform.db), { store_id: new ObjectId(storeId), ...afterCursor(query) }, query.limit);
  const list = (await apps(platform.db)
    .find({ _id: { $in: page.items.map((i) => i.app_id) }, published: { $ne: null } })
    .toArray()) as PublishedApp[];
  const views = new Map((await catalogViews(platform, list)).map((v) => [v.id, v]));
  const byApp = new Map(list.map((a) => [a._id.toHexString(), a]));
  const items = page.items.flatMap((doc) => {
    const app = byApp.get(doc.app_id.toHexString());
    const view = views.get(doc.app_id.toHexString());
    return app && view ? [installedApp(doc, app, view)] : [];
  });
  return { items, nextCursor: page.nextCursor };
}

/** Which of these apps are installed (active) in the store: one read on the installations' unique index. */
export async function installedAppIds(platform: Platform, storeId: string, appIds: readonly string[]): Promise<Set<string>> {
  const found = await installations(platform.db)
    .find({ store_id: new ObjectId(storeId), app_id: { $in: appIds.map((id) => new ObjectId(id)) }, status: 'active' }, { projection: { app_id: 1 } })
    .toArray();
  return new Set(found.map((i) => i.app_id.toHexString()));
}
