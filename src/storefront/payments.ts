import { createHash, randomBytes } from 'node:crypto';
import { ObjectId, type Db } from 'mongodb';
import type { IndexDeclaration } from '../db.js';
import { isDuplicateKeyError } from '../db.js';
import { PlatformError, notFound } from '../errors.js';
import { getOrder, getShopperOrder, markOrderPaid, type OrderView, type ShopperProof } from '../orders/index.js';
import { GATEWAYS, PROVIDERS, paymentSignature, providerConfig, type Gateway, type Provider } from '../payments/index.js';
import type { Platform } from '../platform.js';
import type { StoreView } from '../stores/index.js';
import { claimLease, leaseFields, releaseLeases, settlement, type Lease } from '../work/lease.js';
import { presentOrderPayment, type OrderPaymentView } from './present.js';

export const STOREFRONT_PAYMENTS = 'storefront_payments';

/**
 * A provider-side payment order for a storefront order, and whether the provider's signed payment
 * was verified. One per (store, order, provider): the document is inserted (`creating`, leased)
 * before the provider is asked, so of concurrent requests one asks and the others wait for its
 * answer; a process that stopped while asking lets another take it over when its lease runs out.
 */
export type PaymentDocument = {
  _id: ObjectId;
  store_id: ObjectId;
  order_id: ObjectId;
  provider: Provider;
  /** The provider's order id; `pending:<_id>` while the provider is being asked (unique either way). */
  provider_order_id: string;
  amount: number;
  currency: string;
  status: 'creating' | 'created' | 'paid';
  provider_payment_id: string | null;
  verified_at: Date | null;
  created_at: Date;
  /** The request asking the provider holds these while `creating` (src/work/lease.ts); null otherwise (absent on older records). */
  lease_until: Date | null;
  lease_owner: string | null;
};

export const paymentIndexes: IndexDeclaration[] = [
  {
    collection: STOREFRONT_PAYMENTS,
    indexes: [
      { key: { provider_order_id: 1 }, name: 'provider_order_id_unique', unique: true },
      // Unique (it replaced the plain `store_id_order_id_provider`, hence the new name): one provider order per order and provider.
      { key: { store_id: 1, order_id: 1, provider: 1 }, name: 'store_id_order_id_provider_unique', unique: true },
    ],
  },
];

const payments = (db: Db) => db.collection<PaymentDocument>(STOREFRONT_PAYMENTS);

/** How long a request may take to get the provider's order before another may take over. */
const PROVIDER_CALL_MS = 30_000;
/** How long a request waits for the provider order another request is getting, before 409 payment_order_in_progress. */
const WAIT_FOR_PROVIDER_MS = 10_000;
const providerLease = (platform: Platform): Lease => ({ owner: platform.process.id, ms: PROVIDER_CALL_MS });
const inProgress = () =>
  new PlatformError('conflict', 'payment_order_in_progress', 'Another request is getting this payment order from the provider; retry shortly');

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
 * answers the same one, and the provider is asked once.
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
  const deadline = Date.now() + WAIT_FOR_PROVIDER_MS;
  for (;;) {
    const claim = await claimPaymentOrder(platform, store.id, order, provider);
    if (claim.kind === 'made') return present(claim.doc);
    if (claim.kind === 'claimed') {
      const made = await askProvider(platform, gateway, config.credentials, order, claim.doc);
      if (made) return present(made);
    } else if (Date.now() > deadline) {
      throw inProgress();
    } else {
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 30));
    }
  }
}

type PaymentClaim = { kind: 'made' | 'claimed'; doc: PaymentDocument } | { kind: 'busy' };

/**
 * The order's payment order with this provider, made (`made`), or ours to make (`claimed`: a
 * placeholder inserted under the unique (store, order, provider) index, or one whose process
 * stopped, taken over), or being made by another request (`busy`).
 */
