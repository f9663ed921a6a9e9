import { ObjectId } from 'mongodb';
import { findVariants, type VariantRef } from '../catalog/index.js';
import { evaluateCoupon, type CouponRefusal } from '../coupons/index.js';
import { PlatformError, invalidInput, notFound, type InputIssue } from '../errors.js';
import { carrying, type PendingEvent } from '../events/index.js';
import { activeLocationIds, availableAt } from '../inventory/index.js';
import type { Platform } from '../platform.js';
import { generateToken, hashToken } from '../secrets/index.js';
import { claimLease, NO_LEASE, releaseLeases, type Held, type Lease } from '../work/lease.js';
import { CART_TOKEN_PREFIX, MAX_CART_LINES, type CartChanges } from './schemas.js';
import { carts, type CartDocument, type CartLineDocument, type CheckoutDetails } from './models.js';
import { stamps } from '../allow-list.js';

const DAY_MS = 24 * 3600 * 1000;

/** Why a line cannot be bought as it stands; it stays in the cart, reported, until the shopper changes it. */
export type CartLineProblem = 'deleted' | 'unpublished' | 'out_of_stock';

/** One line, priced now from the catalog. `unit_price` is null only when the variant is gone. */
export type PricedCartLine = {
  variant_id: string;
  product_id: string | null;
  product_title: string | null;
  variant_title: string | null;
  quantity: number;
  unit_price: number | null;
  /** unit_price × quantity; 0 for a line with a problem (it is not in the subtotal). */
  line_total: number;
  problem: CartLineProblem | null;
  /** What Checkout Functions read of the product (never shown in the cart's answer). */
  sku: string | null;
  product_type: string | null;
  vendor: string | null;
  tags: string[];
};

export type PricedCoupon = { code: string; applicable: true; coupon_id: string; discount: number } | { code: string; applicable: false; reason: CouponRefusal };

/** A cart as the catalog and coupon rules price it at this moment (what checkout charges from). */
export type PricedCart = {
  id: string;
  store_id: string;
  version: number;
  currency: string;
  lines: PricedCartLine[];
  item_count: number;
  coupon: PricedCoupon | null;
  /** Sum of the line totals of lines without a problem, in minor units. */
  subtotal: number;
  /** The coupon's discount on the subtotal (0 without an applicable coupon). */
  discount: number;
  total: number;
  /** Every line can be bought and there is at least one. */
  purchasable: boolean;
  expires_at: string;
  created_at: string;
  updated_at: string;
};

type CartStore = { id: string; currency: string };

const liveFilter = (platform: Platform, storeId: string, token: string) => ({
  token_hash: hashToken(token),
  store_id: new ObjectId(storeId),
  consumed_at: null,
  expires_at: { $gt: platform.clock.now() },
});

async function loadCart(platform: Platform, storeId: string, token: string | undefined): Promise<CartDocument> {
  // A token of another shape cannot be a cart's: not found, like an unknown, expired or other store's one.
  const doc = token?.startsWith(`${CART_TOKEN_PREFIX}_`) ? await carts(platform.db).findOne(liveFilter(platform, storeId, token)) : null;
  if (!doc) throw notFound('Cart');
  return doc;
}

/** The contact and address the shop's checkout took for this cart (docs/shop.md), or null; a cart that is not live is not found. */
export async function checkoutDetails(platform: Platform, storeId: string, token: string | undefined): Promise<CheckoutDetails | null> {
  return (await loadCart(platform, storeId, token)).checkout_details ?? null;
}

/** Keep the shop checkout's contact and address with the cart (not a change of its lines: the version stays). */
export async function saveCheckoutDetails(platform: Platform, storeId: string, token: string | undefined, details: CheckoutDetails): Promise<void> {
  const doc = await loadCart(platform, storeId, token);
  await carts(platform.db).updateOne({ _id: doc._id, consumed_at: null }, { $set: { checkout_details: details } });
}

/** Stock at the store's active locations of the tracked, never-oversold variants among these. */
async function stockOf(platform: Platform, storeId: string, refs: readonly VariantRef[]): Promise<Map<string, number>> {
  const tracked = refs.filter((r) => r.inventory_tracked && r.inventory_policy === 'deny').map((r) => r.variant_id);
  const out = new Map<string, number>();
  if (tracked.length === 0) return out;
  const levels = await availableAt(platform, storeId, tracked, await activeLocationIds(platform, storeId));
  for (const id of tracked)
    out.set(
      id,
      [...(levels.get(id)?.values() ?? [])].reduce((a, b) => a + Math.max(0, b), 0),
    );
  return out;
}

