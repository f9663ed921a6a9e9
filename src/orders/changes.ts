import { ObjectId, type Filter, type UpdateFilter } from 'mongodb';
import { systemClock } from '../clock.js';
import { undoCouponRedemption } from '../coupons/index.js';
import { isDuplicateKeyError } from '../db.js';
import { PlatformError, notFound } from '../errors.js';
import { parseObjectId } from '../ids.js';
import { announceStockChange, readStockLevel, undoStockChange, type LevelView } from '../inventory/index.js';
import type { Platform } from '../platform.js';
import {
  claimLease,
  heldBy,
  jitter,
  leaseFields,
  leaseHeld,
  NO_LEASE,
  releaseLeases,
  settlement,
  waitForHolder,
  type HolderWait,
  type Lease,
  type Look,
} from '../work/lease.js';
import { announceChange, applyStep, clearKeys, redemption, stockChange, type Failure } from './change-steps.js';
import { daySteps } from './days.js';
import { orderCounters, orders, type Effect, type ChangeKind, type OrderDocument, type PendingChange, type RequestRef } from './models.js';

/**
 * Order changes that span documents (docs/orders.md, "Changes that span documents"). Without
 * multi-document transactions, a change is first recorded on the order, under the order's
 * lease (src/work/lease.ts): what it changes on the order itself, and each step it will take
 * on another document (`pending_op`). Then the steps run, each a single-document conditional
 * update named by a key that makes it safe to repeat. Holds (stock committed with a floor, a
 * coupon use) may fail: they are then undone and the change withdrawn. Once every hold is in,
 * the order records the decision; the remaining effects (customer totals, payment records) and
 * the events follow, and the order is settled (pending_op cleared, lease given back).
 *
 * Whoever finds the change unfinished with its lease run out finishes it (`takeover`): a retry
 * of the same request, another request on the order, or the maintenance sweep (repairOrders).
 * A creation not yet decided is undone instead (its client was told it failed, or nothing).
 */

export const FIRST_ORDER_NUMBER = 1001;
/** How long a process holds an order while it changes it; another takes the change over after that. */
export const ORDER_LEASE_MS = 30_000;
/** How long a request waits for another change of the same order to finish before answering 409 order_busy. */
const WAIT_FOR_ORDER_MS = 5_000;
/** Orders the sweep finishes in one run. */
const SWEEP_BATCH = 100;

type Mode = 'own' | 'takeover';
export type Outcome = { kind: 'committed'; order: OrderDocument } | { kind: 'undone'; order: OrderDocument | null; failure: Failure | null } | { kind: 'lost' };

const orderLease = (platform: Platform): Lease => ({ owner: platform.process.id, ms: ORDER_LEASE_MS });
const orderBusy = () => new PlatformError('conflict', 'order_busy', 'Another change of this order is being made; retry shortly');
/** A request's wait for another change of the order, by the wall clock (the platform's may be a test's, moved or standing still). */
const waitForOrder = (): HolderWait => ({ clock: systemClock, deadline: new Date(Date.now() + WAIT_FOR_ORDER_MS), pauseMs: jitter(10, 40), busy: orderBusy });
const failureError = (f: Failure | null) => (f ? new PlatformError('conflict', f.code, f.message, { details: f.details }) : orderBusy());

/** What a change plans on the order as read: its own fields, its holds and effects, and what it adds. */
export type Plan = { kind: ChangeKind; set: Partial<OrderDocument>; holds: Effect[]; effects: Effect[]; subject_id: ObjectId | null };
/** Keys for a change's steps: `<change id>.<n>`. */
export type Keys = () => string;

export function newChange(plan: Plan, id: string, request: RequestRef | null, now: Date): PendingChange {
  // A creation is always decided (it takes its number then); other changes with no holds are decided as they are recorded.
  return {
    id,
    kind: plan.kind,
    state: plan.kind === 'create' || plan.holds.length > 0 ? 'applying' : 'committed',
    holds: plan.holds,
    // Every change that makes an order or moves money also counts on its day's figures (days.ts).
    effects: [...plan.effects, ...daySteps(plan.kind, [...plan.holds, ...plan.effects], `${id}.day`, now)],
    subject_id: plan.subject_id,
    request_id: request?.id ?? null,
    failure: null,
    started_at: now,
  };
}

export function keysFor(changeId: string): Keys {
  let n = 0;
  return () => `${changeId}.${n++}`;
}

