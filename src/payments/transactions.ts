import { ObjectId } from 'mongodb';
import { isDuplicateKeyError } from '../db.js';
import { PlatformError } from '../errors.js';
import type { Platform } from '../platform.js';
import { presentTransaction, type PaymentTransactionView } from './present.js';
import { RecordTransactionInput } from './schemas.js';
import { paymentTransactions, type PaymentTransactionDocument } from './models.js';

/**
 * Record a payment transaction of an order (for the orders domain). Input is validated here
 * too: it is called by code, but a bad amount must never reach the ledger. With an `id`, the
 * call is safe to repeat: a transaction already recorded under that id is returned (and its
 * event recorded if an earlier attempt stopped before it).
 *
 * A step of an order change (src/orders/changes.ts), keyed by the order step and completed by
 * the orders repair sweep: its plain emit is re-run with the step, so it is not carried by the
 * write (docs/events.md, "Every committed change, once").
 */
export async function recordPaymentTransaction(platform: Platform, storeId: string, input: RecordTransactionInput): Promise<PaymentTransactionView> {
  const parsed = RecordTransactionInput.safeParse(input);
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => `${['transaction', ...i.path.map(String)].join('.')}: ${i.message}`);
    throw new PlatformError('invalid_data', 'invalid_input', 'The payment transaction is invalid', { details });
  }
  const { id, order_id: orderId, ...fields } = parsed.data;
  let doc: PaymentTransactionDocument = {
    _id: id ? new ObjectId(id) : new ObjectId(),
    store_id: new ObjectId(storeId),
    order_id: new ObjectId(orderId),
    ...fields,
    created_at: platform.clock.now(),
  };
  try {
    await paymentTransactions(platform.db).insertOne(doc);
  } catch (err) {
    const first = id && isDuplicateKeyError(err) ? await paymentTransactions(platform.db).findOne({ _id: doc._id, store_id: doc.store_id }) : null;
    if (!first) throw err;
    doc = first;
  }
  const view = presentTransaction(doc);
  await platform.events.emit('payment_transaction.created', doc.store_id, { payment_transaction: view }, `payment_transaction.created:${view.id}`);
  return view;
}
