import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { MongoClient, ObjectId, type Db, type Document } from 'mongodb';
import { catalogIndexes } from '../../src/catalog/models.js';
import { ensureIndexes } from '../../src/db.js';
import { preparePatchedFerretdb, startLocaldb } from '../../src/localdb/index.js';
import { deliveryIndexes } from '../../src/webhooks/deliveries/models.js';
import { subscriptionIndexes } from '../../src/webhooks/subscriptions/models.js';
import { useTestApp } from '../helpers/app.js';

/**
 * The embedded database itself (skipped when the suite runs on MONGODB_URL): it reads the
 * platform's query shapes through its key tables (explain says which), upgrades a database
 * whose indexes upstream FerretDB wrote, and the Go tests of its FerretDB patches pass.
 * test/platform/database-indexes.test.ts checks that indexed answers equal collection scans.
 */
const embedded = process.env.EMPORIUM_TEST_LOCALDB ? describe : describe.skip;

type Plan = { indexName?: string; keyRanges?: number; sortedByIndex?: boolean; multikey?: boolean };

async function plan(db: Db, collection: string, filter: Document, sort?: Document, hint?: Document): Promise<Plan> {
  let cursor = db.collection(collection).find(filter);
  if (sort) cursor = cursor.sort(sort);
  if (hint) cursor = cursor.hint(hint);
  const explained = (await cursor.limit(51).explain()) as { queryPlanner: Plan };
  return explained.queryPlanner;
}

function product(storeId: ObjectId, i: number): Document {
  const title = `product ${String(i).padStart(3, '0')}`;
  return {
    _id: new ObjectId(),
    store_id: storeId,
    title,
    title_lower: title,
    handle: `product-${i}`,
    status: i % 3 === 0 ? 'draft' : 'active',
    tags_lower: ['bench', `group-${i % 4}`],
    skus_lower: [`p${i}-s`, `p${i}-m`],
    variants: [
      { _id: new ObjectId(), sku: `P${i}-S` },
      { _id: new ObjectId(), sku: `P${i}-M` },
    ],
    updated_at: new Date(Date.UTC(2026, 0, 1, 0, i)),
  };
}

