import { ObjectId } from 'mongodb';
import { sha256 } from '../digest.js';
import { PlatformError, notFound } from '../errors.js';
import { getOrder, getShopperOrder, markOrderPaid, type OrderView, type ShopperProof } from '../orders/index.js';
import {
  GATEWAYS,
  PROVIDERS,
  madeSessions,
  openPaymentSession,
  providerConfig,
  recordSessionPayment,
  requireSignedPayment,
  sandboxPayment,
  type Provider,
} from '../payments/index.js';
import type { Platform } from '../platform.js';
import type { StoreView } from '../stores/index.js';
import { presentOrderPayment, type OrderPaymentView } from './present.js';
import { storefrontPayments, type PaymentDocument } from './models.js';

/**
 * Storefront payments (docs/storefront.md, Payments): a storefront order paid by its shopper
 * through the store's provider, as a payment session (src/payments/sessions.ts) whose recorded
 * payment marks the order paid.
 */

export type PaymentOrderView = {
  order_id: string;
  provider: Provider;
  provider_order_id: string;
  amount: number;
  currency: string;
  status: PaymentDocument['status'];
};
const present = (p: PaymentDocument): PaymentOrderView => ({
  order_id: p.order_id.toHexString(),
  provider: p.provider,
  provider_order_id: p.provider_order_id,
  amount: p.amount,
  currency: p.currency,
  status: p.status,
});

async function gatewayOf(platform: Platform, storeId: string, provider: string) {
  // The sandbox marks orders paid without money changing hands: never in production.
  const allowed = provider !== 'sandbox' || platform.config.env !== 'production';
  const known = PROVIDERS.find((p) => p === provider);
  const gateway = allowed && known ? GATEWAYS[known] : undefined;
  if (!gateway)
    throw new PlatformError(
      'not_found',
      'provider_not_supported',
      `Payments through ${provider} are not available on the storefront (supported: ${Object.keys(GATEWAYS).join(', ')})`,
    );
  const config = await providerConfig(platform, storeId, provider as Provider);
  if (!config?.enabled) throw new PlatformError('conflict', 'provider_not_enabled', `The store has not enabled ${provider} payments`);
  return { gateway, config, provider: provider as Provider };
}

async function payableOrder(platform: Platform, storeId: string, orderId: string, proof: ShopperProof): Promise<OrderView> {
  const order = await getShopperOrder(platform, storeId, orderId, proof);
  if (order.cancelled_at || order.financial_status !== 'pending')
    throw new PlatformError(
      'conflict',
      'order_not_payable',
      `This order is ${order.cancelled_at ? 'cancelled' : order.financial_status}; only a pending order is paid`,
    );
  return order;
}

/**
 * The provider-side payment order for an unpaid order (spec 4.4), for its shopper (the proof:
 * the order's payment secret or its customer's session): amount and currency come from the
 * order, never from the client. One per order and provider: asking again, or at the same time,
 * answers the same one, and the provider is asked once (a payment session of the order).
 */
export async function createPaymentOrder(
  platform: Platform,
  store: StoreView,
  providerName: string,
  orderId: string,
  proof: ShopperProof,
): Promise<PaymentOrderView> {
  const { gateway, config, provider } = await gatewayOf(platform, store.id, providerName);
  const order = await payableOrder(platform, store.id, orderId, proof);
  // The order's checkout offered these methods, as Checkout Functions advised (null: an order that predates them).
  if (order.payment_methods && !order.payment_methods.includes(provider))
    throw new PlatformError(
      'conflict',
      'payment_method_unavailable',
      `This order's checkout did not offer ${provider}; pay with one it offered: ${order.payment_methods.join(', ') || 'none'}`,
    );
  const key = { store_id: new ObjectId(store.id), order_id: new ObjectId(order.id), provider };
  const { doc } = await openPaymentSession(platform, storefrontPayments, {
    key,
    fields: { ...key, amount: order.total, currency: order.currency, verified_at: null, created_at: platform.clock.now() },
    gateway,
    credentials: config.credentials,
    charge: { amount: order.total, currency: order.currency, receipt: order.id },
  });
  return present(doc);
}

export type VerifyInput = { order_id: string; provider_order_id: string; provider_payment_id: string; signature: string };

/**
 * The provider's signed payment (its HMAC over `<provider order id>|<payment id>`), presented by
 * the order's shopper (the proof, as for the payment order): verified in constant time against
 * the store's key secret, then the order is marked paid exactly once (`order.paid`, a `sale`
 * transaction with the provider's payment id). A forged signature is refused and changes
 * nothing; a payment already verified is refused as a replay. The answer is the order's payment
 * state, nothing personal.
 */
export async function verifyPayment(
  platform: Platform,
  store: StoreView,
  providerName: string,
  input: VerifyInput,
  proof: ShopperProof,
): Promise<OrderPaymentView> {
  const { gateway, config, provider } = await gatewayOf(platform, store.id, providerName);
  await getShopperOrder(platform, store.id, input.order_id, proof);
  const payment = await storefrontPayments.collection(platform.db).findOne(
    madeSessions(storefrontPayments, {
      store_id: new ObjectId(store.id),
      order_id: new ObjectId(input.order_id),
      provider,
      provider_order_id: input.provider_order_id,
    }),
  );
  if (!payment) throw notFound('Payment order');
  requireSignedPayment(platform, gateway.verify(config.credentials, input), { store_id: store.id, order_id: input.order_id, provider });
  const request = { id: sha256(`storefront-payment|${payment._id.toHexString()}`), hash: 'verify' };
  if (payment.status === 'paid') {
    // A replay, unless the first verification stopped before the order was marked paid: then finish that.
    const order = await getOrder(platform, store.id, input.order_id);
    if (order.financial_status !== 'pending' || payment.provider_payment_id !== input.provider_payment_id) {
      throw new PlatformError('conflict', 'payment_already_verified', 'This payment was already verified; nothing changed');
    }
    return presentOrderPayment(await markOrderPaid(platform, store.id, input.order_id, request, { provider, reference: payment.provider_payment_id }));
  }
  if (!(await recordSessionPayment(platform, storefrontPayments, payment, input.provider_payment_id, platform.clock.now()))) {
    throw new PlatformError('conflict', 'payment_already_verified', 'This payment was already verified; nothing changed');
  }
  platform.log.info({ event: 'storefront.payment_verified', store_id: store.id, order_id: input.order_id, provider });
  return presentOrderPayment(await markOrderPaid(platform, store.id, input.order_id, request, { provider, reference: input.provider_payment_id }));
}

/**
 * The sandbox's hosted checkout, simulated: for a sandbox payment order, a successful payment as
 * the provider would report it (a payment id and its signature with the store's key secret), to
 * the order's shopper only (the proof, as for the payment order): the sandbox pays for free.
 * Only the sandbox has it; a real provider's checkout is the provider's.
 */
export async function simulateSandboxPayment(
  platform: Platform,
  store: StoreView,
  providerOrderId: string,
  proof: ShopperProof,
): Promise<{ provider_order_id: string; provider_payment_id: string; signature: string }> {
  const { config } = await gatewayOf(platform, store.id, 'sandbox');
  const payment = await storefrontPayments
    .collection(platform.db)
    .findOne(madeSessions(storefrontPayments, { store_id: new ObjectId(store.id), provider: 'sandbox', provider_order_id: providerOrderId }));
  if (!payment) throw notFound('Payment order');
  await getShopperOrder(platform, store.id, payment.order_id.toHexString(), proof);
  return sandboxPayment(config.credentials.key_secret!, providerOrderId);
}
