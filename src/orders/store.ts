import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../db.js';

export const ORDERS = 'orders';
export const ORDER_COUNTERS = 'order_counters';

export type FinancialStatus = 'pending' | 'authorized' | 'paid' | 'partially_refunded' | 'refunded' | 'voided';
export type FulfillmentStatus = 'unfulfilled' | 'partial' | 'fulfilled';

export type Address = {
  first_name: string | null;
  last_name: string | null;
  company: string | null;
  address1: string;
  address2: string | null;
  city: string;
  province_code: string | null;
  country_code: string;
  zip: string | null;
  phone: string | null;
};

/** A line as priced when the order was placed: later catalog changes do not touch it. */
export type LineItemDocument = {
  _id: ObjectId;
  variant_id: ObjectId | null;
  product_id: ObjectId | null;
  title: string;
  variant_title: string | null;
  sku: string | null;
  quantity: number;
  unit_price: number;
  /** Share of the order's subtotal discount. */
  discount: number;
  tax: number;
  /** quantity × unit_price − discount + tax */
  total: number;
  taxable: boolean;
  inventory_tracked: boolean;
  fulfilled_quantity: number;
  refunded_quantity: number;
};

export type FulfillmentDocument = {
  _id: ObjectId;
  location_id: ObjectId;
  line_items: { line_item_id: ObjectId; quantity: number }[];
  tracking_company: string | null;
  tracking_number: string | null;
  tracking_url: string | null;
  created_at: Date;
};

export type RefundDocument = {
  _id: ObjectId;
  amount: number;
  line_items: { line_item_id: ObjectId; quantity: number }[];
  reason: string | null;
  restock: boolean;
  location_id: ObjectId | null;
  created_at: Date;
};

export type OrderDocument = {
  _id: ObjectId;
  store_id: ObjectId;
  number: number;
  customer_id: ObjectId | null;
  email: string | null;
  currency: string;
  line_items: LineItemDocument[];
  shipping_line: { title: string; price: number; discount: number; tax: number } | null;
  shipping_address: Address | null;
  billing_address: Address | null;
  coupon: { id: string; code: string; discount: number } | null;
  tax_rate: { name: string | null; rate_bps: number };
  subtotal: number;
  discount_total: number;
  shipping_total: number;
  tax_total: number;
  total: number;
  paid_amount: number;
  refunded_amount: number;
  financial_status: FinancialStatus;
  fulfillment_status: FulfillmentStatus;
  fulfillments: FulfillmentDocument[];
  refunds: RefundDocument[];
  note: string | null;
  source: 'admin' | 'storefront';
  version: number;
  created_at: Date;
  updated_at: Date;
};

export type CounterDocument = { _id: ObjectId; next: number };

export const orderIndexes: IndexDeclaration[] = [
  {
    collection: ORDERS,
    indexes: [
      { key: { store_id: 1, _id: 1 }, name: 'store_id_id' },
      { key: { store_id: 1, number: 1 }, name: 'store_id_number_unique', unique: true },
      { key: { store_id: 1, customer_id: 1, _id: 1 }, name: 'store_id_customer_id_id' },
      { key: { store_id: 1, financial_status: 1, _id: 1 }, name: 'store_id_financial_status_id' },
      { key: { store_id: 1, fulfillment_status: 1, _id: 1 }, name: 'store_id_fulfillment_status_id' },
    ],
  },
];

export const orders = (db: Db) => db.collection<OrderDocument>(ORDERS);
export const orderCounters = (db: Db) => db.collection<CounterDocument>(ORDER_COUNTERS);
