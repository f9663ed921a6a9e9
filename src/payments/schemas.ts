import { z } from 'zod';
import { IdString } from '../ids.js';
import { PageQuery } from '../pagination.js';
import { PROVIDERS, TRANSACTION_KINDS, TRANSACTION_STATUSES, type Provider } from './models.js';
import { givesSomething } from '../http/validate.js';

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));
const Currency = z.string().refine((c) => /^[A-Z]{3}$/.test(c) && CURRENCIES.has(c), 'must be an ISO 4217 currency code such as USD');

const StripeCredentials = z.strictObject({
  secret_key: z
    .string()
    .regex(/^sk_(test|live)_[A-Za-z0-9]{10,200}$/, 'must be a Stripe secret key (sk_test_… or sk_live_…)')
    .optional(),
  webhook_secret: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/=_-]{8,200}$/, 'must be a Stripe webhook signing secret (whsec_…)')
    .nullable()
    .optional(),
});

const PaypalCredentials = z.strictObject({
  client_id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{10,200}$/, 'must be a PayPal client id')
    .optional(),
  client_secret: z
    .string()
    .regex(/^[A-Za-z0-9_-]{10,200}$/, 'must be a PayPal client secret')
    .optional(),
});

/** The sandbox provider's signing secret (docs/storefront.md, Payments): what verification's HMAC is keyed with. */
const SandboxCredentials = z.strictObject({
  key_secret: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,200}$/, 'must be 16 to 200 characters of A-Z a-z 0-9 _ -')
    .optional(),
});

const common = { enabled: z.boolean().optional(), test_mode: z.boolean().optional() };
const changesASetting = givesSomething('give at least one setting to change');

export const UpdateProviderBody = {
  stripe: z.strictObject({ ...common, credentials: StripeCredentials.optional() }).refine(...changesASetting),
  paypal: z.strictObject({ ...common, credentials: PaypalCredentials.optional() }).refine(...changesASetting),
  manual: z.strictObject({ ...common, instructions: z.string().trim().min(1).max(2000).nullable().optional() }).refine(...changesASetting),
  sandbox: z.strictObject({ ...common, credentials: SandboxCredentials.optional() }).refine(...changesASetting),
} satisfies Record<Provider, z.ZodType>;

export type UpdateProviderInput = {
  enabled?: boolean | undefined;
  test_mode?: boolean | undefined;
  credentials?: Record<string, string | null | undefined> | undefined;
  instructions?: string | null | undefined;
};

/** Which credentials each provider needs before it can be enabled. */
export const REQUIRED_CREDENTIALS: Record<Provider, string[]> = {
  stripe: ['secret_key'],
  paypal: ['client_id', 'client_secret'],
  manual: [],
  sandbox: ['key_secret'],
};

export const ProviderName = z.enum(PROVIDERS);

export const TransactionsQuery = PageQuery.extend({ order_id: IdString() }).strict();
export type TransactionsQuery = z.infer<typeof TransactionsQuery>;

export const RecordTransactionInput = z.strictObject({
  /** Chosen by the caller to record the transaction once: a second call with the same id records nothing more. */
  id: IdString().optional(),
  order_id: IdString(),
  kind: z.enum(TRANSACTION_KINDS),
  status: z.enum(TRANSACTION_STATUSES),
  amount: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  currency: Currency,
  provider: ProviderName,
  provider_reference: z.string().min(1).max(255).nullable().default(null),
});
export type RecordTransactionInput = z.input<typeof RecordTransactionInput>;
