import { ObjectId } from 'mongodb';
import { isDuplicateKeyError } from '../db.js';
import { PlatformError, invalidInput, notFound } from '../errors.js';
import { carried, carrying } from '../events/index.js';
import { afterCursor, findPage } from '../pagination.js';
import type { Platform } from '../platform.js';
import { decryptSecret, encryptSecret } from '../secrets/index.js';
import { presentProviderSettings, presentTransaction, type PaymentTransactionView, type ProviderSettingsView } from './present.js';
import { ProviderName, REQUIRED_CREDENTIALS, UpdateProviderBody, type TransactionsQuery, type UpdateProviderInput } from './schemas.js';
import { PROVIDERS, paymentTransactions, providerSettings, type Provider, type ProviderSettingsDocument } from './models.js';

const CREDENTIALS_PURPOSE = 'payments.credentials';
const UPDATE_ATTEMPTS = 3;

/** Complete when every credential the provider needs is stored (manual needs none, so it never has "credentials set"). */
const credentialsComplete = (provider: Provider, names: string[]) =>
  REQUIRED_CREDENTIALS[provider].length > 0 && REQUIRED_CREDENTIALS[provider].every((n) => names.includes(n));

const present = (provider: Provider, doc: ProviderSettingsDocument | null) =>
  presentProviderSettings(provider, doc, credentialsComplete(provider, Object.keys(doc?.credential_hints ?? {})));

/** Every provider's settings, as one page: there are only a few. */
export async function listProviderSettings(platform: Platform, storeId: string): Promise<{ items: ProviderSettingsView[]; nextCursor: null }> {
  const docs = await providerSettings(platform.db)
    .find({ store_id: new ObjectId(storeId) })
    .toArray();
  return { items: PROVIDERS.map((p) => present(p, docs.find((d) => d.provider === p) ?? null)), nextCursor: null };
}

/**
 * Change a provider's settings. `name` is as the caller gave it (not found unless one of
 * PROVIDERS), and `input` is checked here against that provider's schema: each provider takes
 * its own settings.
 */
export async function updateProviderSettings(platform: Platform, storeId: string, name: string, input: unknown): Promise<ProviderSettingsView> {
  const provider = ProviderName.safeParse(name);
  if (!provider.success) throw notFound('Payment provider');
  const parsed = UpdateProviderBody[provider.data].safeParse(input);
  if (!parsed.success) throw invalidInput(parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })));
  return saveProviderSettings(platform, storeId, provider.data, parsed.data);
}

/**
 * Fields left out keep their stored values (credentials too, one by one); a credential set to
 * null is removed. Credentials are stored encrypted and never returned. Optimistic: the write
 * names the version it read, and a lost race reads again.
 */
