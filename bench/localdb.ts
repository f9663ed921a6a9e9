import { MongoClient, ObjectId, type Db } from 'mongodb';
import { catalogIndexes, type ProductDocument } from '../src/catalog/models.js';
import { ensureIndexes } from '../src/db.js';
import { deliveryIndexes, type DeliveryDocument } from '../src/webhooks/deliveries/models.js';
import { subscriptionIndexes } from '../src/webhooks/subscriptions/models.js';
import { benchDatabase, cpuMicros } from './support.js';

/**
 * `npm run bench:localdb`: what one operation costs on the embedded database, through the
 * official driver, one caller at a time: the wall time of a round trip (p50, mean) and the CPU
 * the database process spent on it (from /proc), beside a `ping` in the same run (the floor of
 * any round trip through the driver and the wire protocol; the ratio column is op / ping).
 *
 * The catalogue is shaped as the platform writes it (products with three variants, tags, the
 * derived fields and the platform's own indexes): stores of BENCH_SIZES products (default
 * 1,000, 10,000 and 50,000) in one collection, beside BENCH_OTHER documents of 20 other stores.
 *
 * Beside them, BENCH_JOBS (default 100,000) Agenda jobs of 20 names in the shapes the operators'
 * overview counts (60% due, 20% scheduled, 19% failed, 1% running) with Agenda's
 * `{name, lockedAt, nextRunAt, failedAt}` index, and the counts of one name in each state (the
 * driver's countDocuments, as the platform counts), then all 80 (every name in every state).
 *
 * BENCH_BINARIES=label=/path/to/localdb,label2=/path2 runs the same operations on several
 * localdb builds, one after the other, and prints them side by side (e.g. a build from before a
 * change, kept with `cp .localdb/bin/localdb /tmp/localdb-before`). MONGODB_URL runs it once
 * against that database instead.
 */
const SIZES = (process.env.BENCH_SIZES ?? '1000,10000,50000').split(',').map(Number);
const OTHER = Number(process.env.BENCH_OTHER ?? 10_000);
const DELIVERIES = 5_000;
const JOBS = Number(process.env.BENCH_JOBS ?? 100_000);
const JOB_NAMES = 20;
const MIN_MS = Number(process.env.BENCH_MIN_MS ?? 1500);
const MIN_RUNS = 3;
const MAX_RUNS = 3_000;

type Figures = { p50: number; mean: number; cpu: number | null; runs: number };
type Op = { name: string; run: (i: number) => Promise<unknown> };

async function measure(op: Op, pid: number | undefined): Promise<Figures> {
  await op.run(0); // warm
  const times: number[] = [];
  const cpuBefore = cpuMicros(pid);
  const started = performance.now();
  while (times.length < MAX_RUNS && (times.length < MIN_RUNS || performance.now() - started < MIN_MS)) {
    const t = performance.now();
    await op.run(times.length + 1);
    times.push((performance.now() - t) * 1000);
  }
  const cpuAfter = cpuMicros(pid);
  times.sort((a, b) => a - b);
  return {
    p50: times[Math.floor(times.length / 2)]!,
    mean: times.reduce((a, b) => a + b, 0) / times.length,
    cpu: cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / times.length,
    runs: times.length,
  };
}

function product(storeId: ObjectId, i: number, now: Date): ProductDocument {
  const title = `Product ${String(i).padStart(6, '0')} ${['Linen', 'Wool', 'Cotton', 'Silk'][i % 4]}`;
  const skus = ['S', 'M', 'L'].map((s) => `P${i}-${s}`);
  return {
    _id: new ObjectId(),
    store_id: storeId,
    title,
    handle: `product-${i}`,
    description_html: '<p>A product for the benchmark, with a description of a realistic length for a small shop.</p>',
    vendor: `Vendor ${i % 20}`,
    product_type: 'Bench',
    tags: ['bench', `group-${i % 10}`],
    status: i % 7 === 0 ? 'draft' : 'active',
    options: [{ name: 'Size', values: ['S', 'M', 'L'] }],
    variants: ['S', 'M', 'L'].map((s, j) => ({
      _id: new ObjectId(),
      title: s,
      option_values: [s],
      sku: skus[j]!,
      price: 1000 + j * 100,
      compare_at_price: null,
      weight_grams: 250,
      inventory_tracked: true,
      inventory_policy: 'deny' as const,
    })),
    media_ids: [],
    currency: 'USD',
    title_lower: title.toLowerCase(),
    tags_lower: ['bench', `group-${i % 10}`],
    vendor_lower: `vendor ${i % 20}`,
    product_type_lower: 'bench',
    skus_lower: skus.map((s) => s.toLowerCase()),
    price_min: 1000,
    price_max: 1200,
    version: 1,
    created_at: now,
    updated_at: new Date(now.getTime() + i * 1000),
  };
}

