import type { Filter } from 'mongodb';
import { notFound } from '../../errors.js';
import { escapeRegex, parseObjectId } from '../../ids.js';
import { afterCursor, pageOf } from '../../pagination.js';
import type { Platform } from '../../platform.js';
import type { AppManifest } from '../manifest/types.js';
import { presentCatalogApp, type CatalogAppView } from './present.js';
import type { CatalogQuery } from './schemas.js';
import { apps, developers, type AppDocument } from '../partners/models.js';

/** The public catalog (docs/apps.md, The catalog): published apps, each as its published version. */

export type PublishedApp = AppDocument & { published: AppManifest; published_at: Date };

const PUBLISHED: Filter<AppDocument> = { status: 'published', published: { $ne: null } };

/** The app if it is published (what installs and OAuth serve), else null. */
export async function findPublishedApp(platform: Platform, appId: string): Promise<PublishedApp | null> {
  const id = parseObjectId(appId);
  return id ? ((await apps(platform.db).findOne({ _id: id, ...PUBLISHED })) as PublishedApp | null) : null;
}

/** Published apps as the catalog shows them, with their partners (one read). */
export async function catalogViews(platform: Platform, list: readonly PublishedApp[]): Promise<CatalogAppView[]> {
  const devs = await developers(platform.db)
    .find({ _id: { $in: list.map((a) => a.developer_id) } })
    .toArray();
  const byId = new Map(devs.map((d) => [d._id.toHexString(), d]));
  return list.map((a) => presentCatalogApp(a, byId.get(a.developer_id.toHexString()) ?? null));
}

export async function listCatalog(platform: Platform, query: CatalogQuery): Promise<{ items: CatalogAppView[]; nextCursor: string | null }> {
  const search = query.q ? { $regex: escapeRegex(query.q), $options: 'i' } : null;
  const docs = (await apps(platform.db)
    .find({
      ...PUBLISHED,
      ...(search ? { $or: [{ 'published.name': search }, { 'published.handle': search }, { 'published.description': search }] } : {}),
      ...afterCursor(query),
    })
    .sort({ _id: 1 })
    .limit(query.limit + 1)
    .toArray()) as PublishedApp[];
  const { items, nextCursor } = pageOf(docs, query.limit);
  return { items: await catalogViews(platform, items), nextCursor };
}

export async function getCatalogApp(platform: Platform, appId: string): Promise<CatalogAppView> {
  const app = await findPublishedApp(platform, appId);
  if (!app) throw notFound('App');
  return (await catalogViews(platform, [app]))[0]!;
}