async function saveProviderSettings(platform: Platform, storeId: string, provider: Provider, input: UpdateProviderInput): Promise<ProviderSettingsView> {
  const storeObjectId = new ObjectId(storeId);
  for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
    const doc = await providerSettings(platform.db).findOne({ store_id: storeObjectId, provider });
    const credentials = new Map<string, string>(
      doc?.credentials_encrypted
        ? Object.entries(JSON.parse(decryptSecret(platform.config.secretsKeys, CREDENTIALS_PURPOSE, doc.credentials_encrypted)) as Record<string, string>)
        : [],
    );
    for (const [name, value] of Object.entries(input.credentials ?? {})) {
      if (value === null) credentials.delete(name);
      else if (value !== undefined) credentials.set(name, value);
    }
    const enabled = input.enabled ?? doc?.enabled ?? false;
    const testMode = input.test_mode ?? doc?.test_mode ?? true;
    const missing = REQUIRED_CREDENTIALS[provider].filter((n) => !credentials.get(n));
    if (enabled && missing.length > 0) {
      throw invalidInput(
        missing.map((n) => ({ path: `credentials.${n}`, message: `is required to enable ${provider}` })),
        'credentials_required',
        `${provider} cannot be enabled until its credentials are set`,
      );
    }
    const secretKey = credentials.get('secret_key');
    if (provider === 'stripe' && secretKey && secretKey.startsWith('sk_test_') !== testMode) {
      throw invalidInput([
        { path: 'test_mode', message: `must be ${!testMode} for ${secretKey.startsWith('sk_test_') ? 'a sk_test_' : 'a sk_live_'} secret key` },
      ]);
    }
    const now = platform.clock.now();
    const fields = {
      enabled,
      test_mode: testMode,
      credentials_encrypted:
        input.credentials === undefined
          ? (doc?.credentials_encrypted ?? null)
          : credentials.size > 0
            ? encryptSecret(platform.config.secretsKeys, CREDENTIALS_PURPOSE, JSON.stringify(Object.fromEntries(credentials)))
            : null,
      credential_hints: Object.fromEntries([...credentials].map(([n, v]) => [n, v.slice(-4)])),
      instructions: input.instructions !== undefined ? input.instructions : (doc?.instructions ?? null),
      updated_at: now,
    };
    // The write is conditional on what was read (an update on its version, a first save on the
    // unique index), so the settings as they become are known now: the event travels with the write.
    const saved: ProviderSettingsDocument = doc
      ? { ...doc, ...fields, version: doc.version + 1 }
      : { _id: new ObjectId(), store_id: storeObjectId, provider, ...fields, version: 1, created_at: now };
    const view = present(provider, saved);
    const changed = Object.entries(input).flatMap(([k, v]) => (v === undefined ? [] : [k]));
    const pending = [
      platform.events.pending(
        'payment_provider.updated',
        storeObjectId,
        { payment_provider: view, changed },
        `payment_provider.updated:${saved._id.toHexString()}:v${saved.version}`,
      ),
    ];
    let written: boolean;
    if (doc) {
      const result = await providerSettings(platform.db).updateOne(
        { _id: doc._id, store_id: storeObjectId, version: doc.version },
        carrying({ $set: fields, $inc: { version: 1 } }, pending),
      );
      written = result.matchedCount === 1;
    } else {
      try {
        await providerSettings(platform.db).insertOne({ ...saved, ...carried(pending) });
        written = true;
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
        written = false;
      }
    }
    if (!written) continue; // someone else changed it between our read and write: start again from theirs
    await platform.events.settle(providerSettings(platform.db), saved._id, pending);
    platform.log.info({ event: 'payments.provider_updated', store_id: storeId, provider, changed, version: saved.version });
    return view;
  }
  throw new PlatformError('conflict', 'concurrent_update', 'The settings were changed by another request; try again');
}

/** An order's transactions in this store, oldest first. */
export async function listTransactions(
  platform: Platform,
  storeId: string,
  query: TransactionsQuery,
): Promise<{ items: PaymentTransactionView[]; nextCursor: string | null }> {
  const { items, nextCursor } = await findPage(
    paymentTransactions(platform.db),
    { store_id: new ObjectId(storeId), order_id: new ObjectId(query.order_id), ...afterCursor(query) },
    query.limit,
  );
  return { items: items.map(presentTransaction), nextCursor };
}

/** What the storefront calls each provider when it offers it at checkout. */
const PROVIDER_NAMES: Record<Provider, string> = { stripe: 'Card (Stripe)', paypal: 'PayPal', manual: 'Manual payment', sandbox: 'Sandbox' };

/**
 * The payment methods a storefront checkout offers before any Checkout Function advised
 * (docs/storefront.md, Checkout options): the store's enabled providers, in the platform's order.
 */
export async function enabledPaymentMethods(platform: Pick<Platform, 'db'>, storeId: string): Promise<{ provider: Provider; name: string }[]> {
  const enabled = await providerSettings(platform.db)
    .find({ store_id: new ObjectId(storeId), enabled: true }, { projection: { provider: 1 } })
    .toArray();
  const on = new Set(enabled.map((d) => d.provider));
  return PROVIDERS.filter((p) => on.has(p)).map((provider) => ({ provider, name: PROVIDER_NAMES[provider] }));
}

/** The transactions of each of these orders of the store (GraphQL's loader), oldest first. */
export async function transactionsOfOrders(
  platform: Pick<Platform, 'db'>,
  storeId: string,
  orderIds: readonly string[],
): Promise<Map<string, PaymentTransactionView[]>> {
  const ids = orderIds.filter((id) => ObjectId.isValid(id) && id.length === 24).map((id) => new ObjectId(id));
  const out = new Map(orderIds.map((id) => [id, [] as PaymentTransactionView[]]));
  if (ids.length === 0) return out;
  const docs = await paymentTransactions(platform.db)
    .find({ store_id: new ObjectId(storeId), order_id: { $in: ids } })
    .sort({ _id: 1 })
    .toArray();
  for (const t of docs) out.get(t.order_id.toHexString())?.push(presentTransaction(t));
  return out;
}
