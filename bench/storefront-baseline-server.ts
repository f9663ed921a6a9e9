import { randomBytes } from 'node:crypto';
import Koa from 'koa';
import { MongoClient, ObjectId } from 'mongodb';
import { presentProduct } from '../src/catalog/present.js';
import type { ProductDocument } from '../src/catalog/models.js';
import type { LevelDocument } from '../src/inventory/models.js';
import { presentOrder } from '../src/orders/present.js';
import type { OrderDocument } from '../src/orders/models.js';
import { encodeKeysetCursor } from '../src/pagination.js';
import { hashToken } from '../src/secrets/index.js';
import { presentPublicProduct } from '../src/storefront/present.js';
import type { CartDocument } from '../src/storefront/models.js';

/**
 * The baseline for bench/storefront: a bare Koa app with no middleware, no validation, no
 * idempotency records and no events, making the storefront's essential database calls on the
 * same database and answering comparable JSON:
 * - GET /v1/storefront/:subdomain/products?limit=: the store by subdomain, one page of active
 *   products by store_id/status sorted by _id, the store's active locations, the page's
 *   variants' stock levels (one read), presented with the storefront's own presenter;
 * - POST /v1/storefront/:subdomain/cart `{ lines }`: the store, the lines' variants, a cart
 *   document in `storefront_carts` (same shape as the platform's, token hashed), then the
 *   variants, locations and levels again to price it, as the platform's createCart does;
 * - POST /v1/storefront/:subdomain/orders (X-Cart-Token): the store, the live cart by token
 *   hash, its variants, the active locations and levels (the pricing's stock check), one
 *   conditional `$inc` per line on the platform's own `inventory_levels` documents
 *   (`available >= quantity`: available → committed), the order insert (an `orders`
 *   document of the platform's shape, source storefront), and the cart marked consumed.
 */
const client = await new MongoClient(process.env.MONGODB_URL!).connect();
const db = client.db(process.env.MONGODB_DB!);
const stores = db.collection<{ _id: ObjectId; subdomain: string; currency: string }>('stores');
const products = db.collection<ProductDocument>('products');
const carts = db.collection<CartDocument>('storefront_carts');
const levels = db.collection<LevelDocument>('inventory_levels');
const orders = db.collection<OrderDocument>('orders');

type Store = { _id: ObjectId; currency: string };
type Lines = { variant_id: string; quantity: number }[];

async function readBody(req: NodeJS.ReadableStream): Promise<string> {
  let raw = '';
  for await (const chunk of req) raw += String(chunk);
  return raw;
}

async function activeLocations(storeId: ObjectId): Promise<ObjectId[]> {
  const docs = await db
    .collection('inventory_locations')
    .find({ store_id: storeId, active: true }, { projection: { _id: 1 } })
    .sort({ _id: 1 })
    .limit(250)
    .toArray();
  return docs.map((d) => d._id as ObjectId);
}

/** Available units per variant (summed over the active locations), one read. */
async function stock(storeId: ObjectId, variantIds: ObjectId[], locations: ObjectId[]): Promise<Map<string, number>> {
  const docs = await levels
    .find(
      { store_id: storeId, variant_id: { $in: variantIds }, location_id: { $in: locations } },
      { projection: { variant_id: 1, location_id: 1, available: 1 } },
    )
    .toArray();
  const out = new Map<string, number>();
  for (const d of docs) out.set(d.variant_id.toHexString(), (out.get(d.variant_id.toHexString()) ?? 0) + Math.max(0, d.available));
  return out;
}

async function variantsOf(storeId: ObjectId, ids: ObjectId[]) {
  const docs = await products.find({ store_id: storeId, 'variants._id': { $in: ids } }, { projection: { title: 1, status: 1, variants: 1 } }).toArray();
  const out = new Map<string, { product: ProductDocument; v: ProductDocument['variants'][number] }>();
  for (const d of docs) for (const v of d.variants) out.set(v._id.toHexString(), { product: d, v });
  return out;
}

async function list(store: Store, limit: number) {
  const docs = await products
    .find({ store_id: store._id, status: 'active' })
    .sort({ _id: 1 })
    .limit(limit + 1)
    .toArray();
  const items = docs.slice(0, limit).map(presentProduct);
  const tracked = items.flatMap((p) => p.variants.filter((v) => v.inventory_tracked && v.inventory_policy === 'deny'));
  const available = new Map<string, boolean>(items.flatMap((p) => p.variants.map((v) => [v.id, true] as const)));
  if (tracked.length > 0) {
    const units = await stock(
      store._id,
      tracked.map((v) => new ObjectId(v.id)),
      await activeLocations(store._id),
    );
    for (const v of tracked) available.set(v.id, (units.get(v.id) ?? 0) > 0);
  }
  const last = docs.length > limit ? docs[limit - 1]! : null;
  return {
    data: items.map((p) => presentPublicProduct(p, available)),
    page: { next_cursor: last ? encodeKeysetCursor(last._id.toHexString(), last._id) : null },
  };
}

