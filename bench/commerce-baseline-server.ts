import { createHash } from 'node:crypto';
import Koa from 'koa';
import { MongoClient, ObjectId } from 'mongodb';
import { presentProduct } from '../src/catalog/present.js';
import type { ProductDocument } from '../src/catalog/models.js';
import { presentOrder } from '../src/orders/present.js';
import { priceOrder } from '../src/orders/pricing.js';
import type { LevelDocument } from '../src/inventory/models.js';
import type { OrderDocument } from '../src/orders/models.js';
import { rateFor, type TaxSettingsView } from '../src/taxes/index.js';

/**
 * The baseline for bench/commerce: a bare Koa app with no middleware and no validation,
 * making the same database calls as the platform routes and answering the same JSON:
 * - GET /v1/products?limit=&cursor=: session, merchant, owned store, one page of products;
 * - POST /v1/orders: session, merchant, owned store, the variants, the active locations, the
 *   tax table, the order insert (leased, being made), one conditional commitment per line at
 *   the location, the order counter, the decision, the events (one insert, then the other three
 *   together, as group commit writes them), the settlement and the clearing of the lines' step
 *   keys (pricing in the same integer arithmetic). The same calls as the platform's order with
 *   commitments (src/orders/operations.ts), without its checks.
 */
const client = await new MongoClient(process.env.MONGODB_URL!).connect();
const db = client.db(process.env.MONGODB_DB!);
const products = db.collection<ProductDocument>('products');
const app = new Koa();
app.use(async (ctx) => {
  const token = (ctx.get('authorization') ?? '').slice('Bearer '.length);
  const session = await db.collection('sessions').findOne({ token_hash: createHash('sha256').update(token).digest('hex'), expires_at: { $gt: new Date() } });
  const merchant = session && (await db.collection('merchants').findOne({ _id: session.merchant_id }));
  const store = merchant && (await db.collection('stores').findOne({ _id: new ObjectId(ctx.get('x-store-id')), owner_id: merchant._id }));
  if (!store) {
    ctx.status = 403;
    return;
  }
  if (ctx.method === 'POST') {
    ctx.status = 201;
    ctx.body = { data: await createOrder(store as unknown as { _id: ObjectId; currency: string }, JSON.parse(await readBody(ctx.req)) as OrderBody) };
    return;
  }
  const limit = Number(ctx.query.limit ?? 50);
  const cursor = typeof ctx.query.cursor === 'string' ? (JSON.parse(Buffer.from(ctx.query.cursor, 'base64url').toString()) as { id: string }) : null;
  const docs = await products
    .find({ store_id: store._id, ...(cursor ? { _id: { $gt: new ObjectId(cursor.id) } } : {}) })
    .sort({ _id: 1 })
    .limit(limit + 1)
    .toArray();
  const items = docs.slice(0, limit);
  const last = items[items.length - 1];
  const next =
    docs.length > limit && last ? Buffer.from(JSON.stringify({ v: last._id.toHexString(), id: last._id.toHexString() })).toString('base64url') : null;
  ctx.body = { data: items.map(presentProduct), page: { next_cursor: next } };
});
type OrderBody = { line_items: { variant_id: string; quantity: number }[]; shipping_address: { country_code: string; province_code?: string } };

async function readBody(req: NodeJS.ReadableStream): Promise<string> {
  let raw = '';
  for await (const chunk of req) raw += String(chunk);
  return raw;
}

