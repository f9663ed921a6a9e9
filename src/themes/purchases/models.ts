import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../../db.js';
import type { CarriesEvents } from '../../events/index.js';
import type { PaymentSessionDocument, PaymentSessionKind } from '../../payments/index.js';

export const THEME_PURCHASES = 'theme_purchases';

/**
 * A store's purchase of a paid marketplace theme (docs/themes.md, Purchases): one per store and
 * package, paid to the platform through a provider order: a payment session (src/payments/sessions.ts).
 * `creating` while the provider is asked (never answered), `pending` until the provider's signed
 * payment is verified, then `paid` with the provider's payment id, once.
 */
export type ThemePurchaseDocument = PaymentSessionDocument & {
  _id: ObjectId;
  package_id: ObjectId;
  slug: string;
  store_id: ObjectId;
  merchant_id: ObjectId;
  /** The theme's price when the purchase was made (the catalog's units, e.g. 49.99) and its currency. */
  amount: number;
  currency: string;
  provider: 'sandbox';
  status: 'creating' | 'pending' | 'paid';
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

/** Theme purchases as payment sessions: `pending` awaits the payment, `paid_at` records it. */
export const themePurchaseSessions: PaymentSessionKind<ThemePurchaseDocument> = {
  collection: themePurchases,
  creating: 'creating',
  open: 'pending',
  paid: 'paid',
  paidAt: 'paid_at',
};