function delivery(now: Date): DeliveryDocument {
  return {
    _id: new ObjectId(),
    store_id: new ObjectId(),
    event_id: new ObjectId(),
    subscription_id: new ObjectId(),
    event_type: 'order.created',
    status: 'queued',
    next_attempt: 0,
    next_attempt_at: now,
    lease_until: null,
    lease_owner: null,
    attempts: [],
    completed_at: null,
    series: 1,
    created_at: now,
    updated_at: now,
  };
}

async function insertInBatches<T extends object>(db: Db, name: string, docs: T[]): Promise<void> {
  for (let i = 0; i < docs.length; i += 500) await db.collection<T>(name).insertMany(docs.slice(i, i + 500) as never[], { ordered: true });
}

/** An Agenda job in one of the overview's states, i % 100 picking which (as src/operations/overview.ts reads them). */
function job(i: number, now: Date) {
  const kind = i % 100;
  const minutes = (n: number) => new Date(now.getTime() + n * 60_000);
  const base = { _id: new ObjectId(), name: `job.${i % JOB_NAMES}`, data: { store_id: new ObjectId() }, type: 'normal', priority: 0, lastModifiedBy: null };
  if (kind < 60) return { ...base, nextRunAt: minutes(-1 - (i % 600)), lockedAt: null, lastRunAt: null, lastFinishedAt: null };
  if (kind < 80) return { ...base, nextRunAt: minutes(1 + (i % 600)), lockedAt: null, lastRunAt: minutes(-60), lastFinishedAt: minutes(-60) };
  if (kind < 99)
    return {
      ...base,
      nextRunAt: null,
      lockedAt: null,
      lastRunAt: minutes(-30),
      lastFinishedAt: minutes(-30),
      failedAt: minutes(-30),
      failCount: 5,
      failReason: 'boom',
    };
  return { ...base, nextRunAt: minutes(-2), lockedAt: minutes(-1), lastModifiedBy: 'worker-1', lastRunAt: minutes(-1), lastFinishedAt: null };
}

/** The overview's job states (src/operations/overview.ts) for one name, on the fields Agenda's index holds. */
const jobStates = (name: string, now: Date) => ({
  due: { name, lockedAt: null, nextRunAt: { $lte: now } },
  scheduled: { name, lockedAt: null, nextRunAt: { $gt: now } },
  running: { name, lockedAt: { $ne: null } },
  failed: { name, lockedAt: null, nextRunAt: null, failedAt: { $ne: null } },
});

type Stores = { size: number; storeId: ObjectId; ids: ObjectId[]; sample: ProductDocument }[];

async function seed(db: Db): Promise<{ stores: Stores; deliveryIds: ObjectId[]; seconds: number }> {
  const started = performance.now();
  await ensureIndexes(db, [...catalogIndexes, ...subscriptionIndexes, ...deliveryIndexes]);
  const now = new Date('2026-01-01T00:00:00Z');
  const stores: Stores = [];
  // Interleave the stores' documents as a live database would hold them.
  const others = Array.from({ length: 20 }, () => new ObjectId());
  const perStore = SIZES.map((size) => ({ size, storeId: new ObjectId(), docs: [] as ProductDocument[] }));
  let n = 0;
  for (const s of perStore) for (let i = 0; i < s.size; i++) s.docs.push(product(s.storeId, n++, now));
  const noise = Array.from({ length: OTHER }, (_, i) => product(others[i % others.length]!, n++, now));
  const all = [...perStore.flatMap((s) => s.docs), ...noise].sort((a, b) => (a._id.toHexString() < b._id.toHexString() ? -1 : 1));
  const shuffled = all
    .map((d, i) => ({ d, k: (i * 7919) % all.length }))
    .sort((a, b) => a.k - b.k)
    .map((x) => x.d);
  await insertInBatches(db, 'products', shuffled);
  for (const s of perStore) {
    const ids = s.docs.map((d) => d._id).sort((a, b) => (a.toHexString() < b.toHexString() ? -1 : 1));
    stores.push({ size: s.size, storeId: s.storeId, ids, sample: s.docs[Math.floor(s.docs.length / 2)]! });
  }
  const deliveries = Array.from({ length: DELIVERIES }, () => delivery(now));
  await insertInBatches(db, 'webhook_deliveries', deliveries);
  await db.collection('agendaJobs').createIndex({ name: 1, lockedAt: 1, nextRunAt: 1, failedAt: 1 }, { name: 'findAndLockNextJobIndex' });
  await insertInBatches(
    db,
    'agendaJobs',
    Array.from({ length: JOBS }, (_, i) => job(i, now)),
  );
  return { stores, deliveryIds: deliveries.map((d) => d._id), seconds: (performance.now() - started) / 1000 };
}

