import { ObjectId } from 'mongodb';
import { notFound } from '../errors.js';
import { parseObjectId } from '../ids.js';
import type { Platform } from '../platform.js';
import { presentCustomer, type CustomerView } from './present.js';
import { CustomerOrderRecord } from './schemas.js';
import { customers } from './models.js';

/**
 * For the orders domain: count an order against its customer and add an amount (integer minor
 * units of the customer's currency: what was paid, negative for a refund) to total_spent, in
 * one single-document `$inc`. `key` names the order step: it is pushed in the same update, so
 * a step retried after a crash finds it and counts nothing twice (the order clears it with
 * clearCustomerKey once the step is recorded). Emits customer.updated (idempotent on the key).
 * 404 when the customer is not in the store.
 *
 * A step of an order change (src/orders/changes.ts): its plain emit is completed by the
 * orders repair sweep, which re-runs the step with the same key (docs/orders.md), so it does
 * not carry its event on the customer document.
 */
export async function recordCustomerOrder(platform: Platform, storeId: string, customerId: string, record: CustomerOrderRecord): Promise<CustomerView> {
  const parsed = CustomerOrderRecord.safeParse(record);
  if (!parsed.success) throw new Error(`recordCustomerOrder: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const { key, amount, countDelta } = parsed.data;
  const id = parseObjectId(customerId);
  if (!id) throw notFound('Customer');
  const scope = { _id: id, store_id: new ObjectId(storeId) };
  const doc =
    (await customers(platform.db).findOneAndUpdate(
      { ...scope, pending_ops: { $ne: key } },
      { $inc: { orders_count: countDelta, total_spent: amount, version: 1 }, $set: { updated_at: platform.clock.now() }, $push: { pending_ops: key } },
      { returnDocument: 'after' },
    )) ??
    // Counted by an earlier attempt of the same step (its key is there), or no such customer.
    (await customers(platform.db).findOne({ ...scope, pending_ops: key }));
  if (!doc) throw notFound('Customer');
  const view = presentCustomer(doc);
  const changed = countDelta ? ['orders_count', 'total_spent'] : ['total_spent'];
  await platform.events.emit('customer.updated', doc.store_id, { customer: view, changed }, `customer.updated:${view.id}:${key}`);
  return view;
}
