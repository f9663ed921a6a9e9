import type { AppRouter } from '../http/context.js';
import { routes, storeScoped } from '../http/endpoint.js';
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

/** /v1/pages: the store's content pages. */
export function pageRoutes(platform: Platform): AppRouter {
  const on = routes(platform);
  on.get('/', { access: read, query: ListContentQuery, respond: 'page' }, ({ store, query }) => listPages(platform, store.id, query));
  on.post('/', { access: write, body: CreatePageBody, idempotent: true, status: 201 }, ({ store, body }) => createPage(platform, store.id, body));
  on.get('/:id', { access: read }, ({ store, params }) => getPage(platform, store.id, params.id));
  on.patch('/:id', { access: write, body: UpdatePageBody }, ({ store, params, body }) => updatePage(platform, store.id, params.id, body));
  on.delete('/:id', { access: write, respond: 'empty' }, ({ store, params }) => deletePage(platform, store.id, params.id));
  return on.router;
}

/** /v1/articles: the articles of the store's blog (`news`). */
export function articleRoutes(platform: Platform): AppRouter {
  const on = routes(platform);
  on.get('/', { access: read, query: ListContentQuery, respond: 'page' }, ({ store, query }) => listArticles(platform, store.id, query));
  on.post('/', { access: write, body: CreateArticleBody, idempotent: true, status: 201 }, ({ store, body }) => createArticle(platform, store.id, body));
  on.get('/:id', { access: read }, ({ store, params }) => getArticle(platform, store.id, params.id));
  on.patch('/:id', { access: write, body: UpdateArticleBody }, ({ store, params, body }) => updateArticle(platform, store.id, params.id, body));
  on.delete('/:id', { access: write, respond: 'empty' }, ({ store, params }) => deleteArticle(platform, store.id, params.id));
  return on.router;
}

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
