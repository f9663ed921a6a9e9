import { adviseCheckout, type CheckoutAdvice, type FunctionCart } from '../apps/index.js';
import { getCustomer } from '../customers/index.js';
import { enabledPaymentMethods } from '../payments/index.js';
import type { Platform } from '../platform.js';
import { getShippingSettings, shippingOptionsFor } from '../shipping/index.js';
import type { StoreView } from '../stores/index.js';
import type { PricedCart } from './carts.js';

/** Where the shopper ships to, as far as options depend on it. */
export type Destination = { country_code: string; province_code: string | null };

/**
 * What a checkout of this cart offers (docs/storefront.md, Checkout options): the store's
 * shipping options for the destination (its rate table, docs/shipping.md) and its enabled
 * payment methods, each as the store's enabled Checkout Functions advised (they may hide, rename
 * and reorder, never add or reprice), their decision on the cart's coupon code and their
 * validation errors. `shipping_required`: the store has shipping rates, so a checkout names an
 * address and one of the options.
 */
export type CheckoutOffer = CheckoutAdvice & { shipping_required: boolean };

export async function checkoutOffer(
  platform: Platform,
  store: StoreView,
  cart: PricedCart,
  destination: Destination | null,
  customerId: string | null,
): Promise<CheckoutOffer> {
  const [shipping, payments, customer] = await Promise.all([
    getShippingSettings(platform, store.id),
    enabledPaymentMethods(platform, store.id),
    customerId ? getCustomer(platform, store.id, customerId) : null,
  ]);
  const functionCart: FunctionCart = {
    currency: cart.currency,
    subtotal: cart.subtotal,
    lines: cart.lines
      .filter((l) => l.problem === null && l.product_id !== null && l.unit_price !== null)
      .map((l) => ({
        variant_id: l.variant_id,
        product_id: l.product_id!,
        quantity: l.quantity,
        price: l.unit_price!,
        line_total: l.line_total,
        ...(l.sku !== null ? { sku: l.sku } : {}),
        ...(l.product_type !== null ? { product_type: l.product_type } : {}),
        ...(l.vendor !== null ? { vendor: l.vendor } : {}),
        tags: l.tags,
      })),
    customer: customer ? { tags: customer.tags, orders_count: customer.orders_count } : null,
    coupon_code: cart.coupon?.code ?? null,
    shipping_address: destination ? { country: destination.country_code, province: destination.province_code } : null,
  };
  const advice = await adviseCheckout(platform, {
    storeId: store.id,
    cart: functionCart,
    shippingOptions: destination ? shippingOptionsFor(shipping, destination, cart.subtotal) : [],
    paymentMethods: payments,
    ref: { cart_id: cart.id, customer_id: customerId },
  });
  return { ...advice, shipping_required: shipping.rates.length > 0 };
}