/** Reprice a cart from the catalog, stock and coupon rules as they are now. */
async function priceCart(platform: Platform, store: CartStore, doc: CartDocument): Promise<PricedCart> {
  const ids = doc.lines.map((l) => l.variant_id.toHexString());
  const refs = await findVariants(platform, store.id, ids);
  const stock = await stockOf(platform, store.id, [...refs.values()]);
  const lines = doc.lines.map((l): PricedCartLine => {
    const id = l.variant_id.toHexString();
    const ref = refs.get(id);
    if (!ref)
      return {
        variant_id: id,
        product_id: null,
        product_title: null,
        variant_title: null,
        quantity: l.quantity,
        unit_price: null,
        line_total: 0,
        problem: 'deleted',
        sku: null,
        product_type: null,
        vendor: null,
        tags: [],
      };
    const problem: CartLineProblem | null =
      ref.product_status !== 'active' || ref.currency !== store.currency ? 'unpublished' : stock.has(id) && stock.get(id)! < l.quantity ? 'out_of_stock' : null;
    return {
      variant_id: id,
      product_id: ref.product_id,
      product_title: ref.product_title,
      variant_title: ref.variant_title,
      quantity: l.quantity,
      unit_price: ref.price,
      line_total: problem ? 0 : ref.price * l.quantity,
      problem,
      sku: ref.sku,
      product_type: ref.product_type,
      vendor: ref.vendor,
      tags: ref.tags,
    };
  });
  const subtotal = lines.reduce((sum, l) => sum + l.line_total, 0);
  let coupon: PricedCoupon | null = null;
  if (doc.coupon_code !== null) {
    const evaluation = await evaluateCoupon(platform, store.id, doc.coupon_code, { subtotal, shipping: 0, currency: store.currency });
    coupon = evaluation.applicable
      ? { code: doc.coupon_code, applicable: true, coupon_id: evaluation.coupon.id, discount: evaluation.discount.subtotal }
      : { code: doc.coupon_code, applicable: false, reason: evaluation.reason };
  }
  const discount = coupon?.applicable ? coupon.discount : 0;
  return {
    id: doc._id.toHexString(),
    store_id: store.id,
    version: doc.version,
    currency: store.currency,
    lines,
    item_count: lines.reduce((n, l) => n + l.quantity, 0),
    coupon,
    subtotal,
    discount,
    total: subtotal - discount,
    purchasable: lines.length > 0 && lines.every((l) => l.problem === null),
    expires_at: doc.expires_at.toISOString(),
    ...stamps(doc),
  };
}

/**
 * Apply set-semantics line changes (quantity 0 removes; a new variant is appended, an existing
 * one gets the new quantity). A new line must name a published variant of this store.
 */
async function applyChanges(platform: Platform, store: CartStore, current: CartLineDocument[], changes: CartChanges): Promise<CartLineDocument[]> {
  if (changes.lines === undefined) return current;
  const lines = current.map((l) => ({ ...l }));
  const known = new Set(lines.map((l) => l.variant_id.toHexString()));
  const added = changes.lines.filter((c) => c.quantity > 0 && !known.has(c.variant_id));
  const refs = await findVariants(
    platform,
    store.id,
    added.map((c) => c.variant_id),
  );
  const issues: InputIssue[] = [];
  changes.lines.forEach((change, i) => {
    const index = lines.findIndex((l) => l.variant_id.toHexString() === change.variant_id);
    if (change.quantity === 0) {
      if (index >= 0) lines.splice(index, 1);
    } else if (index >= 0) {
      lines[index]!.quantity = change.quantity;
    } else {
      const ref = refs.get(change.variant_id);
      if (!ref || ref.product_status !== 'active') issues.push({ path: `lines.${i}.variant_id`, message: 'is not a variant for sale in this store' });
      else lines.push({ variant_id: new ObjectId(change.variant_id), quantity: change.quantity });
    }
  });
  if (issues.length > 0) throw invalidInput(issues);
  if (lines.length > MAX_CART_LINES) throw invalidInput([{ path: 'lines', message: `a cart holds at most ${MAX_CART_LINES} lines` }]);
  return lines;
}

