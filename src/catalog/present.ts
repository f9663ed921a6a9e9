import { NEVER, type Sources } from '../projection.js';
import type { CollectionDocument, ProductDocument, VariantDocument } from './models.js';
import { stamps } from '../allow-list.js';

export const presentVariant = (v: VariantDocument, currency: string) => ({
  id: v._id.toHexString(),
  title: v.title,
  option_values: v.option_values,
  sku: v.sku,
  price: v.price,
  compare_at_price: v.compare_at_price,
  currency,
  weight_grams: v.weight_grams,
  inventory_tracked: v.inventory_tracked,
  inventory_policy: v.inventory_policy,
});
export type VariantView = ReturnType<typeof presentVariant>;

export const presentProduct = (p: ProductDocument) => ({
  id: p._id.toHexString(),
  title: p.title,
  handle: p.handle,
  description_html: p.description_html,
  vendor: p.vendor,
  product_type: p.product_type,
  tags: p.tags,
  status: p.status,
  options: p.options,
  variants: p.variants.map((v) => presentVariant(v, p.currency)),
  media_ids: p.media_ids.map((id) => id.toHexString()),
  price_min: p.price_min,
  price_max: p.price_max,
  currency: p.currency,
  ...stamps(p),
});
export type ProductView = ReturnType<typeof presentProduct>;

/** What each field of a product's view is presented from, and what a product read in part lacks (src/projection.ts). */
export const PRODUCT_SOURCES: Sources<ProductView, ProductDocument> = {
  id: [],
  title: ['title'],
  handle: ['handle'],
  description_html: ['description_html'],
  vendor: ['vendor'],
  product_type: ['product_type'],
  tags: ['tags'],
  status: ['status'],
  options: ['options'],
  variants: ['variants', 'currency'],
  media_ids: ['media_ids'],
  price_min: ['price_min'],
  price_max: ['price_max'],
  currency: ['currency'],
  created_at: ['created_at'],
  updated_at: ['updated_at'],
};
export const UNREAD_PRODUCT: Partial<ProductDocument> = { variants: [], media_ids: [], created_at: NEVER, updated_at: NEVER };

export const presentCollection = (c: CollectionDocument) => ({
  id: c._id.toHexString(),
  title: c.title,
  handle: c.handle,
  description_html: c.description_html,
  type: c.type,
  product_ids: c.type === 'manual' ? c.product_ids.map((id) => id.toHexString()) : undefined,
  rules: c.rules ?? undefined,
  ...stamps(c),
});
export type CollectionView = ReturnType<typeof presentCollection>;

/** What each field of a collection's view is presented from, and what a collection read in part lacks (src/projection.ts). */
export const COLLECTION_SOURCES: Sources<CollectionView, CollectionDocument> = {
  id: [],
  title: ['title'],
  handle: ['handle'],
  description_html: ['description_html'],
  type: ['type'],
  product_ids: ['type', 'product_ids'],
  rules: ['rules'],
  created_at: ['created_at'],
  updated_at: ['updated_at'],
};
export const UNREAD_COLLECTION: Partial<CollectionDocument> = { product_ids: [], created_at: NEVER, updated_at: NEVER };
