import { NEVER, type Sources } from '../projection.js';
import type { LineItemDocument, OrderDocument } from './models.js';
import { stamps } from '../allow-list.js';

const id = (v: { toHexString(): string } | null) => (v ? v.toHexString() : null);

const presentLine = (l: LineItemDocument) => ({
  id: l._id.toHexString(),
  variant_id: id(l.variant_id),
  product_id: id(l.product_id),
  title: l.title,
  variant_title: l.variant_title,
  sku: l.sku,
  quantity: l.quantity,
  unit_price: l.unit_price,
  discount: l.discount,
  tax: l.tax,
  total: l.total,
  taxable: l.taxable,
  location_id: id(l.location_id ?? null),
  fulfilled_quantity: l.fulfilled_quantity,
  refunded_quantity: l.refunded_quantity,
});

export const presentOrder = (o: OrderDocument) => ({
  id: o._id.toHexString(),
  number: o.number,
  customer_id: id(o.customer_id),
  email: o.email,
  currency: o.currency,
  line_items: o.line_items.map(presentLine),
  shipping_line: o.shipping_line
    ? {
        title: o.shipping_line.title,
        code: o.shipping_line.code ?? null,
        price: o.shipping_line.price,
        discount: o.shipping_line.discount,
        tax: o.shipping_line.tax,
      }
    : null,
  shipping_address: o.shipping_address,
  billing_address: o.billing_address,
  coupon: o.coupon ? { code: o.coupon.code, discount: o.coupon.discount } : null,
  tax_rate: o.tax_rate,
  subtotal: o.subtotal,
  discount_total: o.discount_total,
  shipping_total: o.shipping_total,
  tax_total: o.tax_total,
  total: o.total,
  paid_amount: o.paid_amount,
  refunded_amount: o.refunded_amount,
  financial_status: o.financial_status,
  fulfillment_status: o.fulfillment_status,
  fulfillments: o.fulfillments.map((f) => ({
    id: f._id.toHexString(),
    location_id: f.location_id.toHexString(),
    line_items: f.line_items.map((l) => ({ line_item_id: l.line_item_id.toHexString(), quantity: l.quantity })),
    tracking_company: f.tracking_company,
    tracking_number: f.tracking_number,
    tracking_url: f.tracking_url,
    created_at: f.created_at.toISOString(),
  })),
  refunds: o.refunds.map((r) => ({
    id: r._id.toHexString(),
    amount: r.amount,
    line_items: r.line_items.map((l) => ({ line_item_id: l.line_item_id.toHexString(), quantity: l.quantity })),
    reason: r.reason,
    restock: r.restock,
    location_id: id(r.location_id),
    created_at: r.created_at.toISOString(),
  })),
  cancelled_at: o.cancelled_at ? o.cancelled_at.toISOString() : null,
  cancel_reason: o.cancel_reason ?? null,
  note: o.note,
  source: o.source,
  payment_methods: o.payment_methods ?? null,
  ...stamps(o),
});
export type OrderView = ReturnType<typeof presentOrder>;

/** What each field of an order's view is presented from, and what an order read in part lacks (src/projection.ts). */
export const ORDER_SOURCES: Sources<OrderView, OrderDocument> = {
  id: [],
  number: ['number'],
  customer_id: ['customer_id'],
  email: ['email'],
  currency: ['currency'],
  line_items: ['line_items'],
  shipping_line: ['shipping_line'],
  shipping_address: ['shipping_address'],
  billing_address: ['billing_address'],
  coupon: ['coupon'],
  tax_rate: ['tax_rate'],
  subtotal: ['subtotal'],
  discount_total: ['discount_total'],
  shipping_total: ['shipping_total'],
  tax_total: ['tax_total'],
  total: ['total'],
  paid_amount: ['paid_amount'],
  refunded_amount: ['refunded_amount'],
  financial_status: ['financial_status'],
  fulfillment_status: ['fulfillment_status'],
  fulfillments: ['fulfillments'],
  refunds: ['refunds'],
  cancelled_at: ['cancelled_at'],
  cancel_reason: ['cancel_reason'],
  note: ['note'],
  source: ['source'],
  payment_methods: ['payment_methods'],
  created_at: ['created_at'],
  updated_at: ['updated_at'],
};
export const UNREAD_ORDER: Partial<OrderDocument> = { line_items: [], fulfillments: [], refunds: [], created_at: NEVER, updated_at: NEVER };

/** An order as its customer sees it on the storefront: the merchant's internal note left out. */
export const presentCustomerOrder = (o: OrderDocument) => {
  const { note: _note, ...view } = presentOrder(o);
  return view;
};
export type CustomerOrderView = ReturnType<typeof presentCustomerOrder>;
