import { ObjectId, type Filter } from 'mongodb';
import { findVariants } from '../catalog/index.js';
import { PlatformError, invalidInput, type InputIssue } from '../errors.js';
import { type LocationView } from '../inventory/index.js';
import { afterCursor, findPage, pageDirection, type Page } from '../pagination.js';
import { escapeRegex } from '../ids.js';
import type { Platform } from '../platform.js';
import type { Provider } from '../payments/index.js';
import { changeOrder, findMade, fulfillable, fulfillmentStatusOf, loadOrder, madeBy, type Keys, type Plan } from './changes.js';
import { presenting, projectionOf, viewsByIds, type ViewFields } from '../projection.js';
import { ORDER_SOURCES, presentOrder, UNREAD_ORDER, type OrderView } from './present.js';
import { lineRefundAmount } from './pricing.js';
import type { CancelBody, FulfillBody, ListOrdersQuery, RefundBody } from './schemas.js';
import { orders, type Effect, type LineItemDocument, type OrderDocument, type RequestRef, type StockEffect } from './models.js';

import { activeLocation } from './create.js';

/** An order's reads, and its changes after it is made: fulfilment, refund, cancellation, payment (docs/orders.md). */
export async function findOrderByRequest(platform: Platform, storeId: string, request: RequestRef): Promise<{ order: OrderView; same: boolean } | null> {
  const made = await findMade(platform, storeId, request.id);
  return made ? { order: presentOrder(made), same: madeBy(made, request) } : null;
}

export async function getOrder(platform: Platform, storeId: string, orderId: string): Promise<OrderView> {
  return presentOrder(await loadOrder(platform, storeId, orderId));
}

/** A page of the store's orders; with `fields`, only those of each order's view are read (src/projection.ts), the others blank. */
export async function listOrders(
  platform: Platform,
  storeId: string,
  q: ListOrdersQuery & Pick<Page, 'backwards'>,
  fields?: ViewFields<OrderView>,
): Promise<{ items: OrderView[]; nextCursor: string | null }> {
  const page = { ...q, backwards: q.backwards ?? q.order === 'newest' };
  const filter: Filter<OrderDocument> = { store_id: new ObjectId(storeId), creating: { $ne: true }, ...afterCursor(page), ...textFilter(q.q) };
  if (q.status) filter.cancelled_at = q.status === 'cancelled' ? { $ne: null } : null;
  if (q.financial_status) filter.financial_status = q.financial_status;
  if (q.fulfillment_status) filter.fulfillment_status = { $in: q.fulfillment_status };
  if (q.customer_id) filter.customer_id = new ObjectId(q.customer_id);
  if (q.created_at_min || q.created_at_max)
    filter.created_at = { ...(q.created_at_min ? { $gte: q.created_at_min } : {}), ...(q.created_at_max ? { $lt: q.created_at_max } : {}) };
  const projection = projectionOf(ORDER_SOURCES, fields);
  const { items, nextCursor } = await findPage(orders(platform.db), filter, q.limit, pageDirection(page), projection);
  return { items: items.map(presenting(presentOrder, UNREAD_ORDER, projection)), nextCursor };
}

/** The list's `q`: an order number (`1001`, `#1001`), an email, or an email's beginning; each on an index of the store's orders. */
function textFilter(q: string | undefined): Filter<OrderDocument> {
  if (!q) return {};
  const number = /^#?(\d{1,15})$/.exec(q)?.[1];
  if (number) return { number: Number(number) };
  const email = q.toLowerCase();
  return email.includes('@') ? { email } : { email: { $regex: `^${escapeRegex(email)}` } };
}

/** Requested quantities per line, summed, each checked to be a line of the order. */
function requestedQuantities(order: OrderDocument, requested: { line_item_id: string; quantity: number }[]): Map<string, number> {
  const lines = new Set(order.line_items.map((l) => l._id.toHexString()));
  const wanted = new Map<string, number>();
  const problems: InputIssue[] = [];
  requested.forEach((r, i) => {
    if (!lines.has(r.line_item_id)) problems.push({ path: `line_items.${i}.line_item_id`, message: 'is not a line of this order' });
    wanted.set(r.line_item_id, (wanted.get(r.line_item_id) ?? 0) + r.quantity);
  });
  if (problems.length > 0) throw invalidInput(problems);
  return wanted;
}