/**
 * Change an existing order: wait for (or take over) a change already under way, plan this one
 * on the order as it then is, record it (conditional on the version read and a free lease),
 * and run it. A request whose Idempotency-Key the order already recorded gets the order as it
 * is, after its own earlier attempt is finished.
 */
export async function changeOrder(
  platform: Platform,
  storeId: string,
  orderId: string,
  request: RequestRef | null,
  plan: (order: OrderDocument, keys: Keys) => Promise<Plan>,
): Promise<OrderDocument> {
  const wait = waitForOrder();
  return waitForHolder(async () => {
    const order = await loadOrder(platform, storeId, orderId);
    const seen = request ? (order.requests ?? []).find((r) => r.id === request.id) : undefined;
    if (seen && seen.hash !== request!.hash) throw keyReused();
    if (order.pending_op) return finishOther(platform, order);
    if (seen) return { done: order };
    const id = new ObjectId().toHexString();
    const planned = await plan(order, keysFor(id));
    const now = platform.clock.now();
    const op = newChange(planned, id, request, now);
    const held = await claimLease(
      orders(platform.db),
      orderLease(platform),
      now,
      { _id: order._id, store_id: order.store_id, version: order.version, pending_op: null },
      {
        set: { ...planned.set, pending_op: op, pending_since: now, requests: [...(order.requests ?? []), ...(request ? [request] : [])], updated_at: now },
        inc: { version: 1 },
      },
    );
    if (!held) {
      if (wait.clock.now() > wait.deadline) throw new PlatformError('conflict', 'edit_conflict', 'The order kept changing; retry');
      return 'again'; // changed since it was read: plan again on the new version
    }
    const outcome = await runChange(platform, held, 'own');
    if (outcome.kind === 'committed') return { done: outcome.order };
    if (outcome.kind === 'undone') throw failureError(outcome.failure);
    return { done: await awaitOutcome(platform, storeId, held._id, op, wait) };
  }, wait);
}

/**
 * Make a new order: inserted already leased and marked `creating`, with its change (holds:
 * the coupon's use and the stock commitments; effects: the customer's counts and the payment
 * record), which then runs. Resolves to the order made; a refused hold undoes the others,
 * deletes the order and is answered as its error.
 *
 * The insert is the claim on the request key (`store_id_request_key_unique`): when another
 * attempt of the same request id got there first, nothing is written and the answer is that
 * attempt's order once it is made (`taken()` when it was another request: findCreation); if it
 * was undone meanwhile, this one tries again.
 */
export async function createAndRun(
  platform: Platform,
  doc: Omit<OrderDocument, 'pending_op' | 'pending_since' | 'lease_until' | 'lease_owner'>,
  plan: Plan,
  changeId: string,
  request: RequestRef | null,
  taken: () => PlatformError = keyReused,
): Promise<OrderDocument> {
  const now = platform.clock.now();
  const op = newChange(plan, changeId, request, now);
  const order: OrderDocument = { ...doc, pending_op: op, pending_since: now, ...leaseFields(orderLease(platform), now) };
  for (let attempt = 1; ; attempt++) {
    try {
      await orders(platform.db).insertOne(order);
      break;
    } catch (err) {
      if (!request || !isDuplicateKeyError(err)) throw err;
    }
    const other = await findCreation(platform, doc.store_id.toHexString(), request, taken);
    if (other) return other;
    if (attempt === 3) throw orderBusy();
  }
  const outcome = await runChange(platform, order, 'own');
  if (outcome.kind === 'committed') return outcome.order;
  if (outcome.kind === 'undone') throw failureError(outcome.failure);
  return awaitOutcome(platform, doc.store_id.toHexString(), order._id, op, waitForOrder());
}

/**
 * The order an earlier attempt of this request made (its Idempotency-Key's id), once any
 * change left on it is finished: a creation its process did not get to decide is undone, and
 * then there is none. When another request made it (the same id, another hash: the key with
 * another body, or another checkout of the cart) the answer is `taken()`, by default 409
 * `idempotency_key_reused`.
 */
export async function findCreation(
  platform: Platform,
  storeId: string,
  request: RequestRef,
  taken: () => PlatformError = keyReused,
): Promise<OrderDocument | null> {
  const order = await findMade(platform, storeId, request.id);
  if (order && !madeBy(order, request)) throw taken();
  return order;
}

/**
 * The order made under this request id (by whichever request), once any change left on it is
 * finished (waiting for it while its process holds it, up to WAIT_FOR_ORDER_MS: 409 order_busy);
 * null when there is none, or its creation was undone.
 */