/** A new cart; its token is returned here once and only its SHA-256 is stored. */
export async function createCart(platform: Platform, store: CartStore, changes: CartChanges): Promise<{ token: string; cart: PricedCart }> {
  const now = platform.clock.now();
  const { token, hash } = generateToken(CART_TOKEN_PREFIX);
  const doc: CartDocument = {
    _id: new ObjectId(),
    store_id: new ObjectId(store.id),
    token_hash: hash,
    lines: await applyChanges(platform, store, [], changes),
    coupon_code: changes.coupon_code ?? null,
    version: 1,
    created_at: now,
    updated_at: now,
    expires_at: new Date(now.getTime() + platform.config.storefront.cartIdleDays * DAY_MS),
    consumed_at: null,
    ...NO_LEASE,
  };
  await carts(platform.db).insertOne(doc);
  return { token, cart: await priceCart(platform, store, doc) };
}

/** The live cart with this token in this store, repriced now; 404 when unknown, expired, consumed or another store's. */
export async function loadPricedCart(platform: Platform, store: CartStore, token: string | undefined): Promise<PricedCart> {
  return priceCart(platform, store, await loadCart(platform, store.id, token));
}

export type CartUpdate = { outcome: 'updated'; cart: PricedCart } | { outcome: 'conflict'; cart: PricedCart };

/**
 * Change a cart, conditional on the version the client read: when another change came first
 * the answer is a conflict carrying the cart as it is now, and nothing is written.
 */
export async function updateCart(platform: Platform, store: CartStore, token: string | undefined, version: number, changes: CartChanges): Promise<CartUpdate> {
  const doc = await loadCart(platform, store.id, token);
  if (underCheckout(platform, doc)) throw checkoutInProgress();
  if (doc.version !== version) return { outcome: 'conflict', cart: await priceCart(platform, store, doc) };
  const lines = await applyChanges(platform, store, doc.lines, changes);
  const now = platform.clock.now();
  const set = {
    lines,
    coupon_code: changes.coupon_code !== undefined ? changes.coupon_code : doc.coupon_code,
    updated_at: now,
    expires_at: new Date(now.getTime() + platform.config.storefront.cartIdleDays * DAY_MS),
  };
  const result = await carts(platform.db).updateOne(
    { _id: doc._id, version: doc.version, consumed_at: null, ...notHeld(now) },
    { $set: set, $inc: { version: 1 } },
  );
  if (result.matchedCount !== 1) {
    const current = await loadCart(platform, store.id, token);
    if (underCheckout(platform, current)) throw checkoutInProgress();
    return { outcome: 'conflict', cart: await priceCart(platform, store, current) };
  }
  return { outcome: 'updated', cart: await priceCart(platform, store, { ...doc, ...set, version: doc.version + 1 }) };
}

export async function discardCart(platform: Platform, storeId: string, token: string | undefined): Promise<void> {
  const doc = await loadCart(platform, storeId, token);
  const { deletedCount } = await carts(platform.db).deleteOne({ _id: doc._id, ...notHeld(platform.clock.now()) });
  // A live cart that was not deleted is held by a checkout (now, or since it was read).
  if (deletedCount !== 1) throw checkoutInProgress();
}

/** How long a checkout holds its cart; one whose process stopped lets go of it after this. */
export const CHECKOUT_LEASE_MS = 30_000;
const checkoutLease = (platform: Platform): Lease => ({ owner: platform.process.id, ms: CHECKOUT_LEASE_MS });
/** Nobody holds the cart: never held, given back, or run out. */
const notHeld = (now: Date) => ({ $or: [{ lease_until: null }, { lease_until: { $lte: now } }] });
const underCheckout = (platform: Platform, doc: CartDocument) => !!doc.lease_until && doc.lease_until > platform.clock.now();

export type CartClaim = { outcome: 'claimed'; cart: PricedCart; held: Held } | { outcome: 'held' } | { outcome: 'consumed' };

/**
 * Take the live cart with this token for a checkout: one conditional write, on a cart that is
 * live and held by no other checkout (src/work/lease.ts), so of concurrent checkouts of one
 * cart one proceeds. The cart is priced as claimed: nothing can change it while it is held.
 * `held` when another checkout holds it, `consumed` when a checkout made its order; not found
 * (404) when there is no live cart with this token in the store.
 */
