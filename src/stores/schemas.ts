import { z } from 'zod';

/**
 * Names the platform keeps for itself, its own hosts and words a shopper could mistake for
 * the platform. docs/stores.md lists them.
 */
export const RESERVED_SUBDOMAINS = new Set([
  'www',
  'api',
  'admin',
  'app',
  'apps',
  'app-store',
  'auth',
  'login',
  'signin',
  'signup',
  'account',
  'accounts',
  'billing',
  'blog',
  'cdn',
  'assets',
  'static',
  'media',
  'files',
  'images',
  'img',
  'mail',
  'email',
  'smtp',
  'help',
  'support',
  'status',
  'docs',
  'developer',
  'developers',
  'partners',
  'partner',
  'themes',
  'theme',
  'storefront',
  'lookup',
  'customer',
  'customers',
  'cart',
  'checkout',
  'shop',
  'store',
  'stores',
  'graphql',
  'webhooks',
  'oauth',
  'internal',
  'ops',
  'operations',
  'dev',
  'staging',
  'test',
  'sandbox',
  'localhost',
  'emporium',
  'security',
  'root',
  'system',
]);

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

export const Subdomain = z
  .string()
  .min(3, 'must be at least 3 characters')
  .max(63, 'must be at most 63 characters')
  .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/, 'must be a lowercase DNS label: a-z, 0-9 and inner hyphens')
  .refine((s) => !/^..--/.test(s), 'must not have hyphens in the third and fourth places (reserved for IDN labels)')
  .refine((s) => !RESERVED_SUBDOMAINS.has(s), 'is reserved');

export const Currency = z.string().refine((c) => /^[A-Z]{3}$/.test(c) && CURRENCIES.has(c), 'must be an ISO 4217 currency code such as USD');

const StoreName = z.string().trim().min(1).max(120);

/** A locale code (BCP 47: a language, then optional region or script): `en`, `fr`, `es-MX`, `zh-Hant`; canonicalised (`en-us` → `en-US`). */
export const Locale = z
  .string()
  .max(35)
  .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a locale code such as en, fr or es-MX')
  .transform((l, ctx) => {
    try {
      return Intl.getCanonicalLocales(l)[0]!;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a locale code such as en, fr or es-MX' });
      return z.NEVER;
    }
  });

/** Who the store's emails to its customers come from: a display name and an address (docs/stores.md, The store object). */
export const EmailSender = z.strictObject({
  name: z.string().trim().min(1).max(120),
  email: z
    .string()
    .trim()
    .max(254)
    .toLowerCase()
    .pipe(z.email({ message: 'must be an email address' })),
});

export const CreateStoreBody = z.strictObject({ name: StoreName, subdomain: Subdomain, currency: Currency.default('USD'), locale: Locale.default('en') });
export type CreateStoreBody = z.infer<typeof CreateStoreBody>;

export const UpdateStoreBody = z
  .strictObject({
    name: StoreName.optional(),
    currency: Currency.optional(),
    locale: Locale.optional(),
    email_sender: EmailSender.nullable().optional(),
    subdomain: z.unknown().optional(),
  })
  .refine((b) => b.subdomain === undefined, { path: ['subdomain'], message: 'cannot be changed: storefront addresses and app installations depend on it' })
  .refine((b) => b.name !== undefined || b.currency !== undefined || b.locale !== undefined || b.email_sender !== undefined, {
    message: 'give at least one of name, currency, locale or email_sender',
  });
export type UpdateStoreBody = z.infer<typeof UpdateStoreBody>;
