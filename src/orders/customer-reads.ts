import { ObjectId } from 'mongodb';
import { notFound } from '../errors.js';
import { parseObjectId } from '../ids.js';
import { afterCursor, type Page, findPage, pageDirection } from '../pagination.js';
import type { Platform } from '../platform.js';
import { hashToken, sameSecret } from '../secrets/index.js';
import { presentCustomerOrder, presentOrder, type CustomerOrderView, type OrderView } from './present.js';
import { orders } from './models.js';

/** A storefront customer's own orders (their customer id, in their store), newest last, as the customer sees them. */
export async function listCustomerOrders(
  platform: Platform,
  storeId: string,
  customerId: string,
  page: Page,
): Promise<{ items: CustomerOrderView[]; nextCursor: string | null }> {
  const { items, nextCursor } = await findPage(
    orders(platform.db),
    { store_id: new ObjectId(storeId), customer_id: new ObjectId(customerId), creating: { $ne: true }, ...afterCursor(page) },
    page.limit,
    pageDirection(page),
  );
  return { items: items.map(presentCustomerOrder), nextCursor };
}

/** One of the customer's own orders; another customer's (or store's) order is 404, as one that does not exist. */
export async function getCustomerOrder(platform: Platform, storeId: string, customerId: string, orderId: string): Promise<CustomerOrderView> {
  const id = parseObjectId(orderId);
  const doc = id
    ? await orders(platform.db).findOne({ _id: id, store_id: new ObjectId(storeId), customer_id: new ObjectId(customerId), creating: { $ne: true } })
    : null;
  if (!doc) throw notFound('Order');
  return presentCustomerOrder(doc);
}

/**
 * Whether the customer bought the product in this store: an order of theirs with a line of the
 * product, paid (or partly refunded), and not cancelled. What a customer review requires.
 */
export async function customerBoughtProduct(platform: Pick<Platform, 'db'>, storeId: string, customerId: string, productId: string): Promise<boolean> {
  const product = parseObjectId(productId);
  if (!product) return false;
  const found = await orders(platform.db).findOne(
    {
      store_id: new ObjectId(storeId),
      customer_id: new ObjectId(customerId),
      'line_items.product_id': product,
      financial_status: { $in: ['paid', 'partially_refunded'] },
      cancelled_at: { $in: [null] },
      creating: { $ne: true },
    },
    { projection: { _id: 1 } },
  );
  return found !== null;
}

/** What a storefront caller shows to act on an order as its shopper (docs/storefront.md, Payments). */
export type ShopperProof = {
  /** The payment secret the order's checkout answered (`emp_ps_…`). */
  secret: string | null;
  /** The signed-in customer (their session was checked), for an order of theirs. */
  customerId: string | null;
};

/**
 * The store's order, if the proof is its shopper's: the payment secret issued to the checkout
 * that made it (its hash compared in constant time with the one kept), or the session of the
 * customer it is for. Any other proof, and an order that does not exist, is the same 404.
 */
export async function getShopperOrder(platform: Platform, storeId: string, orderId: string, proof: ShopperProof): Promise<OrderView> {
  const id = parseObjectId(orderId);
  const doc = id ? await orders(platform.db).findOne({ _id: id, store_id: new ObjectId(storeId), creating: { $ne: true } }) : null;
  const bySecret = proof.secret !== null && !!doc?.payment_secret_hash && sameSecret(hashToken(proof.secret), doc.payment_secret_hash);
  const byCustomer = proof.customerId !== null && !!doc?.customer_id && doc.customer_id.toHexString() === proof.customerId;
  if (!doc || !(bySecret || byCustomer)) throw notFound('Order');
  return presentOrder(doc);
}
