import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ObjectId } from 'mongodb';
import { openPlatform } from '../src/boot.js';
import { createCollection, CreateCollectionBody } from '../src/catalog/index.js';
import { createProduct } from '../src/catalog/products.js';
import { loadConfig } from '../src/config.js';
import { toGlobalId } from '../src/graphql/ids.js';
import { createLog } from '../src/log.js';
import { ROOT } from '../src/localdb/index.js';
import { objectStorage } from '../src/storage/index.js';
import type { StoreView } from '../src/stores/index.js';
import { benchDatabase, freePort, jsonClient, startServer, UNTHROTTLED, type Json } from './support.js';

/**
 * `npm run bench:bulk` (docs/bulk.md, docs/benchmarks.md): a bulk export of a store of
 * BENCH_PRODUCTS products with 3 variants each (100,000: 400,000 lines) by a real bulk worker,
 * against a baseline in the same run: the same lines written by a raw cursor over the products
 * collection into the same storage, in parts of the same size. It prints the times and their
 * ratios (the export's throughput as a share of the baseline's: of the raw cursor, and of the
 * same cursor projected to the written fields), and the bulk worker's peak RSS (VmHWM)
 * exporting BENCH_SMALL_PRODUCTS (10,000) and BENCH_PRODUCTS, each by a fresh worker run with
 * the Procfile's node options.
 *
 * Then the hostile export of issue 36: a store of HOSTILE_COLLECTIONS collections that each hold
 * the same HOSTILE_PRODUCTS products of a 60 KB description, exported with four aliases of the
 * collections' `products` (refused since: one connection is selected once) and with one (allowed),
 * each by a fresh bulk worker: how it ended (completed, or the worker died: its exit), the
 * worker's peak RSS, the time; beside a projected cursor writing the allowed query's lines.
 *
 * The stores are seeded by cloning one product made through the catalog service (the shape
 * POST /v1/products writes), 1,000 documents an insert: the service's one-by-one path would
 * take most of the run.
 */
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const SMALL = Number(process.env.BENCH_SMALL_PRODUCTS ?? 10_000);
const PART_BYTES = 8 * 1024 * 1024;
const QUERY = '{ products { nodes { id title handle vendor status variants { nodes { id sku price { amount } } } } } }';
const HOSTILE_COLLECTIONS = 20;
const HOSTILE_PRODUCTS = 250;
const ALIASED = (n: number) => Array.from({ length: n }, (_, i) => `a${i}: products { nodes { id title } }`).join(' ');
const HOSTILE_QUERY = `{ collections { nodes { id ${ALIASED(4)} } } }`;
const ALLOWED_QUERY = '{ collections { nodes { id products { nodes { id title } } } } }';

/** The node options of the Procfile's `bulk` process, so the bench runs the worker as production does. */
const PROCFILE_NODE_ARGS = (/^bulk:\s*node\s+(.*?)\s*dist\/src\/worker\.js/m.exec(readFileSync(join(ROOT, 'Procfile'), 'utf8'))?.[1] ?? '')
  .split(/\s+/)
  .filter(Boolean);

const database = await benchDatabase();
const port = await freePort();
const storageDir = mkdtempSync(join(tmpdir(), 'emporium-bench-bulk-'));
const env: Record<string, string> = {
  APP_ENV: 'development',
  MONGODB_URL: database.url,
  MONGODB_DB: `bench_bulk_${Date.now()}`,
  PORT: String(port),
  STORAGE_DRIVER: 'local',
  STORAGE_LOCAL_DIR: storageDir,
  BULK_PART_BYTES: String(PART_BYTES),
  JOBS_POLL_INTERVAL_MS: '100',
  LOG_LEVEL: 'warn',
  ...UNTHROTTLED,
};
const web = await startServer('dist/src/web.js', { ...env, LOG_LEVEL: 'info' }, 'web.listening');
const call = jsonClient(`http://127.0.0.1:${port}`);
const { platform, close } = await openPlatform(loadConfig(env), 'bench-seed', { log: createLog('warn', {}) });