async function claimPaymentOrder(platform: Platform, storeId: string, order: OrderView, provider: Provider): Promise<PaymentClaim> {
  const key = { store_id: new ObjectId(storeId), order_id: new ObjectId(order.id), provider };
  const existing = await payments(platform.db).findOne(key);
  const now = platform.clock.now();
  if (existing) {
    if (existing.status !== 'creating') return { kind: 'made', doc: existing };
    const taken = await claimLease(payments(platform.db), providerLease(platform), now, { _id: existing._id, status: 'creating' });
    return taken ? { kind: 'claimed', doc: taken } : { kind: 'busy' };
  }
  const _id = new ObjectId();
  const doc: PaymentDocument = {
    _id,
    ...key,
    provider_order_id: `pending:${_id.toHexString()}`,
    amount: order.total,
    currency: order.currency,
    status: 'creating',
    provider_payment_id: null,
    verified_at: null,
    created_at: now,
    ...leaseFields(providerLease(platform), now),
  };
  try {
    await payments(platform.db).insertOne(doc);
    return { kind: 'claimed', doc };
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
    return { kind: 'busy' };
  }
}

/**
 * Ask the provider for the order and record its id on the placeholder held. Null when the lease
 * was lost meanwhile (another request took over and records its own); a provider that fails
 * gives the placeholder back for the next request.
 */
async function askProvider(
  platform: Platform,
  gateway: Gateway,
  credentials: Record<string, string>,
  order: OrderView,
  held: PaymentDocument,
): Promise<PaymentDocument | null> {
  const owner = platform.process.id;
  let made: { provider_order_id: string };
  try {
    made = await gateway.createOrder(credentials, { amount: held.amount, currency: held.currency, receipt: order.id });
  } catch (err) {
    await releaseLeases(payments(platform.db), [held], owner).catch(() => {});
    throw err;
  }
  const done = settlement<PaymentDocument>(held, owner, { $set: { provider_order_id: made.provider_order_id, status: 'created' } }, { status: 'creating' });
  return payments(platform.db).findOneAndUpdate(done.filter, done.update, { returnDocument: 'after' });
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
  const payment = await payments(platform.db).findOne({
    store_id: new ObjectId(store.id),
    order_id: new ObjectId(input.order_id),
    provider,
    provider_order_id: input.provider_order_id,
    status: { $ne: 'creating' },
  });
  if (!payment) throw notFound('Payment order');
  if (!gateway.verify(config.credentials, input)) throw new PlatformError('invalid_data', 'invalid_signature', 'The payment signature does not verify');
  const request = { id: createHash('sha256').update(`storefront-payment|${payment._id.toHexString()}`).digest('hex'), hash: 'verify' };
  if (payment.status === 'paid') {
    // A replay, unless the first verification stopped before the order was marked paid: then finish that.
    const order = await getOrder(platform, store.id, input.order_id);
    if (order.financial_status !== 'pending' || payment.provider_payment_id !== input.provider_payment_id) {
      throw new PlatformError('conflict', 'payment_already_verified', 'This payment was already verified; nothing changed');
    }
    return presentOrderPayment(await markOrderPaid(platform, store.id, input.order_id, request, { provider, reference: payment.provider_payment_id }));
  }
  const claimed = await payments(platform.db).findOneAndUpdate(
    { _id: payment._id, status: 'created' },
    { $set: { status: 'paid', provider_payment_id: input.provider_payment_id, verified_at: platform.clock.now() } },
  );
  if (!claimed) throw new PlatformError('conflict', 'payment_already_verified', 'This payment was already verified; nothing changed');
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
  const payment = await payments(platform.db).findOne({
    store_id: new ObjectId(store.id),
    provider: 'sandbox',
    provider_order_id: providerOrderId,
    status: { $ne: 'creating' },
  });
  if (!payment) throw notFound('Payment order');
  await getShopperOrder(platform, store.id, payment.order_id.toHexString(), proof);
  const paymentId = `sbx_pay_${randomBytes(12).toString('base64url')}`;
  return {
    provider_order_id: providerOrderId,
    provider_payment_id: paymentId,
    signature: paymentSignature(config.credentials.key_secret!, providerOrderId, paymentId),
  };
}