export async function claimCartForCheckout(platform: Platform, store: CartStore, token: string | undefined): Promise<CartClaim> {
  if (!token?.startsWith(`${CART_TOKEN_PREFIX}_`)) throw notFound('Cart');
  const claimed = await claimLease(carts(platform.db), checkoutLease(platform), platform.clock.now(), liveFilter(platform, store.id, token));
  if (claimed) return { outcome: 'claimed', cart: await priceCart(platform, store, claimed), held: claimed };
  const doc = await carts(platform.db).findOne({ token_hash: hashToken(token), store_id: new ObjectId(store.id) });
  if (doc?.consumed_at) return { outcome: 'consumed' };
  if (!doc || doc.expires_at <= platform.clock.now()) throw notFound('Cart');
  return { outcome: 'held' };
}

/** Give a cart back after its checkout made no order, if this process still holds it exactly as claimed. */
export async function releaseCartClaim(platform: Platform, held: Held): Promise<void> {
  await releaseLeases(carts(platform.db), [held], platform.process.id);
}

/** The order a checkout made of a cart: what `checkout.completed` carries. */
export type CheckedOutOrder = { id: string; total: number; currency: string };

/**
 * The cart has its order: mark it consumed (it then reads as not found), record the order on it,
 * end any checkout's hold, and record `checkout.completed` with the write. Conditional only on the
 * cart not being consumed yet, so the checkout that made the order, a later request that finds
 * the order, or the sweep finishes it, whichever comes first; the event is keyed by the order.
 * False when it was consumed already (or is gone).
 */
export async function consumeCart(platform: Platform, storeId: string, cartId: ObjectId, order: CheckedOutOrder): Promise<boolean> {
  const now = platform.clock.now();
  const pending: PendingEvent[] = [
    platform.events.pending(
      'checkout.completed',
      storeId,
      { order_id: order.id, cart_id: cartId.toHexString(), total: order.total, currency: order.currency },
      `checkout.completed:${order.id}`,
    ),
  ];
  const update = { $set: { consumed_at: now, updated_at: now, order_id: new ObjectId(order.id), ...NO_LEASE }, $inc: { version: 1 } };
  const result = await carts(platform.db).updateOne(
    { _id: cartId, store_id: new ObjectId(storeId), consumed_at: null },
    carrying<CartDocument>(update, pending),
  );
  if (result.matchedCount === 1) await platform.events.settle(carts(platform.db), cartId, pending);
  return result.matchedCount === 1;
}

/** The cart of this token hash in the store, live or not (checkout's recovery). */
export function findCartByTokenHash(platform: Platform, storeId: string, tokenHash: string): Promise<CartDocument | null> {
  return carts(platform.db).findOne({ token_hash: tokenHash, store_id: new ObjectId(storeId) });
}

/** Carts whose checkout's hold ran out before the cart was consumed (its process stopped), oldest first. */
export function findStrandedCheckouts(platform: Platform, limit: number): Promise<CartDocument[]> {
  return carts(platform.db)
    .find({ lease_until: { $lte: platform.clock.now() }, consumed_at: null })
    .sort({ lease_until: 1 })
    .limit(limit)
    .toArray();
}

/** Clear a hold that ran out on a cart that has no order, as it was read (a checkout that took it since keeps it). */
export async function clearStrandedClaim(platform: Platform, doc: CartDocument): Promise<void> {
  if (doc.lease_owner) await releaseLeases(carts(platform.db), [doc], doc.lease_owner);
}

/** A checkout holds the cart: it cannot be changed, discarded or checked out again meanwhile. */
export const checkoutInProgress = () =>
  new PlatformError(
    'conflict',
    'checkout_in_progress',
    'This cart is being checked out; it cannot change meanwhile. Retry shortly: it then has its order, or is free again if the checkout failed',
  );

/** Maintenance: remove carts past their idle expiry (consumed ones too, once they expire). */
export async function sweepExpiredCarts(platform: Platform): Promise<number> {
  const result = await carts(platform.db).deleteMany({ expires_at: { $lte: platform.clock.now() } });
  return result.deletedCount;
}

/** A stale PATCH: answered 409 with the current cart beside the error (routes.ts). */
export const cartConflict = () =>
  new PlatformError('conflict', 'cart_conflict', 'The cart changed since it was read; apply your change to the cart returned here');