export async function findMade(platform: Platform, storeId: string, requestId: string): Promise<OrderDocument | null> {
  return waitForHolder<OrderDocument | null>(async () => {
    const order = await orders(platform.db).findOne({ store_id: new ObjectId(storeId), request_key: requestId });
    return order?.pending_op ? finishOther(platform, order) : { done: order };
  }, waitForOrder());
}

/** Whether this request (its id and body hash) is the one that made the order. */
export const madeBy = (order: OrderDocument, request: RequestRef) => (order.requests ?? []).some((r) => r.id === request.id && r.hash === request.hash);

export const keyReused = () => new PlatformError('conflict', 'idempotency_key_reused', 'This Idempotency-Key was already used with a different request body');

/** The store's order, made (not one being created), or 404. */
export async function loadOrder(platform: Platform, storeId: string, orderId: string): Promise<OrderDocument> {
  const id = parseObjectId(orderId);
  const doc = id ? await orders(platform.db).findOne({ _id: id, store_id: new ObjectId(storeId) }) : null;
  if (!doc || doc.creating) throw notFound('Order');
  return doc;
}

/** Another change is under way: wait while its lease runs (`held`), or finish it if its process stopped, then look again. */
async function finishOther(platform: Platform, order: OrderDocument): Promise<Look<never>> {
  const now = platform.clock.now();
  if (leaseHeld(order, now)) return 'held';
  const taken = await claimLease(orders(platform.db), orderLease(platform), now, { _id: order._id, 'pending_op.id': order.pending_op!.id });
  if (taken) await runChange(platform, taken, 'takeover');
  return 'again';
}

/**
 * This request lost its lease to another process (it stopped too long between two steps),
 * which finishes the change: wait for it, then answer with the order if the change landed.
 */
async function awaitOutcome(platform: Platform, storeId: string, orderId: ObjectId, op: PendingChange, wait: HolderWait): Promise<OrderDocument> {
  return waitForHolder(async () => {
    const order = await orders(platform.db).findOne({ _id: orderId, store_id: new ObjectId(storeId) });
    if (order?.pending_op?.id === op.id) return finishOther(platform, order);
    if (order && !order.creating && landed(order, op)) return { done: order };
    throw orderBusy();
  }, wait);
}

function landed(order: OrderDocument, op: PendingChange): boolean {
  switch (op.kind) {
    case 'create':
      return true;
    case 'fulfil':
      return order.fulfillments.some((f) => f._id.equals(op.subject_id!));
    case 'refund':
    case 'cancel':
      return order.refunds.some((r) => r._id.equals(op.subject_id!));
    case 'pay':
      return order.financial_status !== 'pending';
    case 'claim':
      return order.customer_id !== null;
  }
}

/**
 * Run the change recorded on an order whose lease this process holds: the holds (undone if
 * one fails), the decision, the effects, the events, the settlement. Every write on the order
 * is conditional on the lease held, so a process that lost it changes nothing more there; its
 * steps elsewhere are safe to repeat, or voided by the process that undid them.
 */
export async function runChange(platform: Platform, held: OrderDocument, mode: Mode): Promise<Outcome> {
  const owner = platform.process.id;
  const fence: Filter<OrderDocument> = { ...heldBy({ _id: held._id, lease_until: held.lease_until }, owner), 'pending_op.id': held.pending_op!.id };
  const fenced = (update: UpdateFilter<OrderDocument>) => orders(platform.db).findOneAndUpdate(fence, update, { returnDocument: 'after' });
  let order = held;
  try {
    let op = order.pending_op!;
    const applied = new Map<string, LevelView>();
    if (op.state === 'applying') {
      // A creation nobody is waiting for any more is undone; any other change is finished.
      let failure: Failure | null = null;
      if (!(mode === 'takeover' && op.kind === 'create')) {
        for (const hold of op.holds) {
          const result = await applyStep(platform, order, hold);
          if (result.outcome === 'voided') return { kind: 'lost' };
          if (result.outcome === 'refused') {
            failure = result.failure;
            break;
          }
          if (hold.type === 'stock' && result.level) applied.set(hold.key, result.level);
        }
      }
      const undo = failure !== null || (mode === 'takeover' && op.kind === 'create');
      const next = undo ? await fenced({ $set: { 'pending_op.state': 'undoing', 'pending_op.failure': failure } }) : await decide(platform, order, fenced);
      if (!next) return { kind: 'lost' };
      order = next;
      op = next.pending_op!;
    }
    if (op.state === 'undoing') return await undoHolds(platform, order, fence, mode === 'takeover');
    return await complete(platform, order, fence, applied);
  } catch (err) {
    await recoverFromFault(platform, order, fence, mode, err);
    throw err;
  }
}