const orderCancelled = () => new PlatformError('conflict', 'order_cancelled', 'The order is cancelled');

const stockStep = (
  keys: Keys,
  line: LineItemDocument,
  index: number,
  at: ObjectId,
  available: number,
  committed: number,
  floor: boolean,
  reason: StockEffect['reason'],
): StockEffect => ({
  type: 'stock',
  key: keys(),
  line: index,
  variant_id: line.variant_id!,
  product_id: line.product_id!,
  location_id: at,
  available,
  committed,
  floor,
  reason,
});

/**
 * Fulfil lines from a location: never more of a line than ordered minus already fulfilled (and
 * minus refunded). Units committed at that location are taken from the commitment; units
 * committed elsewhere are released there and taken here, where a variant that denies
 * overselling must have them (409 insufficient_stock, and the fulfilment is withdrawn).
 */
export async function fulfillOrder(platform: Platform, storeId: string, orderId: string, input: FulfillBody, request: RequestRef | null): Promise<OrderView> {
  const location = await activeLocation(platform, storeId, input.location_id);
  const at = new ObjectId(location.id);
  const updated = await changeOrder(platform, storeId, orderId, request, async (order, keys): Promise<Plan> => {
    if (order.cancelled_at) throw orderCancelled();
    const wanted = requestedQuantities(order, input.line_items);
    const over: string[] = [];
    const lines = order.line_items.map((l) => {
      const q = wanted.get(l._id.toHexString()) ?? 0;
      if (q > fulfillable(l)) over.push(`line ${l._id.toHexString()}: ${q} requested, ${fulfillable(l)} left to fulfil`);
      return { ...l, fulfilled_quantity: l.fulfilled_quantity + q };
    });
    if (over.length > 0) throw new PlatformError('conflict', 'over_fulfillment', 'That is more than is left to fulfil', { details: over });
    const policies = await policiesOf(platform, storeId, order);
    const fulfillment = {
      _id: new ObjectId(),
      location_id: at,
      line_items: [...wanted].map(([id, quantity]) => ({ line_item_id: new ObjectId(id), quantity })),
      tracking_company: input.tracking_company ?? null,
      tracking_number: input.tracking_number ?? null,
      tracking_url: input.tracking_url ?? null,
      created_at: platform.clock.now(),
    };
    const takes: StockEffect[] = [];
    const others: StockEffect[] = [];
    order.line_items.forEach((line, i) => {
      const q = wanted.get(line._id.toHexString()) ?? 0;
      if (q === 0 || !line.inventory_tracked || !line.variant_id) return;
      if (line.location_id?.equals(at)) {
        others.push(stockStep(keys, line, i, at, 0, -q, false, 'fulfillment'));
        return;
      }
      if (line.location_id) others.push(stockStep(keys, line, i, line.location_id, q, -q, false, 'fulfillment_moved'));
      takes.push(stockStep(keys, line, i, at, -q, 0, policies.get(line.variant_id.toHexString()) !== 'continue', 'fulfillment'));
    });
    // Units taken where nothing was committed may be refused: they are holds, taken first, and undone if one is.
    const holds = takes.some((t) => t.floor) ? [...takes, ...others] : [];
    return {
      kind: 'fulfil',
      set: { line_items: lines, fulfillments: [...order.fulfillments, fulfillment], fulfillment_status: fulfillmentStatusOf(lines) },
      holds,
      effects: holds.length > 0 ? [] : [...others, ...takes],
      subject_id: fulfillment._id,
    };
  });
  return presentOrder(updated);
}

/** Each tracked variant line's inventory policy: as copied when the order was made, else (older orders) the catalog's now. */
async function policiesOf(platform: Platform, storeId: string, order: OrderDocument): Promise<Map<string, 'deny' | 'continue'>> {
  const out = new Map<string, 'deny' | 'continue'>();
  const unknown: string[] = [];
  for (const l of order.line_items) {
    if (!l.variant_id || !l.inventory_tracked) continue;
    if (l.inventory_policy) out.set(l.variant_id.toHexString(), l.inventory_policy);
    else unknown.push(l.variant_id.toHexString());
  }
  if (unknown.length > 0) for (const [id, v] of await findVariants(platform, storeId, unknown)) out.set(id, v.inventory_policy);
  return out;
}

