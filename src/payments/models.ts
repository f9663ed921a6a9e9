import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../db.js';
import type { CarriesEvents } from '../events/index.js';

export const PAYMENT_PROVIDERS = 'payment_providers';
export const PAYMENT_TRANSACTIONS = 'payment_transactions';

export const PROVIDERS = ['stripe', 'paypal', 'manual', 'sandbox'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** One store's settings for one provider; absent until the merchant first saves them. */
export type ProviderSettingsDocument = {
  _id: ObjectId;
  store_id: ObjectId;
  provider: Provider;
  enabled: boolean;
  test_mode: boolean;
  /** encryptSecret('payments.credentials', JSON of the credentials), or null when none are stored. */
  credentials_encrypted: string | null;
  /** Last four characters of each stored credential, to recognise them by. */
  credential_hints: Record<string, string>;
  instructions: string | null;
  version: number;
  created_at: Date;
  updated_at: Date;
} & CarriesEvents;

export const TRANSACTION_KINDS = ['authorization', 'capture', 'sale', 'refund', 'void'] as const;
export const TRANSACTION_STATUSES = ['pending', 'success', 'failure'] as const;

export type PaymentTransactionDocument = {
  _id: ObjectId;
  store_id: ObjectId;
  order_id: ObjectId;
  kind: (typeof TRANSACTION_KINDS)[number];
  status: (typeof TRANSACTION_STATUSES)[number];
  /** Integer minor units of `currency`. */
  amount: number;
  currency: string;
  provider: Provider;
  provider_reference: string | null;
  created_at: Date;
};

export const paymentIndexes: IndexDeclaration[] = [
  { collection: PAYMENT_PROVIDERS, indexes: [{ key: { store_id: 1, provider: 1 }, name: 'store_id_provider_unique', unique: true }] },
  { collection: PAYMENT_TRANSACTIONS, indexes: [{ key: { store_id: 1, order_id: 1, _id: 1 }, name: 'store_id_order_id_id' }] },
];

export const providerSettings = (db: Db) => db.collection<ProviderSettingsDocument>(PAYMENT_PROVIDERS);
export const paymentTransactions = (db: Db) => db.collection<PaymentTransactionDocument>(PAYMENT_TRANSACTIONS);
