import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../../db.js';
import type { CarriesEvents } from '../../events/index.js';

export const THEME_PURCHASES = 'theme_purchases';

/**
 * A store's purchase of a paid marketplace theme (docs/themes.md, Purchases): one per store and
 * package, paid to the platform through a provider order. `pending` until the provider's signed
 * payment is verified, then `paid` with the provider's payment id, once.
 */
export type ThemePurchaseDocument = {
  _id: ObjectId;
  package_id: ObjectId;
  slug: string;
  store_id: ObjectId;
  merchant_id: ObjectId;
  /** The theme's price when the purchase was made (the catalog's units, e.g. 49.99) and its currency. */
  amount: number;
  currency: string;
  provider: 'sandbox';
  provider_order_id: string;
  provider_payment_id: string | null;
  status: 'pending' | 'paid';
  created_at: Date;
  paid_at: Date | null;
} & CarriesEvents;

export const purchaseIndexes: IndexDeclaration[] = [
  {
    collection: THEME_PURCHASES,
    indexes: [
      // One purchase per store and package: a pending one is reused, a paid one is final.
      { key: { store_id: 1, package_id: 1 }, name: 'store_id_package_id_unique', unique: true },
      { key: { provider_order_id: 1 }, name: 'provider_order_id_unique', unique: true },
    ],
  },
];

export const themePurchases = (db: Db) => db.collection<ThemePurchaseDocument>(THEME_PURCHASES);
