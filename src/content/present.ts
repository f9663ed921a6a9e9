import type { ArticleDocument, MenuDocument, PageDocument } from './models.js';
import { stamps } from '../allow-list.js';

/** The store's one blog: its handle is its URL (`/blogs/news`). */
export const BLOG_HANDLE = 'news';

export const presentPage = (p: PageDocument) => ({
  id: p._id.toHexString(),
  title: p.title,
  handle: p.handle,
  body_html: p.body_html,
  published: p.published,
  ...stamps(p),
});
export type PageView = ReturnType<typeof presentPage>;

export const presentArticle = (a: ArticleDocument) => ({
  id: a._id.toHexString(),
  blog_handle: BLOG_HANDLE,
  title: a.title,
  handle: a.handle,
  body_html: a.body_html,
  author: a.author,
  published: a.published,
  published_at: a.published_at ? a.published_at.toISOString() : null,
  ...stamps(a),
});
export type ArticleView = ReturnType<typeof presentArticle>;

export const presentMenu = (m: MenuDocument) => ({
  handle: m.handle,
  title: m.title,
  items: m.items.map((i) => ({ title: i.title, url: i.url })),
  ...stamps(m),
});
export type MenuView = ReturnType<typeof presentMenu>;

/** What the shop's page template shows of a published page. */
export const presentPublishedPage = (p: Pick<PageDocument, 'handle' | 'title' | 'body_html'>) => ({ handle: p.handle, title: p.title, body_html: p.body_html });
export type PublishedPage = ReturnType<typeof presentPublishedPage>;

/** What the shop's blog and article templates show of a published article. */
export const presentPublishedArticle = (a: Pick<ArticleDocument, 'handle' | 'title' | 'body_html' | 'author' | 'published_at'>) => ({
  handle: a.handle,
  title: a.title,
  body_html: a.body_html,
  author: a.author,
  published_at: a.published_at ? a.published_at.toISOString() : null,
});
export type PublishedArticle = ReturnType<typeof presentPublishedArticle>;