function operations(db: Db, stores: Stores, deliveryIds: ObjectId[]): Op[] {
  const products = db.collection<ProductDocument>('products');
  const deliveries = db.collection<DeliveryDocument>('webhook_deliveries');
  const big = stores[stores.length - 1]!;
  const pick = (i: number) => deliveryIds[i % deliveryIds.length]!;
  const ops: Op[] = [
    { name: 'ping', run: () => db.command({ ping: 1 }) },
    { name: 'insertOne (a delivery)', run: () => deliveries.insertOne(delivery(new Date())) },
    { name: 'insertMany (10 deliveries)', run: () => deliveries.insertMany(Array.from({ length: 10 }, () => delivery(new Date()))) },
    { name: 'findOne {_id} (a product)', run: (i) => products.findOne({ _id: big.ids[(i * 31) % big.ids.length]! }) },
    { name: 'findOne {_id, store_id}', run: (i) => products.findOne({ _id: big.ids[(i * 31) % big.ids.length]!, store_id: big.storeId }) },
    { name: 'updateOne {_id, status} $set', run: (i) => deliveries.updateOne({ _id: pick(i), status: 'queued' }, { $set: { updated_at: new Date() } }) },
    {
      name: 'findOneAndUpdate {_id, status, lease}',
      run: (i) =>
        deliveries.findOneAndUpdate(
          { _id: pick(i), status: 'queued' },
          { $set: { lease_until: null, lease_owner: `w${i}`, updated_at: new Date() } },
          { returnDocument: 'after' },
        ),
    },
  ];
  for (const s of stores) {
    const mid = s.ids[Math.floor(s.ids.length / 2)]!;
    ops.push(
      { name: `list page, ${s.size} products, first`, run: () => products.find({ store_id: s.storeId }).sort({ _id: 1 }).limit(51).toArray() },
      {
        name: `list page, ${s.size} products, middle`,
        run: () =>
          products
            .find({ $and: [{ store_id: s.storeId }, { _id: { $gt: mid } }] })
            .sort({ _id: 1 })
            .limit(51)
            .toArray(),
      },
    );
  }
  const t = big.sample;
  ops.push(
    {
      name: `list page by title, ${big.size}, middle`,
      run: () =>
        products
          .find({ $and: [{ store_id: big.storeId }, { $or: [{ title_lower: { $gt: t.title_lower } }, { title_lower: t.title_lower, _id: { $gt: t._id } }] }] })
          .sort({ title_lower: 1, _id: 1 })
          .limit(51)
          .toArray(),
    },
    {
      name: `list page by -updated_at, ${big.size}, middle`,
      run: () =>
        products
          .find({ $and: [{ store_id: big.storeId }, { $or: [{ updated_at: { $lt: t.updated_at } }, { updated_at: t.updated_at, _id: { $lt: t._id } }] }] })
          .sort({ updated_at: -1, _id: -1 })
          .limit(51)
          .toArray(),
    },
    {
      name: `variants by id (order pricing), ${big.size}`,
      run: () => products.find({ store_id: big.storeId, 'variants._id': { $in: t.variants.map((v) => v._id) } }).toArray(),
    },
    {
      name: 'claim the next due delivery (sorted)',
      run: () =>
        deliveries.findOneAndUpdate(
          { status: 'queued', next_attempt_at: { $lte: new Date() }, $or: [{ lease_until: null }, { lease_until: { $lte: new Date() } }] },
          { $set: { lease_until: new Date(Date.now() + 60_000), lease_owner: 'bench' } },
          { sort: { next_attempt_at: 1 }, returnDocument: 'after' },
        ),
    },
  );
  if (JOBS > 0) {
    const jobs = db.collection('agendaJobs');
    const now = new Date('2026-01-01T00:00:00Z');
    const states = jobStates('job.0', now);
    for (const [state, filter] of Object.entries(states))
      ops.push({ name: `count ${state} jobs of a name (${JOBS} jobs)`, run: () => jobs.countDocuments(filter) });
    ops.push(
      { name: `count jobs of a name (${JOBS} jobs)`, run: () => jobs.countDocuments({ name: 'job.0' }) },
      {
        name: `all ${JOB_NAMES * 4} counts (${JOB_NAMES} names × 4 states)`,
        run: async () => {
          for (let n = 0; n < JOB_NAMES; n++) for (const filter of Object.values(jobStates(`job.${n}`, now))) await jobs.countDocuments(filter);
        },
      },
      {
        name: `all ${JOB_NAMES * 4} counts, concurrently`,
        run: () =>
          Promise.all(
            Array.from({ length: JOB_NAMES }, (_, n) => Object.values(jobStates(`job.${n}`, now)).map((filter) => jobs.countDocuments(filter))).flat(),
          ),
      },
    );
  }
  return ops;
}

