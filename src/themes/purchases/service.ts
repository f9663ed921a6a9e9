import { hkdfSync } from 'node:crypto';
import { ObjectId } from 'mongodb';
import { z } from 'zod';
import { PlatformError, notFound } from '../../errors.js';
import type { MerchantPrincipal, ScopedStore } from '../../http/context.js';
import { IdString } from '../../ids.js';
import { GATEWAYS, madeSessions, openPaymentSession, recordSessionPayment, requireSignedPayment, sandboxPayment } from '../../payments/index.js';
import type { Platform } from '../../platform.js';
import { themePackages, themeVersions } from '../packages/models.js';
import { themePurchases, themePurchaseSessions, type ThemePurchaseDocument } from './models.js';

/**
 * Purchases of paid marketplace themes (docs/themes.md, Purchases). The money goes to the
 * platform (the marketplace), not to the store, so the provider and its key secret are the
 * platform's. The only provider today is the sandbox (src/payments/gateways.ts), whose key secret
 * is derived from SECRETS_KEYS (HKDF, its own purpose): no new setting, and like every sandbox it
 * does not exist in production, where it would unlock paid themes without money changing hands.
 * Its simulated checkout (simulatePurchasePayment) is routed only in development and test. A
 * purchase is a payment session (src/payments/sessions.ts) whose recorded payment unlocks the theme.
 */

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const SANDBOX_PURPOSE = 'emporium:themes.purchases.sandbox';

export const PurchaseBody = z.strictObject({ store_id: IdString('store') });
export const VerifyPurchaseBody = z.strictObject({
  store_id: IdString('store'),
  purchase_id: IdString('purchase'),
  provider_payment_id: z.string().min(1).max(200),
  signature: z.string().min(1).max(200),
});
export type VerifyPurchaseBody = z.infer<typeof VerifyPurchaseBody>;
export const SimulatePurchaseBody = z.strictObject({ store_id: IdString('store'), purchase_id: IdString('purchase') });

export type ThemePurchaseView = {
  id: string;
  slug: string;
  package_id: string;
  store_id: string;
  amount: number;
  currency: string;
  status: 'pending' | 'paid';
  provider: ThemePurchaseDocument['provider'];
  provider_order_id: string;
  provider_payment_id: string | null;
  created_at: string;
  paid_at: string | null;
};

const present = (p: ThemePurchaseDocument): ThemePurchaseView => ({
  id: p._id.toHexString(),
  slug: p.slug,
  package_id: p.package_id.toHexString(),
  store_id: p.store_id.toHexString(),
  amount: p.amount,
  currency: p.currency,
  // Only sessions whose provider order is made are answered (madeSessions): never `creating`.
  status: p.status === 'paid' ? 'paid' : 'pending',
  provider: p.provider,
  provider_order_id: p.provider_order_id,
  provider_payment_id: p.provider_payment_id,
  created_at: p.created_at.toISOString(),
  paid_at: p.paid_at ? p.paid_at.toISOString() : null,
});

/** The platform's sandbox key secrets: the current SECRETS_KEYS key's signs, every configured key's verify (so a rotation does not strand a pending purchase). */
const sandboxSecrets = (platform: Platform): string[] =>
  platform.config.secretsKeys.map(({ key }) => Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), SANDBOX_PURPOSE, 32)).toString('hex'));

function platformGateway(platform: Platform) {
  const gateway = GATEWAYS.sandbox;
  if (!gateway || platform.config.env === 'production') {
    throw new PlatformError(
      'not_found',
      'provider_not_supported',
      'Theme purchases are not available: the platform has no payment provider for them in this environment',
    );
  }
  return gateway;
}

/** A published paid marketplace theme by slug, with its price from the published version (what install checks). */
async function paidTheme(platform: Platform, slug: string) {
  const pkg =
    SLUG.test(slug) && slug.length <= 100
      ? await themePackages(platform.db).findOne({ slug, status: 'active', visibility: 'marketplace', published_version_id: { $ne: null } })
      : null;
  const version = pkg ? await themeVersions(platform.db).findOne({ _id: pkg.published_version_id!, status: 'published' }) : null;
  if (!pkg || !version) throw notFound('Theme');
  const { pricing_type, price, currency } = version.bundle.package;
  if (pricing_type === 'free') throw new PlatformError('conflict', 'theme_is_free', `${pkg.slug} is free: install it without a purchase`);
  return { pkg, price, currency };
}

const alreadyPurchased = (slug: string) => new PlatformError('conflict', 'already_purchased', `This store has already purchased ${slug}: install it`);

/**
 * `POST /v1/themes/:slug/purchase`: a pending purchase of a paid theme for a store, with the
 * provider order to pay. The amount is the theme's price, never the client's. One per store and
 * theme: a pending one is answered again (`created: false`); a paid one is refused.
 */
