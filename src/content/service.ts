import { ObjectId } from 'mongodb';
import { findInStore, isDuplicateKeyError, onDuplicateKey } from '../db.js';
import { PlatformError, notFound } from '../errors.js';
import { carrying } from '../events/index.js';
import { parseObjectId } from '../ids.js';
import { sanitizeMerchantHtml } from '../merchant-html.js';
import { afterCursor, findViewPage, findPage, pageDirection, type Page } from '../pagination.js';
import type { Platform } from '../platform.js';
import { deleteAsRead } from '../deleting.js';
import { deleteWithHandle, handleTaken, insertWithHandle } from '../handles.js';
import {
  presentArticle,
  presentMenu,
  presentPage,
  presentPublishedArticle,
  presentPublishedPage,
  type ArticleView,
  type MenuView,
  type PageView,
  type PublishedArticle,
  type PublishedPage,
} from './present.js';
import {
  HANDLE_PATTERN,
  MAX_HANDLE,
  type CreateArticleBody,
  type CreatePageBody,
  type ListContentQuery,
  type PutMenuBody,
  type UpdateArticleBody,
  type UpdatePageBody,
} from './schemas.js';
import { ARTICLES, MENUS, PAGES, articles, menus, pages, type ArticleDocument, type MenuDocument, type MenuItem, type PageDocument } from './models.js';

/** How many times an update, a delete or a menu's replacement re-reads what changed under it before answering 409 `edit_conflict`. */
const WRITE_ATTEMPTS = 5;
/** Most articles listPublishedArticles reads. */
const MAX_ARTICLES = 250;
/**
 * Whether `handle` could be one (the schemas' rule): anything else names nothing, so it is not
 * looked up at all (a path's `%00`, a 10 000-character handle).
 */
const couldBeHandle = (handle: unknown): handle is string => typeof handle === 'string' && handle.length <= MAX_HANDLE && HANDLE_PATTERN.test(handle);

const editConflict = (what: string) => new PlatformError('conflict', 'edit_conflict', `The ${what} kept changing while this change was applied; try again`);

const listFilter = (storeId: string, query: ListContentQuery) => ({
  store_id: new ObjectId(storeId),
  ...(query.published ? { published: query.published === 'true' } : {}),
});

// ---------------------------------------------------------------------------------------------
// Pages

export async function createPage(platform: Platform, storeId: string, input: CreatePageBody): Promise<PageView> {
  const now = platform.clock.now();
  const body_html = sanitizeMerchantHtml(input.body_html);
  return insertWithHandle(
    input.handle,
    input.title,
    async (handle) => {
      const doc: PageDocument = {
        _id: new ObjectId(),
        store_id: new ObjectId(storeId),
        title: input.title,
        handle,
        body_html,
        published: input.published,
        version: 1,
        created_at: now,
        updated_at: now,
      };
      const view = presentPage(doc);
      await platform.events.insert(pages(platform.db), doc, [platform.events.pending('page.created', doc.store_id, { page: view }, `page.created:${view.id}`)]);
      return view;
    },
    { what: 'page', fallback: 'page' },
  );
}

export async function listPages(platform: Platform, storeId: string, query: ListContentQuery): Promise<{ items: PageView[]; nextCursor: string | null }> {
  return findViewPage(pages(platform.db), listFilter(storeId, query), query, presentPage);
}

export async function getPage(platform: Platform, storeId: string, pageId: string): Promise<PageView> {
  return presentPage(await findInStore(pages(platform.db), storeId, pageId, 'Page'));
}

/** Change the given fields. Last writer wins, but each write is conditional on the version read, so its event shows the page as it became. */
export async function updatePage(platform: Platform, storeId: string, pageId: string, input: UpdatePageBody): Promise<PageView> {
  const id = parseObjectId(pageId);
  if (!id) throw notFound('Page');
  const scope = { _id: id, store_id: new ObjectId(storeId) };
  const set: Partial<PageDocument> = {};
  if (input.title !== undefined) set.title = input.title;
  if (input.handle !== undefined) set.handle = input.handle;
  if (input.body_html !== undefined) set.body_html = sanitizeMerchantHtml(input.body_html);
  if (input.published !== undefined) set.published = input.published;
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    const current = await pages(platform.db).findOne(scope);
    if (!current) throw notFound('Page');
    const changes = { ...set, updated_at: platform.clock.now() };
    const version = current.version + 1;
    const view = presentPage({ ...current, ...changes, version });
    const pending = [platform.events.pending('page.updated', current.store_id, { page: view }, `page.updated:${view.id}:v${version}`)];
    const result = await onDuplicateKey(
      pages(platform.db).updateOne({ ...scope, version: current.version }, carrying({ $set: changes, $inc: { version: 1 } }, pending)),
      () => handleTaken(input.handle ?? current.handle, 'page'),
    );
    if (result.matchedCount !== 1) continue;
    await platform.events.settle(pages(platform.db), current._id, pending);
    return view;
  }
  throw editConflict('page');
}

