import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../db.js';
import type { CarriesEvents } from '../events/index.js';

export const LOCATIONS = 'inventory_locations';
export const LEVELS = 'inventory_levels';

export type LocationDocument = {
  _id: ObjectId;
  store_id: ObjectId;
  name: string;
  address1: string | null;
  city: string | null;
  country_code: string | null;
  zip: string | null;
  active: boolean;
  version: number;
  created_at: Date;
  updated_at: Date;
} & CarriesEvents;

/**
 * Stock of one variant at one location. `available` (for sale) and `committed` (held by open
 * orders, not shipped yet) change only by single-document updates that also increment
 * `version` (set/adjust write conditionally on the version they read); on hand is their sum.
 */
export type LevelDocument = {
  _id: ObjectId;
  store_id: ObjectId;
  variant_id: ObjectId;
  product_id: ObjectId;
  location_id: ObjectId;
  available: number;
  /** Absent on levels written before orders committed stock: 0. */
  committed?: number;
  /**
   * Keys of the order steps applied to this level whose order has not yet recorded them as
   * done: a step retried after a crash finds its key here and is not applied twice.
   */
  pending_ops?: string[];
  /** Keys of order steps undone by another process than the one that started them: they can never apply. */
  voided_ops?: string[];
  version: number;
  updated_at: Date;
} & CarriesEvents;

export const inventoryIndexes: IndexDeclaration[] = [
  { collection: LOCATIONS, indexes: [{ key: { store_id: 1, _id: 1 }, name: 'store_id_id' }] },
  {
    collection: LEVELS,
    indexes: [
      { key: { store_id: 1, variant_id: 1, location_id: 1 }, name: 'store_id_variant_id_location_id_unique', unique: true },
      { key: { store_id: 1, location_id: 1, _id: 1 }, name: 'store_id_location_id_id' },
      { key: { store_id: 1, _id: 1 }, name: 'store_id_id' },
      // The admin's low-stock list: the store's lowest levels first.
      { key: { store_id: 1, available: 1, _id: 1 }, name: 'store_id_available_id' },
      // The admin's products: a page's levels by its products (one key range a product, not one a variant).
      { key: { store_id: 1, product_id: 1 }, name: 'store_id_product_id' },
    ],
  },
];

export const locations = (db: Db) => db.collection<LocationDocument>(LOCATIONS);
export const levels = (db: Db) => db.collection<LevelDocument>(LEVELS);
