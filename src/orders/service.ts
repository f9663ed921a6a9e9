import { ObjectId, type Filter } from 'mongodb';
import { findVariants } from '../catalog/index.js';
import { evaluateCoupon, redeemCoupon } from '../coupons/index.js';
import { getCustomer, recordCustomerOrder } from '../customers/index.js';
import { isDuplicateKeyError } from '../db.js';
import { PlatformError, notFound } from '../errors.js';
import { adjustInventory, getLocation } from '../inventory/index.js';
import { afterCursor, pageOf } from '../pagination.js';
import { recordPaymentTransaction } from '../payments/index.js';
import type { Platform } from '../platform.js';
import type { StoreView } from '../stores/index.js';
import { getTaxSettings, rateFor } from '../taxes/index.js';
import { presentOrder, type OrderView } from './present.js';
import { lineRefundAmount, priceOrder } from './pricing.js';
import type { CreateOrderBody, FulfillBody, ListOrdersQuery, RefundBody } from './schemas.js';
import { orderCounters, orders, type LineItemDocument, type OrderDocument } from './store.js';
import { parseObjectId } from '../ids.js';

const FIRST_ORDER_NUMBER = 1001;
/** How often a fulfilment or refund re-reads the order when a concurrent change got there first. */
const UPDATE_ATTEMPTS = 5;

const invalid = (details: string[]) => new PlatformError('invalid_data', 'invalid_input', 'The request has invalid input', { details });

/**
 * A manual order: the service prices every line from the catalog (custom lines carry the
 * merchant's price), applies the coupon, taxes by the store's rate table and the shipping (or
 * billing) address, and computes the totals. Client totals are never read.
 */