/**
 * A step failed for a reason of ours (the database, a bug). A creation not decided yet is undone
 * now if possible (so a failed create leaves nothing); anything else is left for a retry with
 * the same Idempotency-Key or the sweep: this request gives its lease back. The sweep keeps the
 * lease of a change it could not finish, so it tries other orders first.
 */
async function recoverFromFault(platform: Platform, order: OrderDocument, fence: Filter<OrderDocument>, mode: Mode, err: unknown): Promise<void> {
  platform.log.error({
    event: 'orders.change_failed',
    order_id: order._id.toHexString(),
    kind: order.pending_op?.kind,
    mode,
    err: err instanceof Error ? err.message : String(err),
  });
  if (mode === 'takeover') return;
  try {
    const current = await orders(platform.db).findOne(fence);
    if (!current) return;
    if (current.pending_op!.kind === 'create' && current.pending_op!.state !== 'committed') {
      const undoing = await orders(platform.db).findOneAndUpdate(fence, { $set: { 'pending_op.state': 'undoing' } }, { returnDocument: 'after' });
      if (undoing) await undoHolds(platform, undoing, fence, true);
      return;
    }
    await releaseLeases(orders(platform.db), [{ _id: current._id, lease_until: current.lease_until }], platform.process.id);
  } catch (again) {
    platform.log.error({
      event: 'orders.change_left_to_sweep',
      order_id: order._id.toHexString(),
      err: again instanceof Error ? again.message : String(again),
    });
  }
}

/** The change's holds are all in: record the decision (a creation takes its number now, so refused orders take none). */
async function decide(
  platform: Platform,
  order: OrderDocument,
  fenced: (u: UpdateFilter<OrderDocument>) => Promise<OrderDocument | null>,
): Promise<OrderDocument | null> {
  if (order.pending_op!.kind !== 'create') return fenced({ $set: { 'pending_op.state': 'committed' } });
  const counter = await orderCounters(platform.db)
    .findOneAndUpdate({ _id: order.store_id }, { $inc: { next: 1 } }, { upsert: true, returnDocument: 'after' })
    .catch(async (err: unknown) => {
      // A store's first two orders race on the counter's upsert; the loser counts as an update.
      if (!isDuplicateKeyError(err)) throw err;
      return orderCounters(platform.db).findOneAndUpdate({ _id: order.store_id }, { $inc: { next: 1 } }, { returnDocument: 'after' });
    });
  return fenced({ $set: { 'pending_op.state': 'committed', creating: false, number: FIRST_ORDER_NUMBER - 1 + (counter?.next ?? 1) } });
}

/** Undo the holds (last first) and withdraw the change: a creation's order is deleted, a fulfilment taken off the order. */
async function undoHolds(platform: Platform, order: OrderDocument, fence: Filter<OrderDocument>, voiding: boolean): Promise<Outcome> {
  const op = order.pending_op!;
  const storeId = order.store_id.toHexString();
  for (const hold of [...op.holds].reverse()) {
    if (hold.type === 'stock') await undoStockChange(platform, storeId, stockChange(order, hold), { void: voiding });
    else if (hold.type === 'coupon') await undoCouponRedemption(platform, storeId, redemption(order, hold), { void: voiding });
  }
  if (op.kind === 'create') {
    const deleted = await orders(platform.db).deleteOne(fence);
    return deleted.deletedCount === 1 ? { kind: 'undone', order: null, failure: op.failure } : { kind: 'lost' };
  }
  const fulfillment = order.fulfillments.find((f) => f._id.equals(op.subject_id!));
  const lines = order.line_items.map((l) => ({
    ...l,
    fulfilled_quantity: l.fulfilled_quantity - (fulfillment?.line_items.find((x) => x.line_item_id.equals(l._id))?.quantity ?? 0),
  }));
  const withdrawn = await orders(platform.db).findOneAndUpdate(
    settlement({ _id: order._id, lease_until: order.lease_until }, platform.process.id, {}, { 'pending_op.id': op.id }).filter,
    {
      // Whole arrays written back under the lease: FerretDB's $pull removes only exact values.
      $set: {
        line_items: lines,
        fulfillments: order.fulfillments.filter((f) => !f._id.equals(op.subject_id!)),
        fulfillment_status: fulfillmentStatusOf(lines),
        requests: (order.requests ?? []).filter((r) => r.id !== op.request_id),
        pending_op: null,
        pending_since: null,
        updated_at: platform.clock.now(),
        ...NO_LEASE,
      },
      $inc: { version: 1 },
    },
    { returnDocument: 'after' },
  );
  return withdrawn ? { kind: 'undone', order: withdrawn, failure: op.failure } : { kind: 'lost' };
}

