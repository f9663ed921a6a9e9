import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../db.js';
import type { ErrorCode } from '../errors.js';
import type { PostalAddress } from '../postal-address.js';
import type { Provider } from '../payments/index.js';

export const ORDERS = 'orders';
export const ORDER_COUNTERS = 'order_counters';
export const ORDER_DAYS = 'order_days';

export type FinancialStatus = 'pending' | 'authorized' | 'paid' | 'partially_refunded' | 'refunded' | 'voided';
export type FulfillmentStatus = 'unfulfilled' | 'partial' | 'fulfilled';

/** A stored shipping or billing address: the core's postal address, as checked (src/postal-address.ts). */
export type Address = PostalAddress;

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
  /** The variant's policy when the order was made (absent on older orders: read from the catalog). */
  inventory_policy?: 'deny' | 'continue';
  /**
   * Where the line's units not yet shipped (nor refunded) are committed: `quantity −
   * fulfilled_quantity − refunded_quantity` units at this location. Null when nothing is
   * committed (custom lines, untracked variants, a backorder with no location, older orders).
   */
  location_id?: ObjectId | null;
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
  /** `code`: the shipping option a storefront checkout chose (docs/shipping.md); absent on orders made before options existed. */
  shipping_line: { title: string; code?: string | null; price: number; discount: number; tax: number } | null;
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
  cancelled_at?: Date | null;
  cancel_reason?: CancelReason | null;
  note: string | null;
  source: 'admin' | 'storefront';
  /** The payment methods (providers) a storefront checkout offered when a Checkout Function advised on them: the only ones it can be paid with. Null: no restriction. */
  payment_methods?: string[] | null;
  version: number;
  /** True until the order is made (its stock and coupon held): such an order is not shown, and is undone if its maker stops. */
  creating?: boolean;
  /** The change under way that spans other documents (changes.ts); null when none. */
  pending_op?: PendingChange | null;
  /** When pending_op began: what the maintenance sweep looks for once the lease is free. */
  pending_since?: Date | null;
  /** The lease of the process making pending_op (null, or absent on older orders: nobody's). */
  lease_until: Date | null;
  lease_owner: string | null;
  /** Requests that changed the order, by the id derived from their Idempotency-Key, with a hash of their body. */
  requests?: RequestRef[];
  /**
   * The request that created the order: its Idempotency-Key's id (a storefront checkout's: its
   * cart's), else the order's own id. Unique in the store, so one request (one cart) makes at
   * most one order, however many attempts run at once.
   */
  request_key?: string;
  /**
   * SHA-256 of the payment secret issued to the storefront checkout that made the order (null
   * or absent: none). Storefront payments ask for the secret or the order's customer's session.
   */
  payment_secret_hash?: string | null;
  created_at: Date;
  updated_at: Date;
};

/**
 * A step of an order change on another document (src/orders/changes.ts). `key` names the
 * step on the document it changes, so a repeated step changes nothing more.
 */
export type StockEffect = {
  type: 'stock';
  key: string;
  /** The order line it is for (its index in line_items). */
  line: number;
  variant_id: ObjectId;
  product_id: ObjectId;
  location_id: ObjectId;
  available: number;
  committed: number;
  floor: boolean;
  reason: 'order_reserved' | 'order_released' | 'fulfillment' | 'fulfillment_moved' | 'restock';
};
export type CouponEffect = { type: 'coupon'; key: string; coupon_id: ObjectId; customer_key: string | null };
export type CustomerEffect = { type: 'customer'; key: string; customer_id: ObjectId; amount: number; count: 0 | 1 };
export type PaymentEffect = {
  type: 'payment';
  transaction_id: ObjectId;
  kind: 'sale' | 'refund';
  amount: number;
  /** Who took the money (absent: `manual`, the merchant) and the provider's id for the payment. */
  provider?: Provider;
  provider_reference?: string | null;
};
/** The store's figures of the change's day (src/orders/days.ts): an order made, money taken (a sale) or given back (negative). */
export type DayEffect = { type: 'day'; key: string; day: string; orders: 0 | 1; sales: number };
export type Effect = StockEffect | CouponEffect | CustomerEffect | PaymentEffect | DayEffect;