async function priced(store: Store, cart: CartDocument) {
  const ids = cart.lines.map((l) => l.variant_id);
  const variants = await variantsOf(store._id, ids);
  const units = await stock(store._id, ids, await activeLocations(store._id));
  const lines = cart.lines.map((l) => {
    const { product, v } = variants.get(l.variant_id.toHexString())!;
    return {
      variant_id: v._id.toHexString(),
      product_id: product._id.toHexString(),
      product_title: product.title,
      variant_title: v.title,
      quantity: l.quantity,
      unit_price: v.price,
      line_total: v.price * l.quantity,
      problem: (units.get(v._id.toHexString()) ?? 0) < l.quantity ? 'out_of_stock' : null,
    };
  });
  const subtotal = lines.reduce((a, l) => a + l.line_total, 0);
  return {
    id: cart._id.toHexString(),
    version: cart.version,
    currency: store.currency,
    lines,
    item_count: lines.reduce((a, l) => a + l.quantity, 0),
    coupon: null,
    subtotal,
    discount: 0,
    total: subtotal,
    purchasable: lines.every((l) => !l.problem),
    expires_at: cart.expires_at.toISOString(),
    created_at: cart.created_at.toISOString(),
    updated_at: cart.updated_at.toISOString(),
  };
}

async function createCart(store: Store, body: { lines: Lines }) {
  const ids = body.lines.map((l) => new ObjectId(l.variant_id));
  const variants = await variantsOf(store._id, ids);
  if (ids.some((id) => variants.get(id.toHexString())?.product.status !== 'active')) throw new Error('not for sale');
  const token = `emp_ct_${randomBytes(32).toString('base64url')}`;
  const now = new Date();
  const cart: CartDocument = {
    _id: new ObjectId(),
    store_id: store._id,
    token_hash: hashToken(token),
    lines: ids.map((id, i) => ({ variant_id: id, quantity: body.lines[i]!.quantity })),
    coupon_code: null,
    version: 1,
    created_at: now,
    updated_at: now,
    expires_at: new Date(now.getTime() + 14 * 24 * 3600 * 1000),
    consumed_at: null,
    lease_until: null,
    lease_owner: null,
  };
  await carts.insertOne(cart);
  return { token, cart: await priced(store, cart) };
}

async function checkout(store: Store, token: string, body: { email: string }): Promise<{ status: number; body: unknown }> {
  const now = new Date();
  const cart = await carts.findOne({ token_hash: hashToken(token), store_id: store._id, consumed_at: null, expires_at: { $gt: now } });
  if (!cart) return { status: 404, body: { error: { code: 'not_found' } } };
  const priceNow = await priced(store, cart);
  if (!priceNow.purchasable) return { status: 409, body: { error: { code: 'cart_not_purchasable' } } };
  const at = (await activeLocations(store._id))[0]!;
  const id = new ObjectId();
  const lines = priceNow.lines.map((l) => ({
    _id: new ObjectId(),
    variant_id: new ObjectId(l.variant_id),
    product_id: new ObjectId(l.product_id),
    title: l.product_title,
    variant_title: l.variant_title,
    sku: null,
    quantity: l.quantity,
    unit_price: l.unit_price,
    discount: 0,
    tax: 0,
    total: l.line_total,
    taxable: true,
    inventory_tracked: true,
    inventory_policy: 'deny' as const,
    location_id: at,
    fulfilled_quantity: 0,
    refunded_quantity: 0,
  }));
  for (const l of lines) {
    const held = await levels.updateOne(
      { store_id: store._id, variant_id: l.variant_id, location_id: at, available: { $gte: l.quantity } },
      { $inc: { available: -l.quantity, committed: l.quantity, version: 1 }, $set: { updated_at: now } },
    );
    if (held.modifiedCount !== 1) return { status: 409, body: { error: { code: 'insufficient_stock' } } }; // never with the bench's stock
  }
  const order: OrderDocument = {
    _id: id,
    store_id: store._id,
    number: -Number.parseInt(id.toHexString().slice(12), 16),
    customer_id: null,
    email: body.email.toLowerCase(),
    currency: store.currency,
    line_items: lines,
    shipping_line: null,
    shipping_address: null,
    billing_address: null,
    coupon: null,
    tax_rate: { name: null, rate_bps: 0 },
    subtotal: priceNow.subtotal,
    discount_total: 0,
    shipping_total: 0,
    tax_total: 0,
    total: priceNow.total,
    paid_amount: 0,
    refunded_amount: 0,
    financial_status: 'pending',
    fulfillment_status: 'unfulfilled',
    fulfillments: [],
    refunds: [],
    cancelled_at: null,
    cancel_reason: null,
    note: null,
    source: 'storefront',
    version: 1,
    lease_until: null,
    lease_owner: null,
    requests: [],
    request_key: id.toHexString(),
    created_at: now,
    updated_at: now,
  };
  await orders.insertOne(order);
  await carts.updateOne(
    { _id: cart._id, version: cart.version, consumed_at: null },
    { $set: { consumed_at: now, updated_at: now, order_id: id }, $inc: { version: 1 } },
  );
  return { status: 201, body: { data: presentOrder(order) } };
}

const app = new Koa();
app.use(async (ctx) => {
  const [, , , subdomain, what] = ctx.path.split('/'); // /v1/storefront/:subdomain/:what
  const store = await stores.findOne({ subdomain: subdomain! });
  if (!store) {
    ctx.status = 404;
    return;
  }
  if (ctx.method === 'GET' && what === 'products') {
    ctx.body = await list(store, Number(ctx.query.limit ?? 50));
  } else if (ctx.method === 'POST' && what === 'cart') {
    ctx.status = 201;
    ctx.body = { data: await createCart(store, JSON.parse(await readBody(ctx.req)) as { lines: Lines }) };
  } else if (ctx.method === 'POST' && what === 'orders') {
    const result = await checkout(store, ctx.get('x-cart-token'), JSON.parse(await readBody(ctx.req)) as { email: string });
    ctx.status = result.status;
    ctx.body = result.body;
  } else {
    ctx.status = 404;
  }
});

app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('ready'));
process.once('SIGTERM', () => process.exit(0));
