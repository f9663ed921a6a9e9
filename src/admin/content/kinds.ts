import {
  BLOG_HANDLE,
  createArticle,
  CreateArticleBody,
  createPage,
  CreatePageBody,
  deleteArticle,
  deletePage,
  getArticle,
  getPage,
  listArticles,
  listPages,
  updateArticle,
  UpdateArticleBody,
  updatePage,
  UpdatePageBody,
  type ArticleView,
  type PageView,
} from '../../content/index.js';
import { html } from '../../html.js';
import { field } from '../../http/ui/forms.js';
import { dayBound, dayOfBound } from '../discounts/inputs.js';
import type { EntryKind } from './entries.js';

/**
 * The two kinds of the Content section's entries (docs/admin.md, Content): pages
 * (`/content`, the section's first tab) and the blog's articles (`/content/articles`), each with
 * the content service's functions and body schemas the REST API's routes use.
 */

export const PAGE_KIND: EntryKind<PageView, typeof CreatePageBody, typeof UpdatePageBody> = {
  tab: 'pages',
  noun: 'page',
  title: 'Pages',
  lead: 'Pages of the shop such as About, Contact or a shipping policy, each at /pages/<handle>.',
  empty: 'No pages yet. Add one such as About us or Shipping, then link it from the main menu.',
  listPath: '/content',
  itemsPath: '/content/pages',
  shopPath: (p) => `/pages/${p.handle}`,
  list: listPages,
  get: getPage,
  create: CreatePageBody,
  update: UpdatePageBody,
  make: createPage,
  change: updatePage,
  remove: deletePage,
  extra: {
    names: [],
    values: () => [],
    body: () => ({}),
    markup: () => html``,
    detail: (p) => `/pages/${p.handle}`,
    dateHeading: 'Updated',
    date: (p) => p.updated_at,
  },
};

/** The day a date was given as (a UTC day), kept as the time it was when the day did not change. */
function publishedAt(form: ReadonlyMap<string, string>, issues: Parameters<typeof dayBound>[3], current: ArticleView | null) {
  const day = dayBound(form, 'published_at', false, issues);
  if (day === null || (current && dayOfBound(current.published_at, false) === day.slice(0, 10))) return {};
  return { published_at: day };
}

export const ARTICLE_KIND: EntryKind<ArticleView, typeof CreateArticleBody, typeof UpdateArticleBody> = {
  tab: 'articles',
  noun: 'article',
  title: 'Blog',
  lead: `The articles of the shop’s blog, listed newest first at /blogs/${BLOG_HANDLE}.`,
  empty: 'No articles yet. Add one to tell shoppers what is new.',
  listPath: '/content/articles',
  itemsPath: '/content/articles',
  shopPath: () => `/blogs/${BLOG_HANDLE}`,
  list: listArticles,
  get: getArticle,
  create: CreateArticleBody,
  update: UpdateArticleBody,
  make: createArticle,
  change: updateArticle,
  remove: deleteArticle,
  extra: {
    names: ['author', 'published_at'],
    values: (a) => [
      ['author', a.author ?? ''],
      ['published_at', dayOfBound(a.published_at, false)],
    ],
    // A blank author is none; a blank date is the time the article is published.
    body: (form, issues, current) => ({ author: (form.get('author') ?? '').trim() || null, ...publishedAt(form, issues, current) }),
    markup: (form) =>
      html`<div class="grid">
        ${field(form, 'author', 'Author')}${field(form, 'published_at', 'Published on (UTC day)', { type: 'date', hint: 'Empty: the day it is published' })}
      </div>`,
    detail: (a) => (a.author ? `by ${a.author}` : 'no author'),
    dateHeading: 'Published on',
    date: (a) => a.published_at,
  },
};