/** `claim`: a guest order becomes the customer's who proved its email (claims.ts). */
export type ChangeKind = 'create' | 'fulfil' | 'refund' | 'cancel' | 'pay' | 'claim';

/**
 * An order change that spans documents, recorded on the order (under its lease) before any
 * other document is written. `holds` may fail (stock below the floor, a coupon used up) and are
 * undone if one does; `effects` follow the decision and are only ever completed.
 */
export type PendingChange = {
  id: string;
  kind: ChangeKind;
  /** `applying` the holds (may still fail and be undone), `committed` (decided: only completed), `undoing` the holds. */
  state: 'applying' | 'committed' | 'undoing';
  holds: Effect[];
  effects: Effect[];
  /** The fulfilment or refund the change adds. */
  subject_id: ObjectId | null;
  request_id: string | null;
  failure: { code: ErrorCode; message: string; details: string[] } | null;
  started_at: Date;
};

export type CancelReason = 'customer' | 'declined' | 'fraud' | 'inventory' | 'staff' | 'other';

/**
 * A request as an order remembers it: `id` derived from its Idempotency-Key (and caller, store,
 * route), `hash` of its body. A storefront checkout's `id` names its cart instead, and its
 * `hash` the key, the caller and the body: every checkout of one cart shares the id (one order per
 * cart), and only the same request again matches the hash.
 */
export type RequestRef = { id: string; hash: string };

export type CounterDocument = { _id: ObjectId; next: number };

/**
 * A store's orders and sales of one UTC day (`2026-05-04`), kept by each order change as one of
 * its steps (src/orders/days.ts): the merchant admin's Home reads a month of them, never the
 * orders. `sales`: money taken minus money refunded that day, in the store's minor units.
 */
export type OrderDayDocument = {
  _id: ObjectId;
  store_id: ObjectId;
  day: string;
  orders: number;
  sales: number;
  /** Keys of the order steps counted here whose order has not yet recorded them as done (a step retried counts once). */
  pending_ops: string[];
};

export const orderIndexes: IndexDeclaration[] = [
  {
    collection: ORDERS,
    indexes: [
      { key: { store_id: 1, _id: 1 }, name: 'store_id_id' },
      { key: { store_id: 1, number: 1 }, name: 'store_id_number_unique', unique: true },
      { key: { store_id: 1, customer_id: 1, _id: 1 }, name: 'store_id_customer_id_id' },
      { key: { store_id: 1, financial_status: 1, _id: 1 }, name: 'store_id_financial_status_id' },
      { key: { store_id: 1, fulfillment_status: 1, _id: 1 }, name: 'store_id_fulfillment_status_id' },
      // Home's orders to fulfil (countOrdersToFulfil): every condition of its count is a field of this index, so the count
      // reads keys only (on the embedded database, otherwise each of up to 1,000 documents: 200 ms on 10,000 orders).
      { key: { store_id: 1, fulfillment_status: 1, cancelled_at: 1, creating: 1 }, name: 'store_id_fulfillment_status_cancelled_at_creating' },
      // The list's other filters (docs/orders.md, List orders): cancelled or open, a customer's email, a time range.
      { key: { store_id: 1, cancelled_at: 1, _id: 1 }, name: 'store_id_cancelled_at_id' },
      { key: { store_id: 1, email: 1, _id: 1 }, name: 'store_id_email_id' },
      { key: { store_id: 1, created_at: 1 }, name: 'store_id_created_at' },
      // Unique (it replaced the plain `store_id_request_key`, hence the new name): one order per request key.
      { key: { store_id: 1, request_key: 1 }, name: 'store_id_request_key_unique', unique: true },
      { key: { pending_since: 1 }, name: 'pending_since' },
    ],
  },
  { collection: ORDER_DAYS, indexes: [{ key: { store_id: 1, day: 1 }, name: 'store_id_day_unique', unique: true }] },
];

export const orders = (db: Db) => db.collection<OrderDocument>(ORDERS);
export const orderCounters = (db: Db) => db.collection<CounterDocument>(ORDER_COUNTERS);
export const orderDays = (db: Db) => db.collection<OrderDayDocument>(ORDER_DAYS);