export async function createPurchase(
  platform: Platform,
  merchant: MerchantPrincipal,
  store: ScopedStore,
  slug: string,
): Promise<{ purchase: ThemePurchaseView; created: boolean }> {
  const gateway = platformGateway(platform);
  const { pkg, price, currency } = await paidTheme(platform, slug);
  const key = { store_id: new ObjectId(store.id), package_id: pkg._id };
  const { doc, created } = await openPaymentSession(platform, themePurchaseSessions, {
    key,
    fields: {
      ...key,
      slug: pkg.slug,
      merchant_id: new ObjectId(merchant.merchantId),
      amount: price,
      currency,
      provider: 'sandbox',
      created_at: platform.clock.now(),
      paid_at: null,
    },
    gateway,
    credentials: {},
    charge: { amount: Math.round(price * 100), currency },
  });
  if (doc.status === 'paid') throw alreadyPurchased(pkg.slug);
  if (created) platform.log.info({ event: 'themes.purchase_created', store_id: store.id, purchase_id: doc._id.toHexString(), slug: pkg.slug });
  return { purchase: present(doc), created };
}

async function storePurchase(platform: Platform, store: ScopedStore, slug: string, purchaseId: string): Promise<ThemePurchaseDocument> {
  const purchase = await themePurchases(platform.db).findOne(
    madeSessions(themePurchaseSessions, { _id: new ObjectId(purchaseId), store_id: new ObjectId(store.id), slug }),
  );
  if (!purchase) throw notFound('Purchase');
  return purchase;
}

/**
 * `POST /v1/themes/:slug/purchase/verify`: the provider's signed payment (HMAC-SHA256 over
 * `<provider order id>|<payment id>`) checked in constant time against the platform's key secret,
 * then recorded once: one conditional write pending → paid, carrying `theme.purchased`. A wrong
 * signature changes nothing; presenting the recorded payment again answers the paid purchase and
 * changes nothing; another payment for a paid purchase is refused.
 */
export async function verifyPurchase(platform: Platform, store: ScopedStore, slug: string, input: VerifyPurchaseBody): Promise<ThemePurchaseView> {
  const gateway = platformGateway(platform);
  const purchase = await storePurchase(platform, store, slug, input.purchase_id);
  const signed = { provider_order_id: purchase.provider_order_id, provider_payment_id: input.provider_payment_id, signature: input.signature };
  requireSignedPayment(
    platform,
    sandboxSecrets(platform).some((key_secret) => gateway.verify({ key_secret }, signed)),
    { store_id: store.id, purchase_id: input.purchase_id },
  );
  const replay = (p: ThemePurchaseDocument) => {
    if (p.provider_payment_id !== input.provider_payment_id) throw alreadyPurchased(slug);
    return present(p);
  };
  if (purchase.status === 'paid') return replay(purchase);
  const now = platform.clock.now();
  const paid: ThemePurchaseDocument = { ...purchase, status: 'paid', provider_payment_id: input.provider_payment_id, paid_at: now };
  const pending = [platform.events.pending('theme.purchased', purchase.store_id, { purchase: present(paid) }, `theme.purchased:${purchase._id.toHexString()}`)];
  if (!(await recordSessionPayment(platform, themePurchaseSessions, purchase, input.provider_payment_id, now, pending))) {
    return replay(await storePurchase(platform, store, slug, input.purchase_id));
  }
  await platform.events.settle(themePurchases(platform.db), purchase._id, pending);
  platform.log.info({ event: 'themes.purchase_paid', store_id: store.id, purchase_id: purchase._id.toHexString(), slug });
  return present(paid);
}

/**
 * The sandbox's hosted checkout, simulated (as the storefront's `payments/sandbox/simulate`): a
 * successful payment of a pending purchase's provider order as the provider would report it.
 */
export async function simulatePurchasePayment(platform: Platform, store: ScopedStore, slug: string, purchaseId: string) {
  platformGateway(platform);
  const purchase = await storePurchase(platform, store, slug, purchaseId);
  return { purchase_id: purchase._id.toHexString(), ...sandboxPayment(sandboxSecrets(platform)[0]!, purchase.provider_order_id) };
}

/** Whether a store has paid for a package (any of its versions): what installing a paid theme needs. */
export async function hasPaidPurchase(platform: Platform, storeId: string, packageId: ObjectId): Promise<boolean> {
  return (await themePurchases(platform.db).countDocuments({ store_id: new ObjectId(storeId), package_id: packageId, status: 'paid' }, { limit: 1 })) > 0;
}

/** Whether a store has paid for a package by its id (the merchant admin's theme page: Install, or Buy). */
export const isThemePurchased = (platform: Platform, storeId: string, packageId: string): Promise<boolean> =>
  hasPaidPurchase(platform, storeId, new ObjectId(packageId));