/** A merchant's new store, `count` products of 3 variants each: its id and the merchant's headers. */
async function seededStore(name: string, count: number): Promise<{ store: StoreView; headers: Record<string, string> }> {
  const account = { email: `bench-${name}-${Date.now()}@example.com`, password: 'benchmark password' };
  await call('POST', '/v1/auth/signup', { ...account, name: 'Bench' });
  const token: string = (await call('POST', '/v1/auth/signin', account)).data.session.token;
  const store: StoreView = (await call('POST', '/v1/stores', { name, subdomain: `${name}-${Date.now()}` }, { authorization: `Bearer ${token}` })).data;
  const template = await createProduct(platform, store, {
    title: 'Template',
    description_html: '<p>A product for the benchmark.</p>',
    vendor: 'Vendor',
    product_type: 'Bench',
    tags: ['bench'],
    status: 'active',
    options: [{ name: 'Size', values: ['S', 'M', 'L'] }],
    variants: ['S', 'M', 'L'].map((size, j) => ({
      option_values: [size],
      sku: `T-${size}`,
      price: 1000 + j * 100,
      inventory_tracked: false,
      inventory_policy: 'deny' as const,
    })),
    media_ids: [],
  } as never);
  const products = platform.db.collection('products');
  const doc = (await products.findOne({ _id: new ObjectId(template.id) }))!;
  await products.deleteOne({ _id: doc._id });
  for (let start = 0; start < count; start += 1000) {
    const batch = [];
    for (let i = start; i < Math.min(count, start + 1000); i++)
      batch.push({
        ...doc,
        _id: new ObjectId(),
        title: `Product ${i}`,
        handle: `product-${i}`,
        variants: (doc.variants as Json[]).map((v: Json) => ({ ...v, id: new ObjectId(), sku: `P${i}-${v.option_values[0]}` })),
      });
    await products.insertMany(batch, { ordered: false });
  }
  return { store, headers: { authorization: `Bearer ${token}`, 'x-store-id': store.id } };
}

type ExportRun = { status: string; seconds: number; bytes: number; lines: number; peakMb: number; exit: string | null; detail: string | null };

/**
 * A fresh bulk worker runs the export of `query` in the store: how it ended (its status, or
 * `worker died` with the worker's exit), its time (created → finished as recorded, or start →
 * death), bytes, and the worker's peak RSS (VmHWM, read every 100 ms while it lives).
 */
