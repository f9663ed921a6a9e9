import { createHash } from 'node:crypto';
import { PlatformError } from '../errors.js';
import { createOrder, findOrderByRequest, type OrderView, type RequestRef } from '../orders/index.js';
import type { Platform } from '../platform.js';
import { hashToken } from '../secrets/index.js';
import type { StoreView } from '../stores/index.js';
import { loadPricedCart, markCartConsumed } from './carts.js';
import type { CheckoutBody } from './schemas.js';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * Checkout (docs/storefront.md, "Checkout"): a cart becomes an order. The order is priced by the
 * orders domain from the catalog, coupon and tax table (the cart's prices are only shown, never
 * trusted), and made as one change that reserves each variant's stock and the coupon's use
 * atomically, or nothing. The `Idempotency-Key` (required) names the checkout: a retry with the
 * same key and cart answers the order the first one made, even once the cart is consumed. The
 * cart is consumed carrying `checkout.completed`.
 */
export async function checkout(
  platform: Platform,
  store: StoreView,
  cartToken: string | undefined,
  key: string | undefined,
  body: CheckoutBody,
  customerId: string | null = null,
): Promise<{ created: boolean; order: OrderView }> {
  if (!key) throw new PlatformError('invalid_data', 'idempotency_key_required', 'A checkout needs an Idempotency-Key header, so a retry never makes a second order');
  if (!cartToken) throw new PlatformError('not_found', 'not_found', 'Cart not found');
  const request: RequestRef = { id: sha256(`storefront-checkout|${store.id}|${hashToken(cartToken)}|${key}`), hash: sha256(JSON.stringify(body)) };
  const made = await findOrderByRequest(platform, store.id, request);
  if (made) return { created: false, order: made };

  const cart = await loadPricedCart(platform, store, cartToken);
  if (!cart.purchasable) {
    const problems = cart.lines.flatMap((l, i) => (l.problem ? [`lines.${i}: ${l.variant_id} is ${l.problem.replace(/_/g, ' ')}`] : []));
    throw new PlatformError('conflict', 'cart_not_purchasable', cart.lines.length === 0 ? 'The cart is empty' : 'Some lines of the cart cannot be bought as they stand', { details: problems });
  }
  if (cart.coupon && !cart.coupon.applicable) {
    throw new PlatformError('conflict', 'coupon_not_applicable', `The cart's coupon cannot be used: ${cart.coupon.reason}; remove it or change the cart`);
  }
  const order = await createOrder(
    platform,
    store,
    {
      email: body.email,
      ...(customerId ? { customer_id: customerId } : {}),
      line_items: cart.lines.map((l) => ({ variant_id: l.variant_id, quantity: l.quantity })),
      ...(cart.coupon ? { coupon_code: cart.coupon.code } : {}),
      ...(body.shipping_address ? { shipping_address: body.shipping_address } : {}),
      ...(body.billing_address ? { billing_address: body.billing_address } : {}),
      ...(body.note ? { note: body.note } : {}),
      financial_status: 'pending',
    },
    request,
    { source: 'storefront' },
  );
  const pending = [
    platform.events.pending('checkout.completed', store.id, { order_id: order.id, cart_id: cart.id, total: order.total, currency: order.currency }, `checkout.completed:${order.id}`),
  ];
  const consumed = await markCartConsumed(platform, store.id, cart.id, cart.version, { orderId: order.id, pending });
  if (!consumed) platform.log.warn({ event: 'storefront.cart_not_consumed', cart_id: cart.id, order_id: order.id }, 'the cart changed during checkout; the order stands');
  platform.log.info({ event: 'storefront.checkout', store_id: store.id, order_id: order.id });
  return { created: true, order };
}
