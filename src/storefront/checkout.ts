import { countEvent } from '../counters/index.js';
import { sha256 } from '../digest.js';
import { PlatformError, invalidInput, notFound } from '../errors.js';
import { createOrder, findOrderByRequest, getShopperOrder, type OrderView, type RequestRef } from '../orders/index.js';
import type { Platform } from '../platform.js';
import { hashToken, keyedHash, type SecretsKey } from '../secrets/index.js';
import type { StoreView } from '../stores/index.js';
import {
  claimCartForCheckout,
  clearStrandedClaim,
  consumeCart,
  findCartByTokenHash,
  findStrandedCheckouts,
  releaseCartClaim,
  checkoutInProgress,
} from './carts.js';
import { checkoutOffer, type CheckoutOffer } from './checkout-options.js';
import { CART_TOKEN_PREFIX, PAYMENT_SECRET_PREFIX, type CheckoutBody } from './schemas.js';

/** Carts the sweep of stranded checkouts takes up in one run. */
const SWEEP_BATCH = 100;

/**
 * Every checkout of one cart shares this request id (a hash of the store and the cart token's
 * hash), so the orders domain makes at most one order of a cart: its request key is unique.
 */
const cartRequestId = (storeId: string, tokenHash: string) => sha256(`storefront-checkout|${storeId}|${tokenHash}`);

const PAYMENT_SECRET_PURPOSE = 'storefront.payment-secret';

/**
 * A checkout's payment secret: a keyed hash, under a secrets key, of its request (the cart, and the
 * Idempotency-Key, caller and body that name the checkout). The same request derives the same
 * secret, so a replay is answered the first answer's secret and nothing is replaced (the shopper's
 * proof keeps working), while whoever holds the cart token but not the key derives nothing. Only
 * its hash is kept.
 */
function paymentSecret(keys: readonly SecretsKey[], request: RequestRef): string {
  // keyedHash derives under the first key and answers `<key id>:<hex>`.
  const hashed = keyedHash(keys, PAYMENT_SECRET_PURPOSE, `${request.id}|${request.hash}`);
  return `${PAYMENT_SECRET_PREFIX}_${Buffer.from(hashed.slice(hashed.indexOf(':') + 1), 'hex').toString('base64url')}`;
}

/**
 * The secret a replay of the order's checkout answers: the one its request derives under the secrets
 * key that made it (keys rotate), proved against the order's kept hash. Null for an order whose
 * secret no configured key derives (made before secrets were derived, or under a key since
 * removed): it is never replaced, so its shopper's proof keeps working.
 */
async function replayedSecret(platform: Platform, storeId: string, orderId: string, request: RequestRef): Promise<string | null> {
  for (const key of platform.config.secretsKeys) {
    const secret = paymentSecret([key], request);
    const opens = await getShopperOrder(platform, storeId, orderId, { secret, customerId: null }).then(
      () => true,
      (err: unknown) => {
        if (err instanceof PlatformError && err.kind === 'not_found') return false;
        throw err;
      },
    );
    if (opens) return secret;
  }
  return null;
}

const alreadyCheckedOut = () =>
  new PlatformError(
    'conflict',
    'cart_already_checked_out',
    'This cart was already checked out by another request (another Idempotency-Key or another caller); its order is answered to that request only',
  );

export type CheckoutResult = { created: boolean; order: OrderView; payment_secret: string | null };

/**
 * Checkout (docs/storefront.md, "Checkout"): a cart becomes an order, once. The cart is first
 * claimed by one conditional write (no other checkout, change or discard while it is held), then
 * priced by the orders domain from the catalog, coupon and tax table (the cart's prices are only
 * shown, never trusted), and the order made as one change that reserves each variant's stock and
 * the coupon's use atomically, or nothing. The order's request key names the cart, so however
 * many checkouts of one cart run (and whatever their leases did), one order is made. The cart is
 * then consumed carrying `checkout.completed`.
 *
 * The `Idempotency-Key` (required) names the checkout: a retry with the same key, cart, caller
 * and body answers the order the first one made, with the same payment secret (never a new one);
 * another request on a cart that has its order is 409 `cart_already_checked_out`. The answer holds
 * the order's payment secret: the proof a storefront payment asks for (only its hash is kept).
 */