async function createOrder(store: { _id: ObjectId; currency: string }, body: OrderBody) {
  const ids = body.line_items.map((l) => new ObjectId(l.variant_id));
  const docs = await products.find({ store_id: store._id, 'variants._id': { $in: ids } }, { projection: { title: 1, variants: 1 } }).toArray();
  const variantOf = (id: string) => {
    for (const d of docs) for (const v of d.variants) if (v._id.toHexString() === id) return { product: d, v };
    throw new Error('unknown variant');
  };
  const locations = await db
    .collection('inventory_locations')
    .find({ store_id: store._id, active: true }, { projection: { _id: 1 } })
    .sort({ _id: 1 })
    .limit(250)
    .toArray();
  const taxDoc = await db.collection('tax_settings').findOne({ store_id: store._id });
  const taxes = (taxDoc ?? { shipping_taxable: true, rates: [] }) as unknown as TaxSettingsView;
  const rate = rateFor(taxes, body.shipping_address);
  const at = locations[0]!._id;
  const lines = body.line_items.map((l) => {
    const { product, v } = variantOf(l.variant_id);
    return {
      _id: new ObjectId(),
      variant_id: v._id,
      product_id: product._id,
      title: product.title,
      variant_title: v.title,
      sku: v.sku,
      quantity: l.quantity,
      unit_price: v.price,
      discount: 0,
      tax: 0,
      total: 0,
      taxable: true,
      inventory_tracked: v.inventory_tracked,
      inventory_policy: v.inventory_policy,
      location_id: at,
      fulfilled_quantity: 0,
      refunded_quantity: 0,
    };
  });
  const pricing = priceOrder({
    lines,
    shipping: null,
    discount: { subtotal: 0, shipping: 0 },
    rateBps: rate.rate_bps,
    shippingTaxable: taxes.shipping_taxable,
  });
  pricing.lines.forEach((p, i) => Object.assign(lines[i]!, p));
  const now = new Date();
  const id = new ObjectId();
  const opId = new ObjectId().toHexString();
  const holds = lines.map((l, i) => ({
    type: 'stock' as const,
    key: `${opId}.${i}`,
    line: i,
    variant_id: l.variant_id,
    product_id: l.product_id,
    location_id: at,
    available: -l.quantity,
    committed: l.quantity,
    floor: true,
    reason: 'order_reserved' as const,
  }));
  const lease = { lease_until: new Date(now.getTime() + 30_000), lease_owner: 'baseline' };
  const order: OrderDocument = {
    _id: id,
    store_id: store._id,
    number: -Number.parseInt(id.toHexString().slice(12), 16),
    customer_id: null,
    email: null,
    currency: store.currency,
    line_items: lines,
    shipping_line: null,
    shipping_address: null,
    billing_address: null,
    coupon: null,
    tax_rate: { name: rate.name, rate_bps: rate.rate_bps },
    subtotal: pricing.subtotal,
    discount_total: 0,
    shipping_total: 0,
    tax_total: pricing.tax_total,
    total: pricing.total,
    paid_amount: 0,
    refunded_amount: 0,
    financial_status: 'pending',
    fulfillment_status: 'unfulfilled',
    fulfillments: [],
    refunds: [],
    cancelled_at: null,
    cancel_reason: null,
    note: null,
    source: 'admin',
    version: 1,
    creating: true,
    pending_op: { id: opId, kind: 'create', state: 'applying', holds, effects: [], subject_id: null, request_id: null, failure: null, started_at: now },
    pending_since: now,
    ...lease,
    requests: [],
    request_key: id.toHexString(),
    created_at: now,
    updated_at: now,
  };
  const orders = db.collection<OrderDocument>('orders');
  await orders.insertOne(order);
  const levels = db.collection<LevelDocument>('inventory_levels');
  const committed = [];
  for (const h of holds) {
    committed.push(
      await levels.findOneAndUpdate(
        {
          store_id: store._id,
          variant_id: h.variant_id,
          location_id: at,
          pending_ops: { $ne: h.key },
          voided_ops: { $ne: h.key },
          available: { $gte: -h.available },
        },
        { $inc: { available: h.available, committed: h.committed, version: 1 }, $set: { updated_at: now }, $push: { pending_ops: h.key } },
        { returnDocument: 'after' },
      ),
    );
  }
  const counter = await db
    .collection<{ _id: ObjectId; next: number }>('order_counters')
    .findOneAndUpdate({ _id: store._id }, { $inc: { next: 1 } }, { upsert: true, returnDocument: 'after' });
  const fence = { _id: id, ...lease, 'pending_op.id': opId };
  const decided = (await orders.findOneAndUpdate(
    fence,
    { $set: { 'pending_op.state': 'committed', creating: false, number: 1000 + (counter?.next ?? 1) } },
    { returnDocument: 'after' },
  ))!;
  const view = presentOrder(decided);
  const events = db.collection('events');
  const event = (type: string, payload: Record<string, unknown>, key: string) => ({
    _id: new ObjectId(),
    type,
    store_id: store._id,
    payload,
    idempotency_key: key,
    created_at: now,
    fanned_out_at: now,
  });
  const announced = committed.map((level, i) =>
    event(
      'inventory_level.updated',
      {
        inventory_level: { id: level!._id.toHexString(), available: level!.available },
        delta: holds[i]!.available,
        reason: 'order_reserved',
        order_id: view.id,
      },
      `inventory_level.updated:${level!._id.toHexString()}:${holds[i]!.key}`,
    ),
  );
  await events.insertOne(announced[0]!);
  await events.insertMany([...announced.slice(1), event('order.created', { order: view }, `order.created:${view.id}`)], { ordered: false });
  const settled = (await orders.findOneAndUpdate(
    fence,
    { $set: { pending_op: null, pending_since: null, lease_until: null, lease_owner: null }, $inc: { version: 1 } },
    { returnDocument: 'after' },
  ))!;
  await levels.updateMany(
    { store_id: store._id, variant_id: { $in: holds.map((h) => h.variant_id) }, location_id: { $in: [at] } },
    { $pullAll: { pending_ops: holds.map((h) => h.key) } },
  );
  return presentOrder(settled);
}

app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('ready'));
process.once('SIGTERM', () => process.exit(0)); // exit normally, so a --cpu-prof profile is written
