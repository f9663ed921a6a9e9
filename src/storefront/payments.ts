import { createHash, randomBytes } from 'node:crypto';
import { ObjectId, type Db } from 'mongodb';
import type { IndexDeclaration } from '../db.js';
import { isDuplicateKeyError } from '../db.js';
import { PlatformError, notFound } from '../errors.js';
import { getOrder, markOrderPaid, type OrderView } from '../orders/index.js';
import { GATEWAYS, PROVIDERS, paymentSignature, providerConfig, type Provider } from '../payments/index.js';
import type { Platform } from '../platform.js';
import type { StoreView } from '../stores/index.js';

export const STOREFRONT_PAYMENTS = 'storefront_payments';

/** A provider-side payment order for a storefront order, and whether the provider's signed payment was verified. */
export type PaymentDocument = {
  _id: ObjectId;
  store_id: ObjectId;
  order_id: ObjectId;
  provider: Provider;
  provider_order_id: string;
  amount: number;
  currency: string;
  status: 'created' | 'paid';
  provider_payment_id: string | null;
  verified_at: Date | null;
  created_at: Date;
};

export const paymentIndexes: IndexDeclaration[] = [
  {
    collection: STOREFRONT_PAYMENTS,
    indexes: [
      { key: { provider_order_id: 1 }, name: 'provider_order_id_unique', unique: true },
      { key: { store_id: 1, order_id: 1, provider: 1 }, name: 'store_id_order_id_provider' },
    ],
  },
];

const payments = (db: Db) => db.collection<PaymentDocument>(STOREFRONT_PAYMENTS);

export type PaymentOrderView = { order_id: string; provider: Provider; provider_order_id: string; amount: number; currency: string; status: PaymentDocument['status'] };
const present = (p: PaymentDocument): PaymentOrderView => ({ order_id: p.order_id.toHexString(), provider: p.provider, provider_order_id: p.provider_order_id, amount: p.amount, currency: p.currency, status: p.status });

async function gatewayOf(platform: Platform, storeId: string, provider: string) {
  // The sandbox marks orders paid without money changing hands: never in production.
  const allowed = provider !== 'sandbox' || platform.config.env !== 'production';
  const known = PROVIDERS.find((p) => p === provider);
  const gateway = allowed && known ? GATEWAYS[known] : undefined;
  if (!gateway) throw new PlatformError('not_found', 'provider_not_supported', `Payments through ${provider} are not available on the storefront (supported: ${Object.keys(GATEWAYS).join(', ')})`);
  const config = await providerConfig(platform, storeId, provider as Provider);
  if (!config?.enabled) throw new PlatformError('conflict', 'provider_not_enabled', `The store has not enabled ${provider} payments`);
  return { gateway, config, provider: provider as Provider };
}

async function payableOrder(platform: Platform, storeId: string, orderId: string): Promise<OrderView> {
  const order = await getOrder(platform, storeId, orderId);
  if (order.cancelled_at || order.financial_status !== 'pending') throw new PlatformError('conflict', 'order_not_payable', `This order is ${order.cancelled_at ? 'cancelled' : order.financial_status}; only a pending order is paid`);
  return order;
}

/**
 * The provider-side payment order for an unpaid order (spec 4.4): amount and currency come from
 * the order, never from the client. One per order and provider: asking again answers the same one.
 */
export async function createPaymentOrder(platform: Platform, store: StoreView, providerName: string, orderId: string): Promise<PaymentOrderView> {
  const { gateway, config, provider } = await gatewayOf(platform, store.id, providerName);
  const order = await payableOrder(platform, store.id, orderId);
  const existing = await payments(platform.db).findOne({ store_id: new ObjectId(store.id), order_id: new ObjectId(order.id), provider });
  if (existing) return present(existing);
  const made = await gateway.createOrder(config.credentials, { amount: order.total, currency: order.currency, receipt: order.id });
  const doc: PaymentDocument = {
    _id: new ObjectId(),
    store_id: new ObjectId(store.id),
    order_id: new ObjectId(order.id),
    provider,
    provider_order_id: made.provider_order_id,
    amount: order.total,
    currency: order.currency,
    status: 'created',
    provider_payment_id: null,
    verified_at: null,
    created_at: platform.clock.now(),
  };
  try {
    await payments(platform.db).insertOne(doc);
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
  }
  return present(doc);
}

export type VerifyInput = { order_id: string; provider_order_id: string; provider_payment_id: string; signature: string };

/**
 * The provider's signed payment (its HMAC over `<provider order id>|<payment id>`): verified in
 * constant time against the store's key secret, then the order is marked paid exactly once
 * (`order.paid`, a `sale` transaction with the provider's payment id). A forged signature is
 * refused and changes nothing; a payment already verified is refused as a replay.
 */
export async function verifyPayment(platform: Platform, store: StoreView, providerName: string, input: VerifyInput): Promise<OrderView> {
  const { gateway, config, provider } = await gatewayOf(platform, store.id, providerName);
  const payment = ObjectId.isValid(input.order_id)
    ? await payments(platform.db).findOne({ store_id: new ObjectId(store.id), order_id: new ObjectId(input.order_id), provider, provider_order_id: input.provider_order_id })
    : null;
  if (!payment) throw notFound('Payment order');
  if (!gateway.verify(config.credentials, input)) throw new PlatformError('invalid_data', 'invalid_signature', 'The payment signature does not verify');
  const request = { id: createHash('sha256').update(`storefront-payment|${payment._id.toHexString()}`).digest('hex'), hash: 'verify' };
  if (payment.status === 'paid') {
    // A replay, unless the first verification stopped before the order was marked paid: then finish that.
    const order = await getOrder(platform, store.id, input.order_id);
    if (order.financial_status !== 'pending' || payment.provider_payment_id !== input.provider_payment_id) {
      throw new PlatformError('conflict', 'payment_already_verified', 'This payment was already verified; nothing changed');
    }
    return markOrderPaid(platform, store.id, input.order_id, request, { provider, reference: payment.provider_payment_id });
  }
  const claimed = await payments(platform.db).findOneAndUpdate(
    { _id: payment._id, status: 'created' },
    { $set: { status: 'paid', provider_payment_id: input.provider_payment_id, verified_at: platform.clock.now() } },
  );
  if (!claimed) throw new PlatformError('conflict', 'payment_already_verified', 'This payment was already verified; nothing changed');
  platform.log.info({ event: 'storefront.payment_verified', store_id: store.id, order_id: input.order_id, provider });
  return markOrderPaid(platform, store.id, input.order_id, request, { provider, reference: input.provider_payment_id });
}

/**
 * The sandbox's hosted checkout, simulated: for a sandbox payment order, a successful payment as
 * the provider would report it (a payment id and its signature with the store's key secret).
 * Only the sandbox has it; a real provider's checkout is the provider's.
 */
export async function simulateSandboxPayment(platform: Platform, store: StoreView, providerOrderId: string): Promise<{ provider_order_id: string; provider_payment_id: string; signature: string }> {
  const { config } = await gatewayOf(platform, store.id, 'sandbox');
  const payment = await payments(platform.db).findOne({ store_id: new ObjectId(store.id), provider: 'sandbox', provider_order_id: providerOrderId });
  if (!payment) throw notFound('Payment order');
  const paymentId = `sbx_pay_${randomBytes(12).toString('base64url')}`;
  return { provider_order_id: providerOrderId, provider_payment_id: paymentId, signature: paymentSignature(config.credentials.key_secret!, providerOrderId, paymentId) };
}
