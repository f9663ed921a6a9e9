import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../db.js';
import type { CarriesEvents } from '../events/index.js';

export const STORES = 'stores';

export type StoreDocument = {
  _id: ObjectId;
  owner_id: ObjectId;
  name: string;
  subdomain: string;
  currency: string;
  /** The storefront's language (docs/stores.md): a locale code such as `en` or `fr-CA`; absent on stores made before it existed: `en`. */
  locale?: string;
  /**
   * When something was first priced in `currency` (a product, a gift card): from then on the
   * currency cannot change, or those prices would be relabelled. Absent until then.
   */
  currency_locked_at?: Date;
  /** Who the store's emails to its customers come from; absent or null: the platform's own sender. */
  email_sender?: { name: string; email: string } | null;
  /**
   * The store's live theme (an installed theme, docs/themes.md "Install"): one field, so making
   * another theme live is one atomic write and a store never has two. Absent or null: none.
   */
  live_theme_id?: ObjectId | null;
  /** Incremented by every update; names the update in its event's idempotency key. */
  version: number;
  created_at: Date;
  updated_at: Date;
} & CarriesEvents;

export const storeIndexes: IndexDeclaration[] = [
  {
    collection: STORES,
    indexes: [
      { key: { subdomain: 1 }, name: 'subdomain_unique', unique: true },
      { key: { owner_id: 1, _id: 1 }, name: 'owner_id_id' },
    ],
  },
];

export const stores = (db: Db) => db.collection<StoreDocument>(STORES);