/** The decided change: announce its holds, apply its effects, record its events, settle. */
async function complete(platform: Platform, order: OrderDocument, fence: Filter<OrderDocument>, applied: Map<string, LevelView>): Promise<Outcome> {
  const op = order.pending_op!;
  const storeId = order.store_id.toHexString();
  // The stock held before the decision is announced now (a change undone is never announced).
  // Events recorded together go to the database together (group commit).
  const announceHolds = () =>
    Promise.all(
      op.holds.map(async (hold) => {
        if (hold.type !== 'stock') return;
        const level = applied.get(hold.key) ?? (await readStockLevel(platform, storeId, stockChange(order, hold)));
        if (level) await announceStockChange(platform, storeId, level, stockChange(order, hold));
      }),
    );
  if (op.effects.length === 0) await Promise.all([announceHolds(), announceChange(platform, order, op)]);
  else await announceHolds();
  for (const effect of op.effects) {
    // A process that stopped here and was taken over must not repeat a step the other finished
    // (whose key may be cleared already): it checks that it still holds the order first.
    if (!(await orders(platform.db).findOne(fence, { projection: { _id: 1 } }))) return { kind: 'lost' };
    const result = await applyStep(platform, order, effect);
    if (result.outcome !== 'applied') throw new Error(`order ${order._id.toHexString()}: effect ${effect.type} ${result.outcome}`);
    if (effect.type === 'stock' && result.level) await announceStockChange(platform, storeId, result.level, stockChange(order, effect));
  }
  if (op.effects.length > 0) await announceChange(platform, order, op);
  const settle = settlement<OrderDocument>(
    { _id: order._id, lease_until: order.lease_until },
    platform.process.id,
    { $set: { pending_op: null, pending_since: null }, $inc: { version: 1 } },
    { 'pending_op.id': op.id },
  );
  const settled = await orders(platform.db).findOneAndUpdate(settle.filter, settle.update, { returnDocument: 'after' });
  if (!settled) return { kind: 'lost' };
  await clearKeys(platform, order, op).catch((err: unknown) => {
    // Left keys change nothing: each names a step of this change only, which is done.
    platform.log.warn({ event: 'orders.keys_not_cleared', order_id: order._id.toHexString(), err: err instanceof Error ? err.message : String(err) });
  });
  return { kind: 'committed', order: settled };
}

export const fulfillable = (l: OrderDocument['line_items'][number]) => Math.max(0, l.quantity - l.fulfilled_quantity - l.refunded_quantity);

export function fulfillmentStatusOf(lines: OrderDocument['line_items']): OrderDocument['fulfillment_status'] {
  const shipped = lines.some((l) => l.fulfilled_quantity > 0);
  // Nothing shipped and nothing left to ship (all refunded first) is not "fulfilled".
  if (!shipped) return 'unfulfilled';
  return lines.every((l) => fulfillable(l) === 0) ? 'fulfilled' : 'partial';
}

/**
 * The maintenance sweep: finish (or, for a creation not yet decided, undo) every order change
 * whose process stopped (its lease ran out), oldest first. Resolves to how many it took up.
 */
export async function repairOrders(platform: Platform): Promise<number> {
  let taken = 0;
  for (; taken < SWEEP_BATCH; taken++) {
    const now = platform.clock.now();
    const held = await claimLease(
      orders(platform.db),
      orderLease(platform),
      now,
      { pending_since: { $lte: now }, pending_op: { $ne: null } },
      { sort: { pending_since: 1 } },
    );
    if (!held) break;
    const outcome = await runChange(platform, held, 'takeover').catch(() => null);
    platform.log.info({ event: 'orders.change_repaired', order_id: held._id.toHexString(), kind: held.pending_op!.kind, outcome: outcome?.kind ?? 'failed' });
  }
  return taken;
}