export async function createOrder(platform: Platform, store: StoreView, input: CreateOrderBody): Promise<OrderView> {
  const storeId = store.id;
  const customer = input.customer_id ? await getCustomer(platform, storeId, input.customer_id) : null;

  const variantIds = input.line_items.flatMap((l) => ('variant_id' in l ? [l.variant_id] : []));
  const variants = await findVariants(platform, storeId, variantIds);
  const problems: string[] = [];
  const lines: LineItemDocument[] = input.line_items.map((line, i) => {
    const base = { _id: new ObjectId(), quantity: line.quantity, discount: 0, tax: 0, total: 0, fulfilled_quantity: 0, refunded_quantity: 0 };
    if ('variant_id' in line) {
      const v = variants.get(line.variant_id);
      if (!v) {
        problems.push(`body.line_items.${i}.variant_id: is not a variant of this store`);
        return { ...base, variant_id: null, product_id: null, title: '', variant_title: null, sku: null, unit_price: 0, taxable: false, inventory_tracked: false };
      }
      return {
        ...base,
        variant_id: new ObjectId(v.variant_id),
        product_id: new ObjectId(v.product_id),
        title: v.product_title,
        variant_title: v.variant_title === 'Default' ? null : v.variant_title,
        sku: v.sku,
        unit_price: v.price,
        taxable: true,
        inventory_tracked: v.inventory_tracked,
      };
    }
    return { ...base, variant_id: null, product_id: null, title: line.title, variant_title: null, sku: line.sku, unit_price: line.price, taxable: line.taxable, inventory_tracked: false };
  });
  if (problems.length > 0) throw invalid(problems);

  const subtotal = lines.reduce((a, l) => a + l.unit_price * l.quantity, 0);
  const shippingPrice = input.shipping_line?.price ?? null;
  let coupon: { id: string; code: string; discount: { subtotal: number; shipping: number } } | null = null;
  if (input.coupon_code) {
    const evaluation = await evaluateCoupon(platform, storeId, input.coupon_code, {
      subtotal,
      shipping: shippingPrice ?? 0,
      currency: store.currency,
      ...(customer ? { customer_id: customer.id } : {}),
    });
    if (!evaluation.applicable) {
      throw new PlatformError('invalid_data', 'coupon_not_applicable', `The coupon cannot be used on this order: ${evaluation.reason}`, { details: [`body.coupon_code: ${evaluation.reason}`] });
    }
    coupon = { id: evaluation.coupon.id, code: evaluation.coupon.code, discount: evaluation.discount };
  }

  const taxes = await getTaxSettings(platform, storeId);
  const address = input.shipping_address ?? input.billing_address ?? null;
  const rate = rateFor(taxes, address);
  const pricing = priceOrder({
    lines,
    shipping: shippingPrice,
    discount: coupon?.discount ?? { subtotal: 0, shipping: 0 },
    rateBps: rate.rate_bps,
    shippingTaxable: taxes.shipping_taxable,
  });
  pricing.lines.forEach((p, i) => Object.assign(lines[i]!, p));

  // Count the coupon's use before the order exists: a limit reached by a concurrent order refuses this one.
  if (coupon) await redeemCoupon(platform, storeId, coupon.id);

  const now = platform.clock.now();
  const nextNumber = () => orderCounters(platform.db).findOneAndUpdate({ _id: new ObjectId(storeId) }, { $inc: { next: 1 } }, { upsert: true, returnDocument: 'after' });
  // A store's first two orders race on the counter's upsert; the loser counts as an update.
  const counter = await nextNumber().catch((err: unknown) => {
    if (isDuplicateKeyError(err)) return nextNumber();
    throw err;
  });
  const paid = input.financial_status === 'paid';
  const doc: OrderDocument = {
    _id: new ObjectId(),
    store_id: new ObjectId(storeId),
    number: FIRST_ORDER_NUMBER - 1 + (counter?.next ?? 1),
    customer_id: customer ? new ObjectId(customer.id) : null,
    email: input.email ?? customer?.email ?? null,
    currency: store.currency,
    line_items: lines,
    shipping_line: input.shipping_line ? { ...input.shipping_line, discount: pricing.shipping!.discount, tax: pricing.shipping!.tax } : null,
    shipping_address: input.shipping_address ?? null,
    billing_address: input.billing_address ?? null,
    coupon: coupon ? { id: coupon.id, code: coupon.code, discount: pricing.discount_total } : null,
    tax_rate: { name: rate.name, rate_bps: rate.rate_bps },
    subtotal: pricing.subtotal,
    discount_total: pricing.discount_total,
    shipping_total: pricing.shipping_total,
    tax_total: pricing.tax_total,
    total: pricing.total,
    paid_amount: paid ? pricing.total : 0,
    refunded_amount: 0,
    financial_status: paid ? 'paid' : 'pending',
    fulfillment_status: 'unfulfilled',
    fulfillments: [],
    refunds: [],
    note: input.note ?? null,
    source: 'admin',
    version: 1,
    created_at: now,
    updated_at: now,
  };
  await orders(platform.db).insertOne(doc);
  const view = presentOrder(doc);
  await platform.events.emit('order.created', doc.store_id, { order: view }, `order.created:${view.id}`);
  if (customer) await recordCustomerOrder(platform, storeId, customer.id, { amount: doc.total, countDelta: 1 });
  if (paid && doc.total > 0) {
    await recordPaymentTransaction(platform, storeId, { order_id: view.id, kind: 'sale', status: 'success', amount: doc.total, currency: doc.currency, provider: 'manual' });
  }
  return view;
}

async function loadOrder(platform: Platform, storeId: string, orderId: string): Promise<OrderDocument> {
  const id = parseObjectId(orderId);
  const doc = id ? await orders(platform.db).findOne({ _id: id, store_id: new ObjectId(storeId) }) : null;
  if (!doc) throw notFound('Order');
  return doc;
}

export async function getOrder(platform: Platform, storeId: string, orderId: string): Promise<OrderView> {
  return presentOrder(await loadOrder(platform, storeId, orderId));
}