async function exportWithWorker(headers: Record<string, string>, query = QUERY): Promise<ExportRun> {
  // The Procfile's bulk command (its node options: the heap bound), and BENCH_WORKER_NODE_ARGS
  // (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it).
  const nodeArgs = [...PROCFILE_NODE_ARGS, ...(process.env.BENCH_WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean)];
  const worker = spawn('node', [...nodeArgs, 'dist/src/worker.js', '--jobs', 'bulk'], {
    cwd: ROOT,
    env: { ...process.env, ...env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  worker.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-2000)));
  let exit: string | null = null;
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', (code, signal) => {
      exit = signal ? `signal ${signal}` : `code ${code}`;
      resolve();
    }),
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    worker.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('"event":"worker.started"')) resolve();
    });
    void exited.then(() => reject(new Error(`the bulk worker exited ${exit}`)));
  });
  // BENCH_WORKER_LOG: a file that gets the worker's output (with --trace-gc, its heap over time).
  if (process.env.BENCH_WORKER_LOG) worker.stdout!.pipe(createWriteStream(process.env.BENCH_WORKER_LOG, { flags: 'a' }));
  else worker.stdout!.resume();
  let peakKb = 0;
  const readPeak = () => {
    try {
      peakKb = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${worker.pid}/status`, 'utf8'))?.[1] ?? peakKb);
    } catch {
      // it has exited: the last figure read stands
    }
  };
  const sample = setInterval(readPeak, 100);
  try {
    const t0 = Date.now();
    const started = await call('POST', '/v1/bulk-operations', { query }, headers);
    let op: Json;
    for (;;) {
      op = (await call('GET', `/v1/bulk-operations/${started.data.id}`, undefined, headers)).data;
      if ((op.status !== 'created' && op.status !== 'running') || exit) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    readPeak();
    if (exit) {
      // It died holding the operation: set it aside as failed, so that the store's next export may start and no later worker takes it up.
      await platform.db
        .collection('bulk_operations')
        .updateOne({ _id: new ObjectId(started.data.id) }, { $set: { status: 'failed', running_key: started.data.id, lease_owner: null, lease_until: null } });
      const fatal = /FATAL ERROR[^\n]*|heap out of memory/.exec(stderr)?.[0] ?? null;
      return { status: 'worker died', seconds: (Date.now() - t0) / 1000, bytes: 0, lines: 0, peakMb: peakKb / 1024, exit, detail: fatal };
    }
    const doc = (await platform.db.collection('bulk_operations').findOne({ _id: new ObjectId(op.id) }))!;
    const seconds = (doc.completed_at.getTime() - doc.started_at.getTime()) / 1000;
    return { status: op.status, seconds, bytes: op.file_size, lines: op.object_count, peakMb: peakKb / 1024, exit: null, detail: op.error_message };
  } finally {
    clearInterval(sample);
    if (!exit) worker.kill('SIGTERM'); // also when the export was refused: the bench would wait for the worker otherwise
    await exited;
  }
}

/** A store of HOSTILE_COLLECTIONS manual collections that each hold the same HOSTILE_PRODUCTS products, each with a 60 KB description. */
async function hostileStore(): Promise<{ store: StoreView; headers: Record<string, string> }> {
  const { store, headers } = await seededStore('bulk-hostile', 0);
  const ids: string[] = [];
  for (let i = 0; i < HOSTILE_PRODUCTS; i++)
    ids.push(
      (
        await createProduct(platform, store, {
          title: `Heavy ${i}`,
          description_html: `<p>${`A long description of a heavy product, number ${i}. `.repeat(1200).slice(0, 60_000)}</p>`,
          vendor: null,
          product_type: null,
          tags: [],
          status: 'active',
          options: [],
          variants: [{ option_values: [], price: 1000, inventory_tracked: false, inventory_policy: 'deny' as const }],
          media_ids: [],
        } as never)
      ).id,
    );
  for (let i = 0; i < HOSTILE_COLLECTIONS; i++)
    await createCollection(platform, store.id, CreateCollectionBody.parse({ type: 'manual', title: `Everything ${i}`, product_ids: ids }));
  return { store, headers };
}

/** The allowed hostile query's lines from projected cursors: each collection, then its products' ids and titles. */
async function hostileBaseline(storeId: string): Promise<{ seconds: number; lines: number }> {
  const t0 = process.hrtime.bigint();
  let lines = 0;
  let text = '';
  const store_id = new ObjectId(storeId);
  for await (const c of platform.db
    .collection('collections')
    .find({ store_id }, { projection: { product_ids: 1 } })
    .sort({ _id: 1 })) {
    const gid = toGlobalId('Collection', c._id.toHexString());
    text += `${JSON.stringify({ id: gid })}\n`;
    lines++;
    const members = platform.db
      .collection('products')
      .find({ store_id, _id: { $in: c.product_ids } }, { projection: { title: 1 } })
      .sort({ _id: 1 });
    for await (const p of members) {
      text += `${JSON.stringify({ id: toGlobalId('Product', p._id.toHexString()), title: p.title, __parentId: gid })}\n`;
      lines++;
    }
  }
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (!text) throw new Error('the hostile baseline wrote nothing');
  return { seconds, lines };
}

/**
 * The baseline: the same lines (the same fields, global ids, prices as the API writes them)
 * from a raw cursor over the store's products in `_id` order (whole documents, as the export
 * reads them; or, `projected`, only the fields the lines need: the stricter figure), into the
 * same storage as a multipart upload in parts of the same size.
 */
async function baseline(storeId: string, projected: boolean): Promise<{ seconds: number; bytes: number; lines: number }> {
  const t0 = process.hrtime.bigint();
  const storage = objectStorage(platform);
  const key = `bench/baseline-${Date.now()}.jsonl`;
  const { uploadId } = await storage.startMultipart(key, 'application/jsonl');
  const parts: { partNumber: number; etag: string }[] = [];
  let chunks: Buffer[] = [];
  let held = 0;
  let lines = 0;
  let bytes = 0;
  const flush = async () => {
    if (!held) return;
    const { etag } = await storage.uploadPart(key, uploadId, parts.length + 1, Buffer.concat(chunks));
    parts.push({ partNumber: parts.length + 1, etag });
    bytes += held;
    chunks = [];
    held = 0;
  };
  const cursor = platform.db
    .collection('products')
    .find({ store_id: new ObjectId(storeId) }, projected ? { projection: { title: 1, handle: 1, vendor: 1, status: 1, variants: 1 } } : {})
    .sort({ _id: 1 })
    .batchSize(1000);
  for await (const p of cursor) {
    const gid = toGlobalId('Product', p._id.toHexString());
    let text = `${JSON.stringify({ id: gid, title: p.title, handle: p.handle, vendor: p.vendor, status: String(p.status).toUpperCase() })}\n`;
    for (const v of p.variants as Json[])
      text += `${JSON.stringify({ id: toGlobalId('ProductVariant', v.id.toHexString()), sku: v.sku, price: { amount: (v.price / 100).toFixed(2) }, __parentId: gid })}\n`;
    lines += 1 + p.variants.length;
    const buf = Buffer.from(text, 'utf8');
    chunks.push(buf);
    held += buf.length;
    if (held >= PART_BYTES) await flush();
  }
  await flush();
  await storage.completeMultipart(key, uploadId, parts);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  await storage.delete(key);
  return { seconds, bytes, lines };
}

try {
  const seedStarted = Date.now();
  const small = await seededStore('bulk-small', SMALL);
  const large = await seededStore('bulk-large', PRODUCTS);
  console.log(`seeded ${SMALL} and ${PRODUCTS} products x 3 variants in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s\n`);

  const smallRun = await exportWithWorker(small.headers);
  const largeRun = await exportWithWorker(large.headers);
  const base = await baseline(large.store.id, false);
  const projected = await baseline(large.store.id, true);
  for (const b of [base, projected]) if (b.lines !== largeRun.lines) throw new Error(`a baseline wrote ${b.lines} lines, the export ${largeRun.lines}`);

  const rate = (r: { seconds: number; lines: number }) => Math.round(r.lines / r.seconds);
  console.log(`Export of ${PRODUCTS} products with 3 variants (${largeRun.lines} lines), parts of ${PART_BYTES / 1048576} MiB, local storage:`);
  console.log(
    `  bulk worker (GraphQL, checkpointed)  ${largeRun.seconds.toFixed(1)} s  ${rate(largeRun)} lines/s  ${(largeRun.bytes / 1048576).toFixed(1)} MiB`,
  );
  console.log(`  raw cursor -> JSONL -> storage       ${base.seconds.toFixed(1)} s  ${rate(base)} lines/s  ${(base.bytes / 1048576).toFixed(1)} MiB`);
  console.log(`  the same, projected to the 5 fields  ${projected.seconds.toFixed(1)} s  ${rate(projected)} lines/s`);
  console.log(`  ratio (export throughput / raw cursor baseline): ${(base.seconds / largeRun.seconds).toFixed(2)}`);
  console.log(`  ratio (export throughput / projected cursor):    ${(projected.seconds / largeRun.seconds).toFixed(2)}\n`);
  console.log(
    `Bulk worker peak RSS: ${smallRun.peakMb.toFixed(0)} MB at ${SMALL} products (${smallRun.seconds.toFixed(1)} s), ${largeRun.peakMb.toFixed(0)} MB at ${PRODUCTS}`,
  );
  console.log(`  difference: ${(largeRun.peakMb - smallRun.peakMb).toFixed(1)} MB\n`);

  const hostile = await hostileStore();
  console.log(`Hostile export: ${HOSTILE_COLLECTIONS} collections that each hold the same ${HOSTILE_PRODUCTS} products of a 60 KB description:`);
  const show = (name: string, r: ExportRun) =>
    console.log(
      `  ${name.padEnd(36)} ${r.status}${r.exit || r.detail ? ` (${[r.exit, r.detail].filter(Boolean).join(': ')})` : ''} after ${r.seconds.toFixed(1)} s, worker peak RSS ${r.peakMb.toFixed(0)} MB${r.lines ? `, ${r.lines} lines` : ''}`,
    );
  try {
    show('four aliases of products', await exportWithWorker(hostile.headers, HOSTILE_QUERY));
  } catch (err) {
    console.log(`  four aliases of products             refused: ${(err as Error).message}`);
  }
  const allowed = await exportWithWorker(hostile.headers, ALLOWED_QUERY);
  show('one products connection', allowed);
  const hostileBase = await hostileBaseline(hostile.store.id);
  console.log(`  projected cursors, the same lines    ${hostileBase.seconds.toFixed(1)} s, ${hostileBase.lines} lines`);
  if (allowed.status === 'completed') console.log(`  ratio (export throughput / projected cursors): ${(hostileBase.seconds / allowed.seconds).toFixed(2)}`);
} finally {
  await close();
  web.kill('SIGTERM');
  await database.stop();
  rmSync(storageDir, { recursive: true, force: true });
}
