import { createHash } from 'node:crypto';
import Koa from 'koa';
import { MongoClient, ObjectId } from 'mongodb';

/**
 * The baseline for bench/http-overhead: a bare Koa app, no middleware at all, answering
 * GET /v1/stores/current with the same three queries the platform route makes (session by
 * token hash, merchant, owned store) and the same JSON. What the platform adds on top
 * (request ids, logging, error envelope, body parsing, routing, validation) is the difference.
 */
const [url, dbName, port] = [process.env.MONGODB_URL!, process.env.MONGODB_DB!, Number(process.env.PORT)];
const client = await new MongoClient(url).connect();
const db = client.db(dbName);
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
  ctx.body = {
    data: {
      id: store._id.toHexString(),
      name: store.name,
      subdomain: store.subdomain,
      currency: store.currency,
      created_at: store.created_at.toISOString(),
      updated_at: store.updated_at.toISOString(),
    },
  };
});
app.listen(port, '127.0.0.1', () => console.log('ready'));
