import type { PaymentTransactionDocument, Provider, ProviderSettingsDocument } from './models.js';

export type ProviderSettingsView = {
  provider: Provider;
  enabled: boolean;
  test_mode: boolean;
  credentials_set: boolean;
  credential_hints: Record<string, string>;
  /** Only for `manual`. */
  instructions?: string | null;
  updated_at: string | null;
};

/** Settings as the API shows them: never a credential, only whether they are complete and their last four characters. */
export function presentProviderSettings(provider: Provider, doc: ProviderSettingsDocument | null, credentialsSet: boolean): ProviderSettingsView {
  return {
    provider,
    enabled: doc?.enabled ?? false,
    test_mode: doc?.test_mode ?? true,
    credentials_set: credentialsSet,
    credential_hints: { ...(doc?.credential_hints ?? {}) },
    ...(provider === 'manual' ? { instructions: doc?.instructions ?? null } : {}),
    updated_at: doc ? doc.updated_at.toISOString() : null,
  };
}

export type PaymentTransactionView = {
  id: string;
  order_id: string;
  kind: string;
  status: string;
  amount: number;
  currency: string;
  provider: string;
  provider_reference: string | null;
  created_at: string;
};

export const presentTransaction = (t: PaymentTransactionDocument): PaymentTransactionView => ({
  id: t._id.toHexString(),
  order_id: t.order_id.toHexString(),
  kind: t.kind,
  status: t.status,
  amount: t.amount,
  currency: t.currency,
  provider: t.provider,
  provider_reference: t.provider_reference,
  created_at: t.created_at.toISOString(),
});
