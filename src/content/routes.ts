import type { z } from 'zod';
import type { AppRouter } from '../http/context.js';
import { routes, storeScoped, type BodyOf } from '../http/endpoint.js';
import type { Platform } from '../platform.js';
import { CreateArticleBody, CreatePageBody, ListContentQuery, ListMenusQuery, MenuParams, PutMenuBody, UpdateArticleBody, UpdatePageBody } from './schemas.js';
import {
  createArticle,
  createPage,
  deleteArticle,
  deleteMenu,
  deletePage,
  getArticle,
  getMenu,
  getPage,
  listArticles,
  listMenus,
  listPages,
  putMenu,
  updateArticle,
  updatePage,
} from './service.js';

const read = storeScoped('read_content');
const write = storeScoped('write_content');

/** What a kind of content (pages, articles) is read and written with: its body schemas and its services. */
type ContentKind<C extends z.ZodType, U extends z.ZodType, V> = {
  create: C;
  update: U;
  list: (platform: Platform, storeId: string, query: ListContentQuery) => Promise<{ items: V[]; nextCursor: string | null }>;
  make: (platform: Platform, storeId: string, input: BodyOf<C>) => Promise<V>;
  get: (platform: Platform, storeId: string, id: string) => Promise<V>;
  change: (platform: Platform, storeId: string, id: string, input: BodyOf<U>) => Promise<V>;
  remove: (platform: Platform, storeId: string, id: string) => Promise<void>;
};

/** The five routes of a kind of content: list, create, read, update, delete. */
function contentRoutes<C extends z.ZodType, U extends z.ZodType, V>(platform: Platform, kind: ContentKind<C, U, V>): AppRouter {
  const on = routes(platform);
  on.get('/', { access: read, query: ListContentQuery, respond: 'page' }, ({ store, query }) => kind.list(platform, store.id, query));
  on.post('/', { access: write, body: kind.create, idempotent: true, status: 201 }, ({ store, body }) => kind.make(platform, store.id, body));
  on.get('/:id', { access: read }, ({ store, params }) => kind.get(platform, store.id, params.id));
  on.patch('/:id', { access: write, body: kind.update }, ({ store, params, body }) => kind.change(platform, store.id, params.id, body));
  on.delete('/:id', { access: write, respond: 'empty' }, ({ store, params }) => kind.remove(platform, store.id, params.id));
  return on.router;
}

/** /v1/pages: the store's content pages. */
export const pageRoutes = (platform: Platform): AppRouter =>
  contentRoutes(platform, {
    create: CreatePageBody,
    update: UpdatePageBody,
    list: listPages,
    make: createPage,
    get: getPage,
    change: updatePage,
    remove: deletePage,
  });

/** /v1/articles: the articles of the store's blog (`news`). */
export const articleRoutes = (platform: Platform): AppRouter =>
  contentRoutes(platform, {
    create: CreateArticleBody,
    update: UpdateArticleBody,
    list: listArticles,
    make: createArticle,
    get: getArticle,
    change: updateArticle,
    remove: deleteArticle,
  });

/** /v1/menus: the store's navigation menus, by handle. */
export function menuRoutes(platform: Platform): AppRouter {
  const on = routes(platform);
  on.get('/', { access: read, query: ListMenusQuery, respond: 'page' }, ({ store, query }) => listMenus(platform, store.id, query));
  // A menu's handle is made by its PUT, so a handle that could not be one is refused there (400); a read or delete of it simply finds nothing (404).
  on.put('/:handle', { access: write, params: MenuParams, body: PutMenuBody }, ({ store, params, body }) => putMenu(platform, store.id, params.handle, body));
  on.get('/:handle', { access: read }, ({ store, params }) => getMenu(platform, store.id, params.handle));
  on.delete('/:handle', { access: write, respond: 'empty' }, ({ store, params }) => deleteMenu(platform, store.id, params.handle));
  return on.router;
}
