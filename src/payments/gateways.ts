import { createHmac, randomBytes } from 'node:crypto';
import { ObjectId } from 'mongodb';
import type { Platform } from '../platform.js';
import { decryptSecret, equalBytes } from '../secrets/index.js';
import { providerSettings, type Provider } from './models.js';

/**
 * The payment gateways the storefront checkout pays through (docs/storefront.md, Payments): one
 * interface, Razorpay's shape (a provider-side order for the amount, then a payment the provider
 * signs: HMAC-SHA256 with the store's key secret over `<provider order id>|<payment id>`). Real
 * providers plug in here with the credentials of the store's payment settings.
 */
export type Gateway = {
  /** The provider-side order for an amount (minor units) in a currency. */
  createOrder(credentials: Record<string, string>, input: { amount: number; currency: string; receipt: string }): Promise<{ provider_order_id: string }>;
  /** Whether the provider signed this payment of this provider order (constant time). */
  verify(credentials: Record<string, string>, input: { provider_order_id: string; provider_payment_id: string; signature: string }): boolean;
};

export const paymentSignature = (keySecret: string, providerOrderId: string, paymentId: string) =>
  createHmac('sha256', keySecret).update(`${providerOrderId}|${paymentId}`, 'utf8').digest('hex');

/** The sandbox: a provider that lives inside the platform and signs as a real one does. */
export const sandboxGateway: Gateway = {
  async createOrder() {
    return { provider_order_id: `sbx_order_${randomBytes(12).toString('base64url')}` };
  },
  verify(credentials, input) {
    const secret = credentials.key_secret;
    if (!secret || !/^[0-9a-f]{64}$/.test(input.signature)) return false;
    return equalBytes(Buffer.from(paymentSignature(secret, input.provider_order_id, input.provider_payment_id), 'hex'), Buffer.from(input.signature, 'hex'));
  },
};

export const GATEWAYS: Partial<Record<Provider, Gateway>> = { sandbox: sandboxGateway };

const CREDENTIALS_PURPOSE = 'payments.credentials';

/** A store's settings for a provider with its credentials readable (the gateway needs them), or null when never saved. */
export async function providerConfig(
  platform: Platform,
  storeId: string,
  provider: Provider,
): Promise<{ enabled: boolean; test_mode: boolean; credentials: Record<string, string> } | null> {
  const doc = await providerSettings(platform.db).findOne({ store_id: new ObjectId(storeId), provider });
  if (!doc) return null;
  const credentials = doc.credentials_encrypted
    ? (JSON.parse(decryptSecret(platform.config.secretsKeys, CREDENTIALS_PURPOSE, doc.credentials_encrypted)) as Record<string, string>)
    : {};
  return { enabled: doc.enabled, test_mode: doc.test_mode, credentials };
}