export async function listOrders(platform: Platform, storeId: string, q: ListOrdersQuery): Promise<{ items: OrderView[]; nextCursor: string | null }> {
  const filter: Filter<OrderDocument> = { store_id: new ObjectId(storeId), ...afterCursor(q) };
  if (q.financial_status) filter.financial_status = q.financial_status;
  if (q.fulfillment_status) filter.fulfillment_status = q.fulfillment_status;
  if (q.customer_id) filter.customer_id = new ObjectId(q.customer_id);
  const docs = await orders(platform.db).find(filter).sort({ _id: 1 }).limit(q.limit + 1).toArray();
  const { items, nextCursor } = pageOf(docs, q.limit);
  return { items: items.map(presentOrder), nextCursor };
}

/** Requested quantities per line, summed, each checked to be a line of the order. */
function requestedQuantities(order: OrderDocument, requested: { line_item_id: string; quantity: number }[]): Map<string, number> {
  const lines = new Set(order.line_items.map((l) => l._id.toHexString()));
  const wanted = new Map<string, number>();
  const problems: string[] = [];
  requested.forEach((r, i) => {
    if (!lines.has(r.line_item_id)) problems.push(`body.line_items.${i}.line_item_id: is not a line of this order`);
    wanted.set(r.line_item_id, (wanted.get(r.line_item_id) ?? 0) + r.quantity);
  });
  if (problems.length > 0) throw invalid(problems);
  return wanted;
}

const fulfillable = (l: LineItemDocument) => Math.max(0, l.quantity - l.fulfilled_quantity - l.refunded_quantity);

function fulfillmentStatusOf(lines: LineItemDocument[]): OrderDocument['fulfillment_status'] {
  const shipped = lines.some((l) => l.fulfilled_quantity > 0);
  // Nothing shipped and nothing left to ship (all refunded first) is not "fulfilled".
  if (!shipped) return 'unfulfilled';
  return lines.every((l) => fulfillable(l) === 0) ? 'fulfilled' : 'partial';
}

/**
 * Fulfil lines from a location: never more of a line than ordered minus already fulfilled
 * (and minus refunded). The order is updated first, conditionally on the version read, so
 * concurrent fulfilments can never add up to more than ordered; then stock is taken from the
 * location. If the location lacks stock, the fulfilment is withdrawn and the stock already
 * taken is put back (409 insufficient_stock).
 */
export async function fulfillOrder(platform: Platform, storeId: string, orderId: string, input: FulfillBody): Promise<OrderView> {
  const location = await getLocation(platform, storeId, input.location_id);
  if (!location.active) throw new PlatformError('conflict', 'location_inactive', 'The location is deactivated');
  const fulfillment = {
    _id: new ObjectId(),
    location_id: new ObjectId(location.id),
    line_items: [] as { line_item_id: ObjectId; quantity: number }[],
    tracking_company: input.tracking_company ?? null,
    tracking_number: input.tracking_number ?? null,
    tracking_url: input.tracking_url ?? null,
    created_at: platform.clock.now(),
  };

  let updated: OrderDocument | null = null;
  for (let attempt = 0; attempt < UPDATE_ATTEMPTS && !updated; attempt++) {
    const order = await loadOrder(platform, storeId, orderId);
    const wanted = requestedQuantities(order, input.line_items);
    const over: string[] = [];
    const lines = order.line_items.map((l) => {
      const q = wanted.get(l._id.toHexString()) ?? 0;
      if (q > fulfillable(l)) over.push(`line ${l._id.toHexString()}: ${q} requested, ${fulfillable(l)} left to fulfil`);
      return { ...l, fulfilled_quantity: l.fulfilled_quantity + q };
    });
    if (over.length > 0) throw new PlatformError('conflict', 'over_fulfillment', 'That is more than is left to fulfil', { details: over });
    fulfillment.line_items = [...wanted].map(([id, quantity]) => ({ line_item_id: new ObjectId(id), quantity }));
    updated = await orders(platform.db).findOneAndUpdate(
      { _id: order._id, store_id: order.store_id, version: order.version },
      { $set: { line_items: lines, fulfillment_status: fulfillmentStatusOf(lines), updated_at: platform.clock.now() }, $push: { fulfillments: fulfillment }, $inc: { version: 1 } },
      { returnDocument: 'after' },
    );
  }
  if (!updated) throw new PlatformError('conflict', 'edit_conflict', 'The order kept changing; retry');

  const taken: { variant_id: string; quantity: number }[] = [];
  try {
    for (const { line_item_id, quantity } of fulfillment.line_items) {
      const line = updated.line_items.find((l) => l._id.equals(line_item_id))!;
      if (!line.inventory_tracked || !line.variant_id) continue;
      await adjustInventory(platform, storeId, { variant_id: line.variant_id.toHexString(), location_id: location.id, delta: -quantity, reason: 'fulfillment' });
      taken.push({ variant_id: line.variant_id.toHexString(), quantity });
    }
  } catch (err) {
    for (const t of taken) await adjustInventory(platform, storeId, { variant_id: t.variant_id, location_id: location.id, delta: t.quantity, reason: 'fulfillment_reverted' });
    await withdrawFulfillment(platform, updated.store_id, updated._id, fulfillment._id, fulfillment.line_items);
    throw err;
  }
  const view = presentOrder(updated);
  const fulfillmentView = view.fulfillments.find((f) => f.id === fulfillment._id.toHexString());
  await platform.events.emit('order.fulfilled', updated.store_id, { order: view, fulfillment: fulfillmentView }, `order.fulfilled:${view.id}:${fulfillment._id.toHexString()}`);
  return view;
}

