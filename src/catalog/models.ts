import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../db.js';
import type { CarriesEvents } from '../events/index.js';

export const PRODUCTS = 'products';
export const COLLECTIONS = 'collections';

export type ProductStatus = 'draft' | 'active' | 'archived';

/** Variants live inside their product: one document, updated atomically. */
export type VariantDocument = {
  _id: ObjectId;
  title: string;
  option_values: string[];
  sku: string | null;
  price: number;
  compare_at_price: number | null;
  weight_grams: number | null;
  inventory_tracked: boolean;
  /** `deny`: stock never goes below zero; `continue`: oversell allowed. */
  inventory_policy: 'deny' | 'continue';
};

export type ProductDocument = {
  _id: ObjectId;
  store_id: ObjectId;
  title: string;
  handle: string;
  description_html: string;
  vendor: string | null;
  product_type: string | null;
  tags: string[];
  status: ProductStatus;
  options: { name: string; values: string[] }[];
  variants: VariantDocument[];
  media_ids: ObjectId[];
  currency: string;
  /** Derived, for search, filters and rule collections. */
  title_lower: string;
  tags_lower: string[];
  vendor_lower: string | null;
  product_type_lower: string | null;
  skus_lower: string[];
  price_min: number;
  price_max: number;
  version: number;
  created_at: Date;
  updated_at: Date;
} & CarriesEvents;

export type RuleCondition =
  | { field: 'tag' | 'vendor' | 'product_type'; relation: 'equals' | 'not_equals'; value: string }
  | { field: 'price'; relation: 'greater_than' | 'less_than'; value: number };

export type CollectionDocument = {
  _id: ObjectId;
  store_id: ObjectId;
  title: string;
  handle: string;
  description_html: string;
  type: 'manual' | 'rule';
  product_ids: ObjectId[];
  rules: { match: 'all' | 'any'; conditions: RuleCondition[] } | null;
  version: number;
  created_at: Date;
  updated_at: Date;
} & CarriesEvents;

export const catalogIndexes: IndexDeclaration[] = [
  {
    collection: PRODUCTS,
    indexes: [
      { key: { store_id: 1, handle: 1 }, name: 'store_id_handle_unique', unique: true },
      { key: { store_id: 1, _id: 1 }, name: 'store_id_id' },
      { key: { store_id: 1, updated_at: 1, _id: 1 }, name: 'store_id_updated_at_id' },
      { key: { store_id: 1, title_lower: 1, _id: 1 }, name: 'store_id_title_lower_id' },
      { key: { store_id: 1, status: 1, _id: 1 }, name: 'store_id_status_id' },
      // The shop's listings sorted by price or title (src/catalog/browse.ts).
      { key: { store_id: 1, status: 1, price_min: 1, _id: 1 }, name: 'store_id_status_price_min_id' },
      { key: { store_id: 1, status: 1, title_lower: 1, _id: 1 }, name: 'store_id_status_title_lower_id' },
      { key: { store_id: 1, skus_lower: 1 }, name: 'store_id_skus_lower' },
      { key: { store_id: 1, tags_lower: 1 }, name: 'store_id_tags_lower' },
      { key: { store_id: 1, 'variants._id': 1 }, name: 'store_id_variant_id' },
      { key: { store_id: 1, media_ids: 1 }, name: 'store_id_media_ids' },
    ],
  },
  {
    collection: COLLECTIONS,
    indexes: [
      { key: { store_id: 1, handle: 1 }, name: 'store_id_handle_unique', unique: true },
      { key: { store_id: 1, _id: 1 }, name: 'store_id_id' },
    ],
  },
];

export const products = (db: Db) => db.collection<ProductDocument>(PRODUCTS);
export const collections = (db: Db) => db.collection<CollectionDocument>(COLLECTIONS);