embedded('The embedded database (localdb)', () => {
  const { app } = useTestApp('localdb');
  const storeId = new ObjectId();
  let products: Document[];

  before(async () => {
    await ensureIndexes(app.platform.db, [...catalogIndexes, ...subscriptionIndexes, ...deliveryIndexes]);
    products = Array.from({ length: 60 }, (_, i) => product(i % 2 ? storeId : new ObjectId(), i));
    await app.platform.db.collection('products').insertMany(products);
  });

  it("reads the platform's query shapes through key tables, in the sort's order, and a $natural hint through none", async () => {
    const db = app.platform.db;
    const mine = products.filter((p) => (p.store_id as ObjectId).equals(storeId));
    const middle = mine[10]!;

    expect(await plan(db, 'products', { store_id: storeId }, { _id: 1 })).to.deep.include({ indexName: 'store_id_id', keyRanges: 1, sortedByIndex: true });
    expect(await plan(db, 'products', { $and: [{ store_id: storeId }, { _id: { $gt: middle._id } }] }, { _id: 1 }), 'a keyset page').to.deep.include({
      indexName: 'store_id_id',
      sortedByIndex: true,
    });
    expect(await plan(db, 'products', { store_id: storeId }, { _id: -1 }), 'read backwards').to.deep.include({ indexName: 'store_id_id', sortedByIndex: true });
    expect(
      await plan(
        db,
        'products',
        {
          $and: [{ store_id: storeId }, { $or: [{ title_lower: { $gt: middle.title_lower } }, { title_lower: middle.title_lower, _id: { $gt: middle._id } }] }],
        },
        { title_lower: 1, _id: 1 },
      ),
      'a keyset page by title',
    ).to.deep.include({ indexName: 'store_id_title_lower_id', sortedByIndex: true });
    expect(await plan(db, 'products', { store_id: storeId }, { updated_at: -1, _id: -1 }), 'newest first').to.deep.include({
      indexName: 'store_id_updated_at_id',
      sortedByIndex: true,
    });
    expect(await plan(db, 'products', { store_id: storeId, status: 'active' }, { _id: 1 }), 'a status filter').to.deep.include({
      indexName: 'store_id_status_id',
      sortedByIndex: true,
    });
    const variantIds = (middle.variants as { _id: ObjectId }[]).map((v) => v._id);
    expect(await plan(db, 'products', { store_id: storeId, 'variants._id': { $in: variantIds } }), 'variants by id (order pricing)').to.deep.include({
      indexName: 'store_id_variant_id',
      keyRanges: 2,
      multikey: true,
    });
    expect(await plan(db, 'products', { store_id: storeId, tags_lower: 'bench' }), 'a tag').to.deep.include({
      indexName: 'store_id_tags_lower',
      multikey: true,
    });
    const now = new Date();
    expect(
      await plan(
        db,
        'webhook_deliveries',
        { status: 'queued', next_attempt_at: { $lte: now }, $or: [{ lease_until: null }, { lease_until: { $lte: now } }] },
        { next_attempt_at: 1 },
      ),
      'the next due delivery',
    ).to.deep.include({ indexName: 'status_next_attempt_at', sortedByIndex: true });

    expect(await plan(db, 'products', { store_id: storeId }, { _id: 1 }, { $natural: 1 }), 'a $natural hint').to.not.have.property('indexName');
    expect(await plan(db, 'products', { vendor: 'x' }), 'no index on the field').to.not.have.property('indexName');
  });

  it('turns the SQLite indexes of a database written by upstream FerretDB into key tables at its next start, answering the same', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'emporium-localdb-upgrade-'));
    const queries: [Document, Document][] = [
      [{ store_id: storeId }, { _id: 1 }],
      [{ store_id: storeId, tags_lower: 'group-1' }, { _id: 1 }],
      [{ store_id: storeId, 'variants._id': (products[1]!.variants as { _id: ObjectId }[])[0]!._id }, { _id: 1 }],
      [
        { store_id: storeId, updated_at: { $lt: new Date(Date.UTC(2026, 0, 1, 0, 30)) } },
        { updated_at: -1, _id: -1 },
      ],
    ];
    const answers = async (db: Db) => Promise.all(queries.map(([f, s]) => db.collection('products').find(f).sort(s).toArray()));

    // Written by upstream's index code: SQLite expression indexes.
    const upstream = await startLocaldb({ dataDir, listen: '127.0.0.1:0', stderr: 'ignore', env: { ...process.env, LOCALDB_INDEX_ENGINE: 'sqlite' } });
    let client = await new MongoClient(upstream.url).connect();
    let db = client.db('upgrade');
    await ensureIndexes(db, catalogIndexes);
    await db.collection('products').insertMany(products.map((p) => ({ ...p })));
    expect(await plan(db, 'products', { store_id: storeId }, { _id: 1 }), 'upstream reads no key table').to.not.have.property('indexName');
    const before = await answers(db);
    expect(before[0]).to.have.length(30);
    await client.close();
    await upstream.stop();

    // The next start moves them to key tables.
    const upgraded = await startLocaldb({ dataDir, listen: '127.0.0.1:0', stderr: 'ignore' });
    try {
      client = await new MongoClient(upgraded.url).connect();
      db = client.db('upgrade');
      expect(await plan(db, 'products', { store_id: storeId }, { _id: 1 })).to.deep.include({ indexName: 'store_id_id', sortedByIndex: true });
      expect(await plan(db, 'products', { store_id: storeId, tags_lower: 'group-1' }), 'multikey, known from the documents').to.deep.include({
        multikey: true,
      });
      expect(await answers(db)).to.deep.equal(before);
      const duplicate = await db
        .collection('products')
        .insertOne({ ...products[1], _id: new ObjectId() })
        .then(
          () => null,
          (err: { code?: number }) => err,
        );
      expect(duplicate?.code, 'the unique handle index still holds').to.equal(11000);
      expect((await db.collection('products').listIndexes().toArray()).map((i) => i.name).sort()).to.deep.equal(
        ['_id_', ...catalogIndexes[0]!.indexes.map((i) => i.name!)].sort(),
      );
      await client.close();
    } finally {
      await upgraded.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("passes the Go tests of its FerretDB patches: key encoding, planning and counts from keys against FerretDB's own filter and sort, document decoding against upstream's", () => {
    const dir = mkdtempSync(join(tmpdir(), 'emporium-localdb-gotest-'));
    try {
      preparePatchedFerretdb(dir);
      mkdirSync(join(dir, 'ferretdb', '.git')); // upstream's test helpers look for their repository's root
      const run = spawnSync('go', ['test', '-count=1', './internal/backends/sqlite/keyindex/', './internal/handler/sjson/'], {
        cwd: join(dir, 'ferretdb'),
        encoding: 'utf8',
      });
      expect(run.status, `${run.stdout}\n${run.stderr}`).to.equal(0);
      expect(run.stdout).to.match(/^ok\s+\S+keyindex/m);
      expect(run.stdout).to.match(/^ok\s+\S+sjson/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