/** Undo a recorded fulfilment whose stock could not be taken. */
async function withdrawFulfillment(platform: Platform, storeId: ObjectId, orderId: ObjectId, fulfillmentId: ObjectId, quantities: { line_item_id: ObjectId; quantity: number }[]): Promise<void> {
  for (let attempt = 0; attempt < UPDATE_ATTEMPTS * 2; attempt++) {
    const order = await orders(platform.db).findOne({ _id: orderId, store_id: storeId });
    if (!order || !order.fulfillments.some((f) => f._id.equals(fulfillmentId))) return;
    const lines = order.line_items.map((l) => {
      const q = quantities.find((x) => x.line_item_id.equals(l._id))?.quantity ?? 0;
      return { ...l, fulfilled_quantity: l.fulfilled_quantity - q };
    });
    const done = await orders(platform.db).findOneAndUpdate(
      { _id: orderId, store_id: storeId, version: order.version },
      {
        // The whole array is written back (under the version check): FerretDB's $pull only removes exact values.
        $set: { line_items: lines, fulfillments: order.fulfillments.filter((f) => !f._id.equals(fulfillmentId)), fulfillment_status: fulfillmentStatusOf(lines), updated_at: platform.clock.now() },
        $inc: { version: 1 },
      },
    );
    if (done) return;
  }
  platform.log.error({ event: 'orders.fulfillment_withdraw_failed', order_id: orderId.toHexString(), fulfillment_id: fulfillmentId.toHexString() });
}

/**
 * Units to put back per variant. A line's refunded units count against its unshipped units
 * first (refunding what never left is a cancellation: no stock to return), then against
 * shipped ones, which are the ones restocked.
 */
async function restockPlan(platform: Platform, storeId: string, lines: LineItemDocument[], wanted: Map<string, number>) {
  const plan: { variant_id: string; quantity: number }[] = [];
  for (const line of lines) {
    const q = wanted.get(line._id.toHexString()) ?? 0;
    if (q === 0 || !line.inventory_tracked || !line.variant_id) continue;
    const unshipped = line.quantity - line.fulfilled_quantity;
    const unshippedLeft = Math.max(0, unshipped - line.refunded_quantity);
    const quantity = Math.max(0, q - unshippedLeft);
    if (quantity > 0) plan.push({ variant_id: line.variant_id.toHexString(), quantity });
  }
  const known = await findVariants(platform, storeId, plan.map((p) => p.variant_id));
  const gone = plan.filter((p) => !known.has(p.variant_id));
  if (gone.length > 0) throw new PlatformError('conflict', 'variant_deleted', 'A refunded line\'s variant no longer exists, so it cannot be restocked; refund without restock');
  return plan;
}

/**
 * Refund an amount and/or lines: never more than paid minus already refunded, never more of a
 * line than ordered minus already refunded. Lines without an amount are refunded at their
 * share of the line total (tax and discount included). Restocking puts the units back at the
 * location given.
 */
