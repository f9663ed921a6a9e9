import type { CollectionView, ProductView, VariantView } from '../catalog/index.js';
import type { OrderView } from '../orders/index.js';
import type { StoreView } from '../stores/index.js';
import type { PricedCart } from './carts.js';

/**
 * What shoppers see. Each presenter names every field it shows (an allow-list): a field added
 * to a product, a variant or a store never reaches the storefront until it is named here. No
 * inventory policy, no stock counts (only `available`), no SKUs or weights, no timestamps of
 * the merchant's edits.
 */
export const presentPublicStore = (s: StoreView) => ({
  name: s.name,
  subdomain: s.subdomain,
  currency: s.currency,
  locale: s.locale,
  live_theme_id: s.live_theme_id,
});
export type PublicStoreView = ReturnType<typeof presentPublicStore>;

const presentPublicVariant = (v: VariantView, available: boolean) => ({
  id: v.id,
  title: v.title,
  option_values: v.option_values,
  price: v.price,
  compare_at_price: v.compare_at_price,
  currency: v.currency,
  available,
});

/** `availability`: variant id → whether it can be bought now. */
export const presentPublicProduct = (p: ProductView, availability: ReadonlyMap<string, boolean>) => ({
  id: p.id,
  title: p.title,
  handle: p.handle,
  description_html: p.description_html,
  vendor: p.vendor,
  product_type: p.product_type,
  tags: p.tags,
  options: p.options,
  variants: p.variants.map((v) => presentPublicVariant(v, availability.get(v.id) ?? false)),
  available: p.variants.some((v) => availability.get(v.id) ?? false),
  media_ids: p.media_ids,
  price_min: p.price_min,
  price_max: p.price_max,
  currency: p.currency,
});
export type PublicProductView = ReturnType<typeof presentPublicProduct>;

export const presentPublicCollection = (c: CollectionView) => ({
  id: c.id,
  title: c.title,
  handle: c.handle,
  description_html: c.description_html,
});

/** A repriced cart as the shopper sees it: no coupon internals beyond the code, the outcome and the discount. */
export const presentCart = (c: PricedCart) => ({
  id: c.id,
  version: c.version,
  currency: c.currency,
  lines: c.lines.map((l) => ({
    variant_id: l.variant_id,
    product_id: l.product_id,
    product_title: l.product_title,
    variant_title: l.variant_title,
    quantity: l.quantity,
    unit_price: l.unit_price,
    line_total: l.line_total,
    problem: l.problem,
  })),
  item_count: c.item_count,
  coupon:
    c.coupon === null
      ? null
      : c.coupon.applicable
        ? { code: c.coupon.code, applicable: true, discount: c.coupon.discount, reason: null }
        : { code: c.coupon.code, applicable: false, discount: 0, reason: c.coupon.reason },
  subtotal: c.subtotal,
  discount: c.discount,
  total: c.total,
  purchasable: c.purchasable,
  expires_at: c.expires_at,
  created_at: c.created_at,
  updated_at: c.updated_at,
});
export type CartView = ReturnType<typeof presentCart>;

/**
 * A storefront order's payment state, as the payment routes answer it: what the shopper needs
 * to show the outcome, nothing personal (no email, address or customer).
 */
export const presentOrderPayment = (o: OrderView) => ({
  order_id: o.id,
  number: o.number,
  financial_status: o.financial_status,
  total: o.total,
  paid_amount: o.paid_amount,
  currency: o.currency,
});
export type OrderPaymentView = ReturnType<typeof presentOrderPayment>;
