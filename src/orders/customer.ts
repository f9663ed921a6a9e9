import { ObjectId } from 'mongodb';
import { notFound } from '../errors.js';
import { parseObjectId } from '../ids.js';
import { afterCursor, pageOf, type Page } from '../pagination.js';
import type { Platform } from '../platform.js';
import { presentCustomerOrder, type CustomerOrderView } from './present.js';
import { orders } from './store.js';

/** A storefront customer's own orders (their customer id, in their store), newest last, as the customer sees them. */
export async function listCustomerOrders(platform: Platform, storeId: string, customerId: string, page: Page): Promise<{ items: CustomerOrderView[]; nextCursor: string | null }> {
  const docs = await orders(platform.db)
    .find({ store_id: new ObjectId(storeId), customer_id: new ObjectId(customerId), creating: { $ne: true }, ...afterCursor(page) })
    .sort({ _id: 1 })
    .limit(page.limit + 1)
    .toArray();
  const { items, nextCursor } = pageOf(docs, page.limit);
  return { items: items.map(presentCustomerOrder), nextCursor };
}

/** One of the customer's own orders; another customer's (or store's) order is 404, as one that does not exist. */
export async function getCustomerOrder(platform: Platform, storeId: string, customerId: string, orderId: string): Promise<CustomerOrderView> {
  const id = parseObjectId(orderId);
  const doc = id ? await orders(platform.db).findOne({ _id: id, store_id: new ObjectId(storeId), customer_id: new ObjectId(customerId), creating: { $ne: true } }) : null;
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
