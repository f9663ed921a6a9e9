import { pick } from '../allow-list.js';
import type { CollectionView, ProductView, VariantView } from '../catalog/index.js';
import type { OrderView } from '../orders/index.js';
import type { CheckoutOffer } from './checkout-options.js';
import type { StoreView } from '../stores/index.js';
import type { PricedCart } from './carts.js';

/**
 * What shoppers see. Each presenter names every field it shows (an allow-list, `pick`): a field added
 * to a product, a variant or a store never reaches the storefront until it is named here. No
 * inventory policy, no stock counts (only `available`), no SKUs or weights, no timestamps of
 * the merchant's edits.
 */
export const presentPublicStore = (s: StoreView) => pick(s, ['name', 'subdomain', 'currency', 'locale', 'live_theme_id']);
export type PublicStoreView = ReturnType<typeof presentPublicStore>;

const presentPublicVariant = (v: VariantView, available: boolean) => ({
  ...pick(v, ['id', 'title', 'option_values', 'price', 'compare_at_price', 'currency']),
  available,
});

/** A product image as shoppers get it: a public, cacheable URL (docs/storefront.md, Product images). */
export type PublicImage = { url: string; alt: string; width: number | null; height: number | null };

/** `availability`: variant id → whether it can be bought now; `images`: the product's media as public URLs, in order. */
export const presentPublicProduct = (p: ProductView, availability: ReadonlyMap<string, boolean>, images: readonly PublicImage[] = []) => ({
  ...pick(p, ['id', 'title', 'handle', 'description_html', 'vendor', 'product_type', 'tags', 'options']),
  variants: p.variants.map((v) => presentPublicVariant(v, availability.get(v.id) ?? false)),
  available: p.variants.some((v) => availability.get(v.id) ?? false),
  ...pick(p, ['media_ids', 'price_min', 'price_max', 'currency']),
  images: [...images],
});
export type PublicProductView = ReturnType<typeof presentPublicProduct>;

export const presentPublicCollection = (c: CollectionView) => pick(c, ['id', 'title', 'handle', 'description_html']);

/** A repriced cart as the shopper sees it: no coupon internals beyond the code, the outcome and the discount. */
export const presentCart = (c: PricedCart) => ({
  ...pick(c, ['id', 'version', 'currency']),
  lines: c.lines.map((l) => pick(l, ['variant_id', 'product_id', 'product_title', 'variant_title', 'quantity', 'unit_price', 'line_total', 'problem'])),
  item_count: c.item_count,
  coupon:
    c.coupon === null
      ? null
      : c.coupon.applicable
        ? { code: c.coupon.code, applicable: true, discount: c.coupon.discount, reason: null }
        : { code: c.coupon.code, applicable: false, discount: 0, reason: c.coupon.reason },
  ...pick(c, ['subtotal', 'discount', 'total', 'purchasable', 'expires_at', 'created_at', 'updated_at']),
});
export type CartView = ReturnType<typeof presentCart>;

/**
 * A storefront order's payment state, as the payment routes answer it: what the shopper needs
 * to show the outcome, nothing personal (no email, address or customer).
 */
export const presentOrderPayment = (o: OrderView) => ({
  order_id: o.id,
  ...pick(o, ['number', 'financial_status', 'total', 'paid_amount', 'currency']),
});
export type OrderPaymentView = ReturnType<typeof presentOrderPayment>;

/** What a checkout offers, as the shopper sees it (GET …/cart/checkout-options). */
export const presentCheckoutOffer = (o: CheckoutOffer) => ({
  shipping_required: o.shipping_required,
  shipping_options: o.shipping_options,
  payment_methods: o.payment_methods,
  coupon: o.coupon,
  errors: o.errors,
});