export async function refundOrder(platform: Platform, storeId: string, orderId: string, input: RefundBody): Promise<OrderView> {
  const location = input.restock && input.location_id ? await getLocation(platform, storeId, input.location_id) : null;
  if (location && !location.active) throw new PlatformError('conflict', 'location_inactive', 'The location is deactivated');
  const refund = {
    _id: new ObjectId(),
    amount: 0,
    line_items: [] as { line_item_id: ObjectId; quantity: number }[],
    reason: input.reason ?? null,
    restock: input.restock,
    location_id: location ? new ObjectId(location.id) : null,
    created_at: platform.clock.now(),
  };

  let updated: OrderDocument | null = null;
  let restock: { variant_id: string; quantity: number }[] = [];
  for (let attempt = 0; attempt < UPDATE_ATTEMPTS && !updated; attempt++) {
    const order = await loadOrder(platform, storeId, orderId);
    const wanted = input.line_items ? requestedQuantities(order, input.line_items) : new Map<string, number>();
    const over: string[] = [];
    let linesAmount = 0;
    const lines = order.line_items.map((l) => {
      const q = wanted.get(l._id.toHexString()) ?? 0;
      if (q > l.quantity - l.refunded_quantity) over.push(`line ${l._id.toHexString()}: ${q} requested, ${l.quantity - l.refunded_quantity} left to refund`);
      else linesAmount += lineRefundAmount(l, q);
      return { ...l, refunded_quantity: l.refunded_quantity + q };
    });
    if (over.length > 0) throw new PlatformError('conflict', 'over_refund', 'That is more than is left to refund', { details: over });
    const amount = input.amount ?? linesAmount;
    const refundable = order.paid_amount - order.refunded_amount;
    if (amount > refundable) {
      throw new PlatformError('conflict', 'over_refund', `At most ${refundable} can be refunded (paid ${order.paid_amount}, refunded ${order.refunded_amount})`);
    }
    if (amount === 0 && wanted.size === 0) throw invalid(['body.amount: nothing to refund']);
    refund.amount = amount;
    refund.line_items = [...wanted].map(([id, quantity]) => ({ line_item_id: new ObjectId(id), quantity }));
    // Restocking returns shipped units only (units never taken from stock are not added), and
    // is checked before the refund is saved, so nothing after the save can fail on it.
    restock = location ? await restockPlan(platform, storeId, order.line_items, wanted) : [];
    const refunded = order.refunded_amount + amount;
    updated = await orders(platform.db).findOneAndUpdate(
      { _id: order._id, store_id: order.store_id, version: order.version },
      {
        $set: {
          line_items: lines,
          refunded_amount: refunded,
          financial_status: refunded === 0 ? order.financial_status : refunded >= order.paid_amount ? 'refunded' : 'partially_refunded',
          fulfillment_status: fulfillmentStatusOf(lines),
          updated_at: platform.clock.now(),
        },
        $push: { refunds: refund },
        $inc: { version: 1 },
      },
      { returnDocument: 'after' },
    );
  }
  if (!updated) throw new PlatformError('conflict', 'edit_conflict', 'The order kept changing; retry');

  for (const r of restock) {
    await adjustInventory(platform, storeId, { variant_id: r.variant_id, location_id: location!.id, delta: r.quantity, reason: 'restock' });
  }
  const view = presentOrder(updated);
  if (refund.amount > 0) {
    await recordPaymentTransaction(platform, storeId, { order_id: view.id, kind: 'refund', status: 'success', amount: refund.amount, currency: updated.currency, provider: 'manual' });
    if (updated.customer_id) await recordCustomerOrder(platform, storeId, updated.customer_id.toHexString(), { amount: -refund.amount, countDelta: 0 });
  }
  const refundView = view.refunds.find((r) => r.id === refund._id.toHexString());
  await platform.events.emit('order.refunded', updated.store_id, { order: view, refund: refundView }, `order.refunded:${view.id}:${refund._id.toHexString()}`);
  return view;
}
