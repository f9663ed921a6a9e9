import { createHash } from 'node:crypto';
import Koa from 'koa';
import { MongoClient, ObjectId } from 'mongodb';
import { presentProduct } from '../src/catalog/present.js';
import type { ProductDocument } from '../src/catalog/store.js';

/**
 * The baseline for bench/catalog: a bare Koa app with no middleware answering
 * GET /v1/products?limit=&cursor= with the same queries as the platform route (session,
 * merchant, owned store, then one page of products in `_id` order) and the same JSON.
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
app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('ready'));