const binaries = (process.env.BENCH_BINARIES ?? '')
  .split(',')
  .filter(Boolean)
  .map((pair) => {
    const [label, path] = pair.split('=');
    return { label: label!, path: path! };
  });
const runs = binaries.length > 0 ? binaries : [{ label: process.env.MONGODB_URL ? 'MONGODB_URL' : 'localdb', path: undefined }];

const results: { label: string; seconds: number; figures: Map<string, Figures> }[] = [];
for (const { label, path } of runs) {
  const database = await benchDatabase(path);
  const client = await new MongoClient(database.url).connect();
  try {
    const db = client.db(`bench_localdb_${Date.now()}`);
    const { stores, deliveryIds, seconds } = await seed(db);
    const figures = new Map<string, Figures>();
    for (const op of operations(db, stores, deliveryIds)) {
      figures.set(op.name, await measure(op, database.pid ?? (Number(process.env.BENCH_DB_PID) || undefined)));
      process.stderr.write('.');
    }
    results.push({ label, seconds, figures });
    await db.dropDatabase().catch(() => {});
  } finally {
    await client.close();
    await database.stop();
  }
}

process.stderr.write('\n');
const total = SIZES.reduce((a, b) => a + b, 0) + OTHER;
console.log(
  `one caller; ${total} products (stores of ${SIZES.join(', ')} and ${OTHER} of 20 other stores), ${DELIVERIES} deliveries, ${JOBS} jobs of ${JOB_NAMES} names`,
);
console.log(`seeded in ${results.map((r) => `${r.seconds.toFixed(1)} s (${r.label})`).join(', ')}\n`);
const fmt = (us: number | null) => (us === null ? '   n/a' : us >= 10_000 ? `${(us / 1000).toFixed(0)} ms`.padStart(9) : `${us.toFixed(0)} µs`.padStart(9));
const header = ['operation'.padEnd(42), ...results.map((r) => `${r.label}: p50 / db cpu / ×ping`.padStart(34))];
if (results.length > 1) header.push(`  ${results[results.length - 1]!.label} vs ${results[0]!.label} (p50)`);
console.log(header.join(''));
for (const name of results[0]!.figures.keys()) {
  const cells = results.map((r) => {
    const f = r.figures.get(name)!;
    const ping = r.figures.get('ping')!;
    return `${fmt(f.p50)} / ${fmt(f.cpu)} / ${(f.p50 / ping.p50).toFixed(1).padStart(6)}`.padStart(34);
  });
  const row = [name.padEnd(42), ...cells];
  if (results.length > 1) {
    const first = results[0]!.figures.get(name)!.p50;
    const last = results[results.length - 1]!.figures.get(name)!.p50;
    row.push(`  ${(first / last).toFixed(1)}× faster`.padStart(16));
  }
  console.log(row.join(''));
}
