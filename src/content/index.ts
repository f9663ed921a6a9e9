import type { Module } from '../module.js';
import { CONTENT_ERROR_CODES } from './errors.js';
import { CONTENT_EVENT_TYPES } from './events.js';
import { articleRoutes, menuRoutes, pageRoutes } from './routes.js';
import { ARTICLES, MENUS, PAGES, contentIndexes } from './models.js';
export {
  createArticle,
  createPage,
  deleteArticle,
  deletePage,
  findPublishedArticle,
  findPublishedPage,
  getArticle,
  getMenu,
  getPage,
  listArticles,
  listPages,
  listPublishedArticles,
  putMenu,
  storeMenu,
  updateArticle,
  updatePage,
} from './service.js';
export { CreateArticleBody, CreatePageBody, ListContentQuery, MAX_HANDLE, PutMenuBody, UpdateArticleBody, UpdatePageBody } from './schemas.js';
export { BLOG_HANDLE, type ArticleView, type MenuView, type PageView, type PublishedArticle, type PublishedPage } from './present.js';

/** A store's content: pages, its blog's articles and its navigation menus: /v1/pages, /v1/articles, /v1/menus (docs/content.md). */
export const contentModule: Module = {
  name: 'content',
  errorCodes: CONTENT_ERROR_CODES,
  indexes: contentIndexes,
  routes: [
    { path: '/v1/pages', router: pageRoutes },
    { path: '/v1/articles', router: articleRoutes },
    { path: '/v1/menus', router: menuRoutes },
  ],
  eventCarriers: [PAGES, ARTICLES, MENUS],
  eventTypes: CONTENT_EVENT_TYPES,
};
