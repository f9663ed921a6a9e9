import type { Db } from 'mongodb';
import type { IndexDeclaration } from '../db.js';
import type { StoreSettingsDocument } from '../store-settings.js';

export const SHIPPING_SETTINGS = 'shipping_settings';

/** A flat rate: what one shipping option costs to a country (or one of its provinces, or anywhere else: `*`). */
export type ShippingRate = {
  code: string;
  name: string;
  /** Minor units of the store's currency. */
  price: number;
  /** ISO 3166-1 alpha-2, or `*` for every country no other rate of the table names. */
  country_code: string;
  province_code: string | null;
  /** The option is offered only for a cart subtotal at least this (minor units), or at most `max_subtotal`. */
  min_subtotal: number | null;
  max_subtotal: number | null;
};

/** One document per store: its shipping rate table (docs/shipping.md). */
export type ShippingSettingsDocument = StoreSettingsDocument & { rates: ShippingRate[] };

export const shippingIndexes: IndexDeclaration[] = [
  { collection: SHIPPING_SETTINGS, indexes: [{ key: { store_id: 1 }, name: 'store_id_unique', unique: true }] },
];

export const shippingSettings = (db: Db) => db.collection<ShippingSettingsDocument>(SHIPPING_SETTINGS);