export async function checkout(
  platform: Platform,
  store: StoreView,
  cartToken: string | undefined,
  key: string | undefined,
  body: CheckoutBody,
  customerId: string | null = null,
): Promise<CheckoutResult> {
  // Counted by outcome (`checkout.outcomes`, docs/operations.md): made an order, answered again, or refused with its code.
  try {
    const result = await placeCheckout(platform, store, cartToken, key, body, customerId);
    countEvent(platform, 'checkout.outcomes', { outcome: result.created ? 'completed' : 'replayed' });
    return result;
  } catch (err) {
    countEvent(platform, 'checkout.outcomes', { outcome: err instanceof PlatformError ? err.code : 'error' });
    throw err;
  }
}

async function placeCheckout(
  platform: Platform,
  store: StoreView,
  cartToken: string | undefined,
  key: string | undefined,
  body: CheckoutBody,
  customerId: string | null,
): Promise<CheckoutResult> {
  if (!key)
    throw new PlatformError('invalid_data', 'idempotency_key_required', 'A checkout needs an Idempotency-Key header, so a retry never makes a second order');
  if (!cartToken?.startsWith(`${CART_TOKEN_PREFIX}_`)) throw notFound('Cart');
  const tokenHash = hashToken(cartToken);
  // The same request again: the same key, caller and body (the cart is in the id).
  const request: RequestRef = { id: cartRequestId(store.id, tokenHash), hash: sha256(JSON.stringify([key, customerId, body])) };
  const claim = await claimCartForCheckout(platform, store, cartToken);
  if (claim.outcome === 'held') throw checkoutInProgress();
  const secret = paymentSecret(platform.config.secretsKeys, request);
  let order: OrderView;
  try {
    // A cart consumed, or one whose checkout stopped after making its order, has its order.
    const made = await findOrderByRequest(platform, store.id, request);
    if (made) {
      await finishCart(platform, store.id, tokenHash, made.order);
      if (!made.same) throw alreadyCheckedOut();
      return { created: false, order: made.order, payment_secret: await replayedSecret(platform, store.id, made.order.id, request) };
    }
    if (claim.outcome === 'consumed') throw alreadyCheckedOut();
    const { cart } = claim;
    if (!cart.purchasable) {
      const problems = cart.lines.flatMap((l, i) => (l.problem ? [`lines.${i}: ${l.variant_id} is ${l.problem.replace(/_/g, ' ')}`] : []));
      throw new PlatformError(
        'conflict',
        'cart_not_purchasable',
        cart.lines.length === 0 ? 'The cart is empty' : 'Some lines of the cart cannot be bought as they stand',
        { details: problems },
      );
    }
    if (cart.coupon && !cart.coupon.applicable) {
      throw new PlatformError('conflict', 'coupon_not_applicable', `The cart's coupon cannot be used: ${cart.coupon.reason}; remove it or change the cart`);
    }
    const address = body.shipping_address;
    const offer = await checkoutOffer(
      platform,
      store,
      cart,
      address ? { country_code: address.country_code, province_code: address.province_code } : null,
      customerId,
    );
    const shippingLine = chosenShipping(offer, body);
    if (cart.coupon && offer.coupon?.decision === 'refuse')
      throw new PlatformError('conflict', 'coupon_refused', offer.coupon.message ?? `The code ${cart.coupon.code} cannot be used on this checkout; remove it`);
    const blocking = offer.errors.filter((e) => e.blocking);
    if (blocking.length > 0)
      throw new PlatformError('conflict', 'checkout_blocked', "The store's checkout rules stop this checkout; change the cart or the address", {
        details: blocking.map((e) => `${e.field ?? 'checkout'}: ${e.message}`),
      });
    order = await createOrder(
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
        ...(shippingLine ? { shipping_line: shippingLine } : {}),
        financial_status: 'pending',
      },
      request,
      {
        source: 'storefront',
        taken: alreadyCheckedOut,
        paymentSecretHash: hashToken(secret),
        ...(offer.payment_methods_advised ? { paymentMethods: offer.payment_methods.map((m) => m.provider) } : {}),
      },
    );
  } catch (err) {
    // No order of this checkout: the cart is the shopper's again (a failed release runs out instead).
    if (claim.outcome === 'claimed') {
      await releaseCartClaim(platform, claim.held).catch((releaseErr: unknown) => {
        platform.log.warn({ event: 'storefront.cart_release_failed', cart_id: claim.cart.id, err: (releaseErr as Error).message });
      });
    }
    throw err;
  }
  const { cart, held } = claim;
  // The order stands whatever happens to the cart now: a cart left unconsumed is finished by the
  // next request that presents it, or by the sweep once this hold runs out.
  const consumed = await consumeCart(platform, store.id, held._id, order).catch((err: unknown) => {
    platform.log.error({ event: 'storefront.cart_consume_failed', cart_id: cart.id, order_id: order.id, err: (err as Error).message });
    return true;
  });
  if (!consumed)
    platform.log.warn(
      { event: 'storefront.cart_already_consumed', cart_id: cart.id, order_id: order.id },
      'the cart was consumed by another request or the sweep',
    );
  platform.log.info({ event: 'storefront.checkout', store_id: store.id, order_id: order.id });
  return { created: true, order, payment_secret: secret };
}