/**
 * Refund an amount and/or lines: never more than paid minus already refunded, never more of a
 * line than ordered minus already refunded. Lines without an amount are refunded at their
 * share of the line total (tax and discount included). A line's refunded units count against
 * its units not shipped first, whose commitment is released; with `restock`, the shipped ones
 * come back at the location given.
 */
export async function refundOrder(platform: Platform, storeId: string, orderId: string, input: RefundBody, request: RequestRef | null): Promise<OrderView> {
  const location = input.restock && input.location_id ? await activeLocation(platform, storeId, input.location_id) : null;
  const updated = await changeOrder(platform, storeId, orderId, request, async (order, keys): Promise<Plan> => {
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
    if (amount > refundable)
      throw new PlatformError(
        'conflict',
        'over_refund',
        `At most ${refundable} can be refunded (paid ${order.paid_amount}, refunded ${order.refunded_amount})`,
      );
    if (amount === 0 && wanted.size === 0) throw invalidInput([{ path: 'amount', message: 'nothing to refund' }]);
    const refund = {
      _id: new ObjectId(),
      amount,
      line_items: [...wanted].map(([id, quantity]) => ({ line_item_id: new ObjectId(id), quantity })),
      reason: input.reason ?? null,
      restock: input.restock,
      location_id: location ? new ObjectId(location.id) : null,
      created_at: platform.clock.now(),
    };
    const refunded = order.refunded_amount + amount;
    return {
      kind: 'refund',
      set: {
        line_items: lines,
        refunded_amount: refunded,
        financial_status: refunded === 0 ? order.financial_status : refunded >= order.paid_amount ? 'refunded' : 'partially_refunded',
        fulfillment_status: fulfillmentStatusOf(lines),
        refunds: [...order.refunds, refund],
      },
      holds: [],
      effects: [...returnedStock(order, wanted, location, keys), ...moneyBack(order, amount, keys)],
      subject_id: refund._id,
    };
  });
  return presentOrder(updated);
}

/** Refunded units: those not shipped release their commitment; shipped ones come back at `restockAt` when given. */
function returnedStock(order: OrderDocument, wanted: Map<string, number>, restockAt: LocationView | null, keys: Keys): StockEffect[] {
  const steps: StockEffect[] = [];
  order.line_items.forEach((line, i) => {
    const q = wanted.get(line._id.toHexString()) ?? 0;
    if (q === 0 || !line.inventory_tracked || !line.variant_id) return;
    const unshipped = Math.min(q, fulfillable(line));
    if (unshipped > 0 && line.location_id) steps.push(stockStep(keys, line, i, line.location_id, unshipped, -unshipped, false, 'order_released'));
    if (q > unshipped && restockAt) steps.push(stockStep(keys, line, i, new ObjectId(restockAt.id), q - unshipped, 0, false, 'restock'));
  });
  return steps;
}

/** A refund's payment record and the customer's total spent, for an amount above 0. */
function moneyBack(order: OrderDocument, amount: number, keys: Keys): Effect[] {
  if (amount === 0) return [];
  return [
    { type: 'payment', transaction_id: new ObjectId(), kind: 'refund', amount },
    ...(order.customer_id ? [{ type: 'customer' as const, key: keys(), customer_id: order.customer_id, amount: -amount, count: 0 as const }] : []),
  ];
}

/**
 * Cancel an order nothing of which has shipped: every unit is refunded (its commitment released)
 * and so is what was paid; a paid order ends `refunded`, an unpaid one `voided`.
 */