export const deletePage = (platform: Platform, storeId: string, pageId: string): Promise<void> =>
  deleteWithHandle(platform, { collection: pages(platform.db), carrier: PAGES, event: 'page.deleted', what: 'Page' }, storeId, pageId, {
    attempts: WRITE_ATTEMPTS,
    conflict: () => editConflict('page'),
  });

// ---------------------------------------------------------------------------------------------
// Articles of the store's blog

export async function createArticle(platform: Platform, storeId: string, input: CreateArticleBody): Promise<ArticleView> {
  const now = platform.clock.now();
  const body_html = sanitizeMerchantHtml(input.body_html);
  // A published article always has its date: the one given, else now.
  const published_at = input.published_at ?? (input.published ? now : null);
  return insertWithHandle(
    input.handle,
    input.title,
    async (handle) => {
      const doc: ArticleDocument = {
        _id: new ObjectId(),
        store_id: new ObjectId(storeId),
        title: input.title,
        handle,
        body_html,
        author: input.author,
        published: input.published,
        published_at,
        version: 1,
        created_at: now,
        updated_at: now,
      };
      const view = presentArticle(doc);
      await platform.events.insert(articles(platform.db), doc, [
        platform.events.pending('article.created', doc.store_id, { article: view }, `article.created:${view.id}`),
      ]);
      return view;
    },
    { what: 'article', fallback: 'article' },
  );
}

export async function listArticles(platform: Platform, storeId: string, query: ListContentQuery): Promise<{ items: ArticleView[]; nextCursor: string | null }> {
  return findViewPage(articles(platform.db), listFilter(storeId, query), query, presentArticle);
}

export async function getArticle(platform: Platform, storeId: string, articleId: string): Promise<ArticleView> {
  return presentArticle(await findInStore(articles(platform.db), storeId, articleId, 'Article'));
}

/** As updatePage. Publishing an article that has no date gives it now. */
export async function updateArticle(platform: Platform, storeId: string, articleId: string, input: UpdateArticleBody): Promise<ArticleView> {
  const id = parseObjectId(articleId);
  if (!id) throw notFound('Article');
  const scope = { _id: id, store_id: new ObjectId(storeId) };
  const set: Partial<ArticleDocument> = {};
  if (input.title !== undefined) set.title = input.title;
  if (input.handle !== undefined) set.handle = input.handle;
  if (input.body_html !== undefined) set.body_html = sanitizeMerchantHtml(input.body_html);
  if (input.author !== undefined) set.author = input.author;
  if (input.published !== undefined) set.published = input.published;
  if (input.published_at !== undefined) set.published_at = input.published_at;
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    const current = await articles(platform.db).findOne(scope);
    if (!current) throw notFound('Article');
    const now = platform.clock.now();
    const changes: Partial<ArticleDocument> = { ...set, updated_at: now };
    const next = { ...current, ...changes };
    if (next.published && next.published_at === null) changes.published_at = now;
    const version = current.version + 1;
    const view = presentArticle({ ...current, ...changes, version });
    const pending = [platform.events.pending('article.updated', current.store_id, { article: view }, `article.updated:${view.id}:v${version}`)];
    const result = await onDuplicateKey(
      articles(platform.db).updateOne({ ...scope, version: current.version }, carrying({ $set: changes, $inc: { version: 1 } }, pending)),
      () => handleTaken(input.handle ?? current.handle, 'article'),
    );
    if (result.matchedCount !== 1) continue;
    await platform.events.settle(articles(platform.db), current._id, pending);
    return view;
  }
  throw editConflict('article');
}

export const deleteArticle = (platform: Platform, storeId: string, articleId: string): Promise<void> =>
  deleteWithHandle(platform, { collection: articles(platform.db), carrier: ARTICLES, event: 'article.deleted', what: 'Article' }, storeId, articleId, {
    attempts: WRITE_ATTEMPTS,
    conflict: () => editConflict('article'),
  });

// ---------------------------------------------------------------------------------------------
// Menus, by handle

/**
 * Replace the store's menu `handle` whole, or create it. Each write is conditional
 * on what was read (the first on there being none: two first writes race on the unique index
 * and the loser applies its menu as a replacement), so its event shows the menu as it became.
 */