/**
 * The shipping line a checkout charges: the option it names among those offered for its address
 * (after Checkout Functions advised: a hidden option cannot be chosen, a renamed one is charged
 * at its rate's price under its new name). A store without shipping rates charges none.
 */
function chosenShipping(offer: CheckoutOffer, body: CheckoutBody): { title: string; code: string; price: number } | null {
  const codes = offer.shipping_options.map((o) => o.code);
  if (!offer.shipping_required) {
    if (body.shipping_option === undefined) return null;
    throw new PlatformError('conflict', 'shipping_option_unavailable', 'This store has no shipping rates: leave out shipping_option');
  }
  if (!body.shipping_address) throw invalidInput([{ path: 'shipping_address', message: 'is required: this store ships its orders' }]);
  if (body.shipping_option === undefined)
    throw invalidInput([{ path: 'shipping_option', message: `is required: choose one of the options for this address (${codes.join(', ') || 'none'})` }]);
  const option = offer.shipping_options.find((o) => o.code === body.shipping_option);
  if (!option)
    throw new PlatformError(
      'conflict',
      'shipping_option_unavailable',
      codes.length
        ? `The shipping option ${body.shipping_option} is not offered for this cart and address; choose one of ${codes.join(', ')}`
        : 'No shipping option reaches this address',
    );
  return { title: option.name, code: option.code, price: option.price };
}

/** The cart of this token has its order: consume it if nothing did yet (a checkout that stopped before). */
async function finishCart(platform: Platform, storeId: string, tokenHash: string, order: OrderView): Promise<void> {
  const cart = await findCartByTokenHash(platform, storeId, tokenHash);
  if (cart && !cart.consumed_at) await consumeCart(platform, storeId, cart._id, order);
}

/**
 * Maintenance: carts whose checkout stopped while holding them (the hold ran out, the cart not
 * consumed). A cart whose order was made (the orders sweep finishes a creation already decided)
 * is consumed, with its `checkout.completed`; one with no order is given back. An order still
 * being made by a live process is left for the next run. Resolves to how many it took up.
 */
export async function finishStrandedCheckouts(platform: Platform): Promise<number> {
  const stranded = await findStrandedCheckouts(platform, SWEEP_BATCH);
  let finished = 0;
  for (const cart of stranded) {
    const storeId = cart.store_id.toHexString();
    try {
      const made = await findOrderByRequest(platform, storeId, { id: cartRequestId(storeId, cart.token_hash), hash: '' });
      if (made) await consumeCart(platform, storeId, cart._id, made.order);
      else await clearStrandedClaim(platform, cart);
      finished++;
      platform.log.info({ event: 'storefront.checkout_finished', cart_id: cart._id.toHexString(), order_id: made?.order.id ?? null });
    } catch (err) {
      platform.log.warn({ event: 'storefront.checkout_not_finished', cart_id: cart._id.toHexString(), err: (err as Error).message });
    }
  }
  return finished;
}
