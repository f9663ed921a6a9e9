import { z } from 'zod';
import { IdString } from '../ids.js';
import { PageQuery } from '../pagination.js';
import { PostalAddress } from '../postal-address.js';

/**
 * The largest amount an order holds or computes, in minor units (1 000 000 000.00 in a
 * two-decimal currency): a price, a line's unit price × quantity, the subtotal, the total, a
 * refund. Every sum and product of order arithmetic below it is an exact integer in a double.
 */
export const MAX_ORDER_AMOUNT = 100_000_000_000;

const Money = z.number().int('must be an integer amount in minor units').min(0).max(MAX_ORDER_AMOUNT);
const Text = (max: number) => z.string().trim().min(1).max(max);
const Quantity = z.number().int('must be a whole number').min(1).max(100_000);

const VariantLine = z.strictObject({ variant_id: IdString('variant'), quantity: Quantity });
/** A line not from the catalog (a service, a custom item): the merchant names the price. */
const CustomLine = z.strictObject({
  title: Text(255),
  price: Money,
  quantity: Quantity,
  sku: Text(255).nullable().default(null),
  taxable: z.boolean().default(true),
});

export const CreateOrderBody = z.strictObject({
  customer_id: IdString('customer').optional(),
  email: z
    .string()
    .trim()
    .max(254)
    .transform((s) => s.toLowerCase())
    .pipe(z.email({ message: 'must be an email address' }))
    .optional(),
  line_items: z
    .array(z.union([VariantLine, CustomLine], { error: 'must be { variant_id, quantity } or { title, price, quantity }' }))
    .min(1)
    .max(250),
  coupon_code: z.string().trim().min(1).max(100).optional(),
  shipping_line: z.strictObject({ title: Text(255), code: Text(60).optional(), price: Money }).optional(),
  shipping_address: PostalAddress.optional(),
  billing_address: PostalAddress.optional(),
  /** Manual orders: `paid` when the merchant has collected the money (cash, bank transfer). */
  financial_status: z.enum(['pending', 'paid']).default('pending'),
  /** Where the tracked lines commit their units; default: the first active location with enough. */
  location_id: IdString('location').optional(),
  note: z.string().max(5000).optional(),
});
export type CreateOrderBody = z.infer<typeof CreateOrderBody>;

const LineQuantity = z.strictObject({ line_item_id: IdString('line item'), quantity: Quantity });

export const FulfillBody = z.strictObject({
  location_id: IdString('location'),
  line_items: z.array(LineQuantity).min(1).max(250),
  tracking_company: Text(255).optional(),
  tracking_number: Text(255).optional(),
  tracking_url: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .optional(),
});
export type FulfillBody = z.infer<typeof FulfillBody>;

export const RefundBody = z
  .strictObject({
    amount: Money.refine((a) => a > 0, 'must be more than 0').optional(),
    line_items: z.array(LineQuantity).min(1).max(250).optional(),
    reason: Text(500).optional(),
    restock: z.boolean().default(false),
    location_id: IdString('location').optional(),
  })
  .refine((b) => b.amount !== undefined || b.line_items !== undefined, { message: 'give an amount, line_items, or both' })
  .refine((b) => !b.restock || (b.line_items !== undefined && b.location_id !== undefined), {
    path: ['restock'],
    message: 'restocking needs line_items and a location_id',
  });
export type RefundBody = z.infer<typeof RefundBody>;

export const CancelBody = z.strictObject({
  reason: z.enum(['customer', 'declined', 'fraud', 'inventory', 'staff', 'other']).default('other'),
});
export type CancelBody = z.infer<typeof CancelBody>;

const FULFILLMENT_STATUSES = ['unfulfilled', 'partial', 'fulfilled'] as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A moment (ISO 8601 with its offset) or a UTC day (`2026-05-04`). */
const Moment = z.union([z.iso.datetime({ offset: true }), z.iso.date()], { error: 'must be a date (2026-05-04) or an ISO 8601 time' });
const dayStart = (v: string) => Date.parse(DAY.test(v) ? `${v}T00:00:00Z` : v);

/**
 * The orders list's filters (docs/orders.md, List orders). `status`: open (not cancelled) or
 * cancelled; `fulfillment_status` one state or several, comma-separated (`unfulfilled,partial`:
 * the orders to fulfil); `created_at_min`/`created_at_max` a moment or a UTC day (a day as `max`
 * is the whole day); `q` an order number (`1001`, `#1001`) or a customer's email (or its
 * beginning); `order` oldest (the default) or newest first.
 */
export const ListOrdersQuery = PageQuery.extend({
  status: z.enum(['open', 'cancelled']).optional(),
  financial_status: z.enum(['pending', 'authorized', 'paid', 'partially_refunded', 'refunded', 'voided']).optional(),
  fulfillment_status: z
    .string()
    .max(60)
    .transform((v) => [...new Set(v.split(','))])
    .pipe(z.array(z.enum(FULFILLMENT_STATUSES, { error: `must be ${FULFILLMENT_STATUSES.join(', ')}, or several of them comma-separated` })))
    .optional(),
  customer_id: IdString('customer').optional(),
  created_at_min: Moment.transform((v) => new Date(dayStart(v))).optional(),
  /** As an exclusive bound: a day's next midnight, a moment's next millisecond. */
  created_at_max: Moment.transform((v) => new Date(dayStart(v) + (DAY.test(v) ? 86_400_000 : 1))).optional(),
  q: z.string().trim().min(1).max(254).optional(),
  order: z.enum(['oldest', 'newest']).default('oldest'),
}).strict();
export type ListOrdersQuery = z.infer<typeof ListOrdersQuery>;
