import type { PostalAddress } from '../postal-address.js';

/**
 * The objects a notification's Liquid sees (absent values are nil, never `""`, which Liquid counts as true) (docs/notifications.md, Objects), built from what the
 * event carries (the order as the API presents it) and the store. Only these plain values reach
 * a template: nothing of another store, no document, no function.
 */

/** What a notification reads of an order: the fields of the orders domain's `Order` view it uses. */
export type OrderFacts = {
  id: string;
  number: number;
  email: string | null;
  currency: string;
  customer_id: string | null;
  line_items: { id: string; title: string; variant_title: string | null; sku: string | null; quantity: number; unit_price: number; total: number }[];
  shipping_line: { title: string } | null;
  shipping_address: PostalAddress | null;
  coupon: { code: string } | null;
  subtotal: number;
  discount_total: number;
  shipping_total: number;
  tax_total: number;
  total: number;
  refunded_amount: number;
  financial_status: string;
  fulfillments: {
    id: string;
    line_items: { line_item_id: string; quantity: number }[];
    tracking_company: string | null;
    tracking_number: string | null;
    tracking_url: string | null;
  }[];
  refunds: { id: string; amount: number; reason: string | null }[];
  cancel_reason?: string | null;
  cancelled_at?: string | null;
  source?: 'admin' | 'storefront';
  created_at: string;
};

export type ShopObject = { name: string; email: string | null; url: string; currency: string; logo_url: string | null };

/** An address as lines in the usual order (name, company, street, city line, country). */
export function addressLines(a: PostalAddress): string[] {
  const name = [a.first_name, a.last_name].filter(Boolean).join(' ');
  const cityLine = [a.city, a.province_code, a.zip].filter(Boolean).join(' ');
  return [name, a.company, a.address1, a.address2, cityLine, a.country_code].filter((l): l is string => !!l);
}

export function orderObject(order: OrderFacts, links: { status: string; admin: string }) {
  return {
    id: order.id,
    number: order.number,
    name: `#${order.number}`,
    email: order.email ?? '',
    created_at: order.created_at,
    financial_status: order.financial_status,
    line_items: order.line_items.map((l) => ({
      title: l.title,
      variant_title: l.variant_title || null,
      sku: l.sku || null,
      quantity: l.quantity,
      price: l.unit_price,
      line_price: l.unit_price * l.quantity,
    })),
    subtotal_price: order.subtotal,
    total_discounts: order.discount_total,
    discount_code: order.coupon?.code || null,
    shipping_price: order.shipping_total,
    shipping_method: order.shipping_line?.title || null,
    tax_price: order.tax_total,
    total_price: order.total,
    refunded_amount: order.refunded_amount,
    shipping_address: order.shipping_address ? { ...order.shipping_address, lines: addressLines(order.shipping_address) } : null,
    cancel_reason: order.cancel_reason || null,
    order_status_url: links.status,
    admin_url: links.admin,
  };
}

export function fulfillmentObject(order: OrderFacts, fulfillmentId: string | null) {
  const f = order.fulfillments.find((x) => x.id === fulfillmentId) ?? order.fulfillments.at(-1);
  if (!f) return null;
  const titles = new Map(order.line_items.map((l) => [l.id, l.title]));
  return {
    tracking_company: f.tracking_company || null,
    tracking_number: f.tracking_number || null,
    tracking_url: f.tracking_url || null,
    line_items: f.line_items.map((l) => ({ title: titles.get(l.line_item_id) ?? '', quantity: l.quantity })),
  };
}

export function refundObject(order: OrderFacts, refundId: string | null) {
  const r = order.refunds.find((x) => x.id === refundId) ?? order.refunds.at(-1);
  return { amount: r?.amount ?? 0, reason: r?.reason || null };
}

/** A made-up order for a preview when the store has none yet. */
export function sampleOrder(currency: string, now: Date): OrderFacts {
  return {
    id: '000000000000000000000000',
    number: 1001,
    email: 'shopper@example.com',
    currency,
    customer_id: null,
    line_items: [
      { id: 'l1', title: 'Sample product', variant_title: 'Large', sku: 'SAMPLE-L', quantity: 2, unit_price: 1800, total: 3600 },
      { id: 'l2', title: 'Another product', variant_title: null, sku: null, quantity: 1, unit_price: 2500, total: 2500 },
    ],
    shipping_line: { title: 'Standard' },
    shipping_address: {
      first_name: 'Sam',
      last_name: 'Shopper',
      company: null,
      address1: '1 Sample Street',
      address2: null,
      city: 'Springfield',
      province_code: 'IL',
      country_code: 'US',
      zip: '62701',
      phone: null,
    },
    coupon: { code: 'WELCOME10' },
    subtotal: 6100,
    discount_total: 610,
    shipping_total: 500,
    tax_total: 439,
    total: 6429,
    refunded_amount: 0,
    financial_status: 'paid',
    fulfillments: [
      {
        id: 'f1',
        line_items: [{ line_item_id: 'l1', quantity: 2 }],
        tracking_company: 'UPS',
        tracking_number: '1Z999AA10123456784',
        tracking_url: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
      },
    ],
    refunds: [{ id: 'r1', amount: 1800, reason: 'Damaged' }],
    cancel_reason: null,
    created_at: now.toISOString(),
  };
}
