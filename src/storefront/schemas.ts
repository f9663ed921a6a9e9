import { z } from 'zod';
import { CountryCode, PostalAddress, SubdivisionCode } from '../postal-address.js';
import { ShippingCode } from '../shipping/index.js';
import { IdString } from '../ids.js';
import { KeysetCursorParam, DEFAULT_LIMIT, MAX_LIMIT, PageQuery } from '../pagination.js';

/** The header a cart's token travels in (docs/storefront.md, Carts). */
export const CART_TOKEN_HEADER = 'X-Cart-Token';
export const CART_TOKEN_PREFIX = 'emp_ct';
/** The payment secret a checkout answers, the proof storefront payments ask for (docs/storefront.md, Payments). */
export const PAYMENT_SECRET_PREFIX = 'emp_ps';
export const MAX_CART_LINES = 100;
export const MAX_LINE_QUANTITY = 100;

/** `?subdomain=` or `?host=`, exactly one. */
export const LookupQuery = z
  .strictObject({ subdomain: z.string().min(1).max(63).optional(), host: z.string().min(1).max(255).optional() })
  .refine((q) => (q.subdomain === undefined) !== (q.host === undefined), 'give exactly one of subdomain and host');
export type LookupQuery = z.infer<typeof LookupQuery>;

/** Sorts a shopper may ask for (the admin list's, but not by last update). */
export const STOREFRONT_SORTS = ['created_at', '-created_at', 'title', '-title'] as const;

export const ListPublicProductsQuery = z.strictObject({
  q: z.string().trim().min(1).max(255).optional(),
  sort: z.enum(STOREFRONT_SORTS).default('created_at'),
  limit: z.coerce.number().int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT),
  cursor: KeysetCursorParam.optional(),
});
export type ListPublicProductsQuery = z.infer<typeof ListPublicProductsQuery>;

export const ListPublicCollectionsQuery = PageQuery.strict();

const Line = z.strictObject({
  variant_id: IdString('variant'),
  quantity: z.number().int('must be a whole number').min(0).max(MAX_LINE_QUANTITY, `must be at most ${MAX_LINE_QUANTITY}`),
});
const Lines = z
  .array(Line)
  .max(MAX_CART_LINES)
  .refine((lines) => new Set(lines.map((l) => l.variant_id)).size === lines.length, 'names a variant twice');
const CouponCode = z.string().trim().min(1).max(100).nullable();

/** POST …/cart: optionally the first lines and a coupon code. Never a price. */
export const CreateCartBody = z.strictObject({ lines: Lines.optional(), coupon_code: CouponCode.optional() });
export type CreateCartBody = z.infer<typeof CreateCartBody>;

/** PATCH …/cart: set lines (quantity 0 removes) and/or the coupon code, on the version the client read. */
export const UpdateCartBody = z
  .strictObject({ version: z.number().int().min(1), lines: Lines.optional(), coupon_code: CouponCode.optional() })
  .refine((b) => b.lines !== undefined || b.coupon_code !== undefined, 'give lines or coupon_code');
export type UpdateCartBody = z.infer<typeof UpdateCartBody>;

export type CartChanges = { lines?: { variant_id: string; quantity: number }[] | undefined; coupon_code?: string | null | undefined };

/** A checkout: who to send it to and where; everything priced comes from the cart and the catalog. */
export const CheckoutBody = z.strictObject({
  email: z
    .string()
    .trim()
    .max(254)
    .transform((e) => e.toLowerCase())
    .pipe(z.email({ message: 'must be an email address' })),
  shipping_address: PostalAddress.optional(),
  billing_address: PostalAddress.optional(),
  note: z.string().max(2000).optional(),
  /** The code of one of the shipping options the checkout offers (GET …/cart/checkout-options): required when the store ships. */
  shipping_option: ShippingCode.optional(),
});
export type CheckoutBody = z.infer<typeof CheckoutBody>;

/** GET …/cart/checkout-options: where the cart would ship to (shipping options need a country). */
export const CheckoutOptionsQuery = z
  .strictObject({ country_code: CountryCode.optional(), province_code: SubdivisionCode.optional() })
  .refine((q) => q.province_code === undefined || q.country_code !== undefined, { path: ['province_code'], message: 'needs country_code' });
export type CheckoutOptionsQuery = z.infer<typeof CheckoutOptionsQuery>;