export async function cancelOrder(platform: Platform, storeId: string, orderId: string, input: CancelBody, request: RequestRef | null): Promise<OrderView> {
  const updated = await changeOrder(platform, storeId, orderId, request, async (order, keys): Promise<Plan> => {
    if (order.cancelled_at) throw orderCancelled();
    if (order.line_items.some((l) => l.fulfilled_quantity > 0))
      throw new PlatformError('conflict', 'order_fulfilled', 'Units of this order have shipped: refund them instead of cancelling');
    const wanted = new Map(
      order.line_items.filter((l) => l.quantity > l.refunded_quantity).map((l) => [l._id.toHexString(), l.quantity - l.refunded_quantity]),
    );
    const amount = order.paid_amount - order.refunded_amount;
    const now = platform.clock.now();
    const refund = {
      _id: new ObjectId(),
      amount,
      line_items: [...wanted].map(([id, quantity]) => ({ line_item_id: new ObjectId(id), quantity })),
      reason: `cancelled: ${input.reason}`,
      restock: false,
      location_id: null,
      created_at: now,
    };
    const lines = order.line_items.map((l) => ({ ...l, refunded_quantity: l.quantity }));
    return {
      kind: 'cancel',
      set: {
        line_items: lines,
        refunds: [...order.refunds, refund],
        refunded_amount: order.paid_amount,
        financial_status: order.paid_amount > 0 ? 'refunded' : 'voided',
        fulfillment_status: fulfillmentStatusOf(lines),
        cancelled_at: now,
        cancel_reason: input.reason,
      },
      holds: [],
      effects: [...returnedStock(order, wanted, null, keys), ...moneyBack(order, amount, keys)],
      subject_id: refund._id,
    };
  });
  return presentOrder(updated);
}

/** A pending order's money was collected outside the platform: it is paid in full, and counts in its customer's total spent. */
export async function markOrderPaid(
  platform: Platform,
  storeId: string,
  orderId: string,
  request: RequestRef | null,
  payment: { provider: Provider; reference: string } | null = null,
): Promise<OrderView> {
  const updated = await changeOrder(platform, storeId, orderId, request, async (order, keys): Promise<Plan> => {
    if (order.cancelled_at) throw orderCancelled();
    if (order.financial_status !== 'pending')
      throw new PlatformError('conflict', 'order_not_pending', `Only a pending order can be marked paid; this one is ${order.financial_status}`);
    const effects: Effect[] = [];
    if (order.total > 0) {
      effects.push({
        type: 'payment',
        transaction_id: new ObjectId(),
        kind: 'sale',
        amount: order.total,
        ...(payment ? { provider: payment.provider, provider_reference: payment.reference } : {}),
      });
    }
    if (order.customer_id && order.total > 0) effects.push({ type: 'customer', key: keys(), customer_id: order.customer_id, amount: order.total, count: 0 });
    return { kind: 'pay', set: { paid_amount: order.total, financial_status: 'paid' }, holds: [], effects, subject_id: null };
  });
  return presentOrder(updated);
}

/** The store's orders by id (GraphQL's loader); orders still being made are not shown, as in REST. */
export async function ordersByIds(
  platform: Pick<Platform, 'db'>,
  storeId: string,
  ids: readonly string[],
  fields?: ViewFields<OrderView>,
): Promise<Map<string, OrderView>> {
  const view = {
    sources: ORDER_SOURCES,
    present: presentOrder,
    unread: UNREAD_ORDER,
    hidden: { by: ['creating'] as const, test: (d: OrderDocument) => d.creating === true },
  };
  return viewsByIds(orders(platform.db), storeId, ids, view, fields);
}

/** How many orders the store has (a bulk export's estimate; orders being made are not counted). */
export function countOrders(platform: Pick<Platform, 'db'>, storeId: string): Promise<number> {
  return orders(platform.db).countDocuments({ store_id: new ObjectId(storeId), creating: { $ne: true } });
}

/** How many open orders have units left to ship (the admin's Home), counted up to `cap` on the fulfilment status index. */
export function countOrdersToFulfil(platform: Pick<Platform, 'db'>, storeId: string, cap: number): Promise<number> {
  return orders(platform.db).countDocuments(
    { store_id: new ObjectId(storeId), fulfillment_status: { $in: ['unfulfilled', 'partial'] }, cancelled_at: null, creating: { $ne: true } },
    { limit: cap },
  );
}
