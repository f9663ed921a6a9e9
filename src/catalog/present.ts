import type { CollectionDocument, ProductDocument, VariantDocument } from './store.js';

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
  created_at: p.created_at.toISOString(),
  updated_at: p.updated_at.toISOString(),
});
export type ProductView = ReturnType<typeof presentProduct>;

export const presentCollection = (c: CollectionDocument) => ({
  id: c._id.toHexString(),
  title: c.title,
  handle: c.handle,
  description_html: c.description_html,
  type: c.type,
  product_ids: c.type === 'manual' ? c.product_ids.map((id) => id.toHexString()) : undefined,
  rules: c.rules ?? undefined,
  created_at: c.created_at.toISOString(),
  updated_at: c.updated_at.toISOString(),
});
export type CollectionView = ReturnType<typeof presentCollection>;
