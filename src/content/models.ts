import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../db.js';
import type { CarriesEvents } from '../events/index.js';

export const PAGES = 'pages';
export const ARTICLES = 'articles';
export const MENUS = 'menus';

/** A content page of a store (`/pages/<handle>` on the shop): about, contact, shipping policy, … */
export type PageDocument = {
  _id: ObjectId;
  store_id: ObjectId;
  title: string;
  /** Unique in the store. */
  handle: string;
  /** Sanitised when written (src/merchant-html.ts). */
  body_html: string;
  published: boolean;
  /** Incremented by every change; names the change in its event's idempotency key. */
  version: number;
  created_at: Date;
  updated_at: Date;
} & CarriesEvents;

/** An article of the store's one blog, `news` (`/blogs/news/<handle>` on the shop). */
export type ArticleDocument = {
  _id: ObjectId;
  store_id: ObjectId;
  title: string;
  /** Unique in the store (the store has one blog). */
  handle: string;
  body_html: string;
  author: string | null;
  published: boolean;
  /** When it was (first) published, or the date the merchant gave; null while never published. */
  published_at: Date | null;
  version: number;
  created_at: Date;
  updated_at: Date;
} & CarriesEvents;

export type MenuItem = { title: string; url: string };

/** A navigation menu of a store, by handle (`main-menu`, `footer`), replaced whole. */
export type MenuDocument = {
  _id: ObjectId;
  store_id: ObjectId;
  handle: string;
  title: string;
  items: MenuItem[];
  version: number;
  created_at: Date;
  updated_at: Date;
} & CarriesEvents;

export const contentIndexes: IndexDeclaration[] = [
  {
    collection: PAGES,
    indexes: [
      // The storefront's read (findPublishedPage) and the handle's uniqueness.
      { key: { store_id: 1, handle: 1 }, name: 'store_id_handle_unique', unique: true },
      { key: { store_id: 1, _id: 1 }, name: 'store_id_id' },
      { key: { store_id: 1, published: 1, _id: 1 }, name: 'store_id_published_id' },
    ],
  },
  {
    collection: ARTICLES,
    indexes: [
      { key: { store_id: 1, handle: 1 }, name: 'store_id_handle_unique', unique: true },
      { key: { store_id: 1, _id: 1 }, name: 'store_id_id' },
      { key: { store_id: 1, published: 1, _id: 1 }, name: 'store_id_published_id' },
      // The blog's page (listPublishedArticles): newest first.
      { key: { store_id: 1, published: 1, published_at: -1, _id: -1 }, name: 'store_id_published_published_at_id' },
    ],
  },
  {
    collection: MENUS,
    indexes: [
      { key: { store_id: 1, handle: 1 }, name: 'store_id_handle_unique', unique: true },
      { key: { store_id: 1, _id: 1 }, name: 'store_id_id' },
    ],
  },
];

export const pages = (db: Db) => db.collection<PageDocument>(PAGES);
export const articles = (db: Db) => db.collection<ArticleDocument>(ARTICLES);
export const menus = (db: Db) => db.collection<MenuDocument>(MENUS);