export async function putMenu(platform: Platform, storeId: string, handle: string, input: PutMenuBody): Promise<MenuView> {
  const storeObjectId = new ObjectId(storeId);
  const items: MenuItem[] = input.items.map((i) => ({ title: i.title, url: i.url }));
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    const current = await menus(platform.db).findOne({ store_id: storeObjectId, handle });
    const now = platform.clock.now();
    if (!current) {
      const doc: MenuDocument = {
        _id: new ObjectId(),
        store_id: storeObjectId,
        handle,
        title: input.title,
        items,
        version: 1,
        created_at: now,
        updated_at: now,
      };
      const view = presentMenu(doc);
      const pending = [platform.events.pending('menu.created', storeObjectId, { menu: view }, `menu.created:${doc._id.toHexString()}`)];
      try {
        await platform.events.insert(menus(platform.db), doc, pending);
      } catch (err) {
        if (isDuplicateKeyError(err)) continue;
        throw err;
      }
      return view;
    }
    const changes = { title: input.title, items, updated_at: now };
    const version = current.version + 1;
    const view = presentMenu({ ...current, ...changes, version });
    const pending = [platform.events.pending('menu.updated', storeObjectId, { menu: view }, `menu.updated:${current._id.toHexString()}:v${version}`)];
    const result = await menus(platform.db).updateOne(
      { _id: current._id, store_id: storeObjectId, version: current.version },
      carrying({ $set: changes, $inc: { version: 1 } }, pending),
    );
    if (result.matchedCount !== 1) continue;
    await platform.events.settle(menus(platform.db), current._id, pending);
    return view;
  }
  throw editConflict('menu');
}

export async function getMenu(platform: Platform, storeId: string, handle: string): Promise<MenuView> {
  const doc = couldBeHandle(handle) ? await menus(platform.db).findOne({ store_id: new ObjectId(storeId), handle }) : null;
  if (!doc) throw notFound('Menu');
  return presentMenu(doc);
}

export async function listMenus(platform: Platform, storeId: string, page: Page): Promise<{ items: MenuView[]; nextCursor: string | null }> {
  const { items, nextCursor } = await findPage(menus(platform.db), { store_id: new ObjectId(storeId), ...afterCursor(page) }, page.limit, pageDirection(page));
  return { items: items.map(presentMenu), nextCursor };
}

export async function deleteMenu(platform: Platform, storeId: string, handle: string): Promise<void> {
  if (!couldBeHandle(handle)) throw notFound('Menu');
  for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt++) {
    const doc = await menus(platform.db).findOne({ store_id: new ObjectId(storeId), handle });
    if (!doc) throw notFound('Menu');
    const target = { collection: menus(platform.db), carrier: MENUS, event: 'menu.deleted' as const };
    if (await deleteAsRead(platform, target, doc, { menu: { handle: doc.handle } })) return;
  }
  throw editConflict('menu');
}

// ---------------------------------------------------------------------------------------------
// What the shop reads: one indexed find each, published content only

/** The store id as the index holds it, or null for one that names no store (nothing to find). */
const storeKey = (storeId: string): ObjectId | null => parseObjectId(storeId);

/** The store's published page `handle` (`/pages/<handle>`), or null. Reads `(store_id, handle)`. */
export async function findPublishedPage(platform: Pick<Platform, 'db'>, storeId: string, handle: string): Promise<PublishedPage | null> {
  const store = storeKey(storeId);
  if (!store || !couldBeHandle(handle)) return null;
  const doc = await pages(platform.db).findOne({ store_id: store, handle, published: true }, { projection: { handle: 1, title: 1, body_html: 1 } });
  return doc ? presentPublishedPage(doc) : null;
}

/** The store's published articles, newest first (`/blogs/news`), at most `limit` (1–250). Reads `(store_id, published, published_at, _id)`. */
export async function listPublishedArticles(platform: Pick<Platform, 'db'>, storeId: string, limit: number): Promise<PublishedArticle[]> {
  const store = storeKey(storeId);
  const n = Math.min(MAX_ARTICLES, Math.max(1, Math.floor(Number.isFinite(limit) ? limit : 1)));
  if (!store) return [];
  const docs = await articles(platform.db)
    .find({ store_id: store, published: true }, { projection: { handle: 1, title: 1, body_html: 1, author: 1, published_at: 1 } })
    .sort({ published_at: -1, _id: -1 })
    .limit(n)
    .toArray();
  return docs.map(presentPublishedArticle);
}

/** The store's published article `handle` (`/blogs/news/<handle>`), or null. Reads `(store_id, handle)`. */
export async function findPublishedArticle(platform: Pick<Platform, 'db'>, storeId: string, handle: string): Promise<PublishedArticle | null> {
  const store = storeKey(storeId);
  if (!store || !couldBeHandle(handle)) return null;
  const doc = await articles(platform.db).findOne(
    { store_id: store, handle, published: true },
    { projection: { handle: 1, title: 1, body_html: 1, author: 1, published_at: 1 } },
  );
  return doc ? presentPublishedArticle(doc) : null;
}

/** The links of the store's menu `handle` (`main-menu` for the header), or null when it has none. Reads `(store_id, handle)`. */
export async function storeMenu(platform: Pick<Platform, 'db'>, storeId: string, handle: string): Promise<{ title: string; url: string }[] | null> {
  const store = storeKey(storeId);
  if (!store || !couldBeHandle(handle)) return null;
  const doc = await menus(platform.db).findOne({ store_id: store, handle }, { projection: { items: 1 } });
  return doc ? doc.items.map((i) => ({ title: i.title, url: i.url })) : null;
}
