import { createHash } from 'node:crypto';
import Koa from 'koa';
import { MongoClient, ObjectId } from 'mongodb';
import { presentProduct } from '../src/catalog/present.js';
import type { ProductDocument } from '../src/catalog/store.js';
import { presentOrder } from '../src/orders/present.js';
import { priceOrder } from '../src/orders/pricing.js';
import type { OrderDocument } from '../src/orders/store.js';
import { rateFor, type TaxSettingsView } from '../src/taxes/index.js';

/**
 * The baseline for bench/commerce: a bare Koa app with no middleware and no validation,
 * making the same database calls as the platform routes and answering the same JSON:
 * - GET /v1/products?limit=&cursor=: session, merchant, owned store, one page of products;
 * - POST /v1/orders: session, merchant, owned store, the variants, the tax table, the order
 *   counter, the order insert and its event insert (pricing in the same integer arithmetic).
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
  const next = docs.length > limit && last ? Buffer.from(JSON.stringify({ v: last._id.toHexString(), id: last._id.toHexString() })).toString('base64url') : null;
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
  const taxDoc = await db.collection('tax_settings').findOne({ store_id: store._id });
  const taxes = (taxDoc ?? { shipping_taxable: true, rates: [] }) as unknown as TaxSettingsView;
  const rate = rateFor(taxes, body.shipping_address);
  const lines = body.line_items.map((l) => {
    const { product, v } = variantOf(l.variant_id);
    return { _id: new ObjectId(), variant_id: v._id, product_id: product._id, title: product.title, variant_title: v.title, sku: v.sku, quantity: l.quantity, unit_price: v.price, discount: 0, tax: 0, total: 0, taxable: true, inventory_tracked: v.inventory_tracked, fulfilled_quantity: 0, refunded_quantity: 0 };
  });
  const pricing = priceOrder({ lines, shipping: null, discount: { subtotal: 0, shipping: 0 }, rateBps: rate.rate_bps, shippingTaxable: taxes.shipping_taxable });
  pricing.lines.forEach((p, i) => Object.assign(lines[i]!, p));
  const counter = await db.collection<{ _id: ObjectId; next: number }>('order_counters').findOneAndUpdate({ _id: store._id }, { $inc: { next: 1 } }, { upsert: true, returnDocument: 'after' });
  const now = new Date();
  const order: OrderDocument = {
    _id: new ObjectId(), store_id: store._id, number: 1000 + (counter?.next ?? 1), customer_id: null, email: null, currency: store.currency, line_items: lines,
    shipping_line: null, shipping_address: null, billing_address: null, coupon: null, tax_rate: { name: rate.name, rate_bps: rate.rate_bps },
    subtotal: pricing.subtotal, discount_total: 0, shipping_total: 0, tax_total: pricing.tax_total, total: pricing.total, paid_amount: 0, refunded_amount: 0,
    financial_status: 'pending', fulfillment_status: 'unfulfilled', fulfillments: [], refunds: [], note: null, source: 'admin', version: 1, created_at: now, updated_at: now,
  };
  await db.collection<OrderDocument>('orders').insertOne(order);
  const view = presentOrder(order);
  await db.collection('events').insertOne({ type: 'order.created', store_id: store._id, payload: { order: view }, idempotency_key: `order.created:${view.id}`, created_at: now });
  return view;
}

app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('ready'));
