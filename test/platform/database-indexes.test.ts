import { expect } from 'chai';
import { Long, MongoServerError, ObjectId, type Collection, type Document, type Filter, type Sort, type UpdateFilter } from 'mongodb';
import { insertEach, isDuplicateKeyError } from '../../src/db.js';
import { useTestApp } from '../helpers/app.js';

/**
 * Indexed queries answer exactly what a collection scan answers, on the database under test
 * (the embedded database reads them through its key tables; MongoDB through its indexes):
 * every query runs twice, as is and with `hint({$natural: 1})` (MongoDB's way to force a scan),
 * and the two answers must be equal, in order. The documents mix every type an indexed field
 * can hold (numbers of three types, strings with odd characters, dates, nulls, missing fields,
 * arrays, embedded documents), the indexes are compound, descending, multikey and unique, and
 * the queries are the shapes the platform uses (store scope, keyset pages, sorted claims,
 * `$in` over array elements) and then some. The check runs again after updates that move
 * documents between keys, turn fields into arrays and back, and deletes.
 */

/** A small deterministic generator, so a failure can be replayed. */
function generator(seed: number) {
  let s = seed;
  const next = () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(values: readonly T[]): T => values[int(values.length)]!;
  return { next, int, pick };
}

const STORES = [new ObjectId(), new ObjectId(), new ObjectId()];
const TITLES = ['', 'a', 'A', 'ab', 'b', 'zebra', 'é', 'a<b&c', 'q"uote', 'back\\slash', 'tab\there', '日本'] as const;
const TAGS = ['red', 'blue', 'green', 'Red'] as const;
const DATES = [0, 1, 2, 3].map((d) => new Date(Date.UTC(2026, 0, 1 + d)));

/** Documents whose `_id` may be of any type (the driver's default schema says ObjectId). */
type Doc = Document & { _id: any };

function mixedValue(g: ReturnType<typeof generator>): unknown {
  switch (g.int(14)) {
    case 0:
      return g.int(7) - 3;
    case 1:
      return (g.int(14) - 7) / 2;
    case 2:
      return Long.fromNumber(g.int(7) - 3);
    case 3:
      return Long.fromString('9007199254740993'); // beyond float64's exact integers
    case 4:
      return g.pick(['a', 'b', 'B', '', '10']);
    case 5:
      return g.pick(DATES);
    case 6:
      return null;
    case 7:
      return undefined; // missing
    case 8:
      return g.int(2) === 0;
    case 9:
      return g.pick(STORES);
    case 10:
      return { x: g.int(3) };
    case 11:
      return [g.int(7) - 3, g.int(7) - 3];
    case 12:
      return [];
    default:
      return 9007199254740992;
  }
}

function makeDoc(g: ReturnType<typeof generator>, i: number): Doc {
  const doc: Doc = {
    _id: i % 17 === 0 ? g.pick(['id<1>', 'id"2', `id-${i}`, 'é-id']) + `-${i}` : new ObjectId(),
    store: g.pick(STORES),
    title: g.pick(TITLES),
    updated: g.pick(DATES),
    code: `c-${i}`,
    variants: Array.from({ length: g.int(3) }, (_, j) => ({ sku: `s-${g.int(40)}`, price: 100 * j })),
  };
  if (g.int(5) > 0) doc.tags = Array.from({ length: g.int(3) }, () => g.pick(TAGS));
  const n = mixedValue(g);
  if (n !== undefined) doc.n = n;
  return doc;
}

/** A filter on a string `_id` (the driver's types expect an ObjectId there). */
const where = (filter: Document) => filter as Filter<Doc>;

const INDEXES: { key: Record<string, 1 | -1>; name: string; unique?: boolean }[] = [
  { key: { store: 1, _id: 1 }, name: 'store_id' },
  { key: { store: 1, title: 1, _id: 1 }, name: 'store_title_id' },
  { key: { store: 1, updated: -1, _id: -1 }, name: 'store_updated_desc' },
  { key: { store: 1, tags: 1 }, name: 'store_tags' },
  { key: { store: 1, 'variants.sku': 1 }, name: 'store_variant_sku' },
  { key: { n: 1 }, name: 'n' },
  { key: { code: 1 }, name: 'code_unique', unique: true },
];

type Query = { name: string; filter: Filter<Doc>; sort?: Sort; limit?: number };

function queries(docs: Doc[]): Query[] {
  const [s1, s2, s3] = STORES;
  const inStore = (s: ObjectId) => docs.filter((d) => (d.store as ObjectId).equals(s));
  const byId = inStore(s1!)
    .filter((d) => d._id instanceof ObjectId)
    .sort((a, b) => String(a._id).localeCompare(String(b._id)));
  const mid = byId[Math.floor(byId.length / 2)]!;
  const skus = docs.flatMap((d) => (d.variants as { sku: string }[]).map((v) => v.sku)).slice(0, 3);
  return [
    { name: 'a store, by _id', filter: { store: s1 }, sort: { _id: 1 } },
    { name: 'a store after a cursor (keyset page)', filter: { $and: [{ store: s1 }, { _id: { $gt: mid._id } }] }, sort: { _id: 1 }, limit: 20 },
    { name: 'a store, newest first', filter: { store: s1 }, sort: { _id: -1 }, limit: 15 },
    {
      name: 'a store by title after a cursor',
      filter: { $and: [{ store: s2 }, { $or: [{ title: { $gt: 'a' } }, { title: 'a', _id: { $gt: mid._id } }] }] },
      sort: { title: 1, _id: 1 },
      limit: 25,
    },
    { name: 'a store by title, descending', filter: { store: s3 }, sort: { title: -1, _id: -1 } },
    { name: 'a store by updated (descending index)', filter: { store: s1 }, sort: { updated: -1, _id: -1 } },
    { name: 'a store by updated, ascending (index read backwards)', filter: { store: s2 }, sort: { updated: 1, _id: 1 }, limit: 12 },
    { name: 'a store updated before a date', filter: { store: s1, updated: { $lt: DATES[2] } }, sort: { updated: -1, _id: -1 }, limit: 10 },
    { name: 'a store, a date range', filter: { store: s3, updated: { $gte: DATES[1], $lte: DATES[2] } }, sort: { _id: 1 } },
    { name: 'a tag (array elements)', filter: { store: s3, tags: 'red' }, sort: { _id: 1 } },
    { name: 'any of two tags', filter: { store: s2, tags: { $in: ['red', 'blue'] } }, sort: { _id: 1 } },
    { name: 'a tag, case matters', filter: { store: s1, tags: 'Red' }, sort: { _id: 1 } },
    { name: 'variants by sku (dotted path into an array)', filter: { store: s1, 'variants.sku': { $in: skus } }, sort: { _id: 1 } },
    { name: 'mixed types: greater than a number', filter: { n: { $gt: 0 } }, sort: { _id: 1 } },
    { name: 'mixed types: a number range', filter: { n: { $gte: -1, $lt: 2 } }, sort: { _id: 1 } },
    { name: 'mixed types: 2 as int, double and long alike', filter: { n: { $in: [2, 2.0, Long.fromNumber(2)] } }, sort: { _id: 1 } },
    { name: 'mixed types: beyond float64', filter: { n: Long.fromString('9007199254740993') }, sort: { _id: 1 } },
    { name: 'mixed types: null or missing', filter: { n: null }, sort: { _id: 1 } },
    { name: 'mixed types: a string', filter: { n: 'b' }, sort: { _id: 1 } },
    { name: 'mixed types: before a date', filter: { n: { $lt: DATES[2] } }, sort: { _id: 1 } },
    { name: 'mixed types: an embedded document', filter: { n: { x: 1 } }, sort: { _id: 1 } },
    { name: 'mixed types: an ObjectId', filter: { n: s1 }, sort: { _id: 1 } },
    { name: 'mixed types: true', filter: { n: true }, sort: { _id: 1 } },
    { name: 'a unique code', filter: { code: 'c-17' } },
    {
      name: 'titles with odd characters',
      filter: { store: s1, title: { $in: ['', 'a<b&c', 'q"uote', 'back\\slash', 'tab\there'] } },
      sort: { title: 1, _id: 1 },
    },
    { name: 'an $or across stores', filter: { $or: [{ store: s1, title: 'a' }, { store: s2 }] }, sort: { _id: 1 } },
    { name: 'no scope, sorted by title', filter: {}, sort: { title: 1, _id: 1 }, limit: 30 },
    { name: 'a string _id among ObjectIds', filter: where({ store: s2, _id: { $gte: 'id' } }), sort: { _id: 1 } },
    { name: 'conditions nothing matches', filter: { store: s1, updated: { $gt: DATES[3], $lt: DATES[0] } } },
  ];
}

async function expectIndexedEqualsScan(col: Collection<Doc>, docs: Doc[], when: string): Promise<void> {
  for (const q of queries(docs)) {
    const run = (scan: boolean) => {
      let cursor = col.find(q.filter);
      if (q.sort) cursor = cursor.sort(q.sort);
      if (q.limit) cursor = cursor.limit(q.limit);
      if (scan) cursor = cursor.hint({ $natural: 1 });
      return cursor.toArray();
    };
    const [indexed, scanned] = await Promise.all([run(false), run(true)]);
    // Without a sort, order is not defined: compare as sets.
    const ordered = (list: Doc[]) => (q.sort ? list : [...list].sort((a, b) => String(a._id).localeCompare(String(b._id))));
    expect(ordered(indexed), `${when}: ${q.name}`).to.deep.equal(ordered(scanned));
  }
}

describe('Indexed queries on the database under test', () => {
  const { app } = useTestApp('database-indexes');
  let col: Collection<Doc>;
  let docs: Doc[];
  const g = generator(20261122);

  before(async () => {
    col = app.platform.db.collection<Doc>('indexed');
    await col.createIndexes(INDEXES.slice(0, 3)); // some before the documents...
    docs = Array.from({ length: 400 }, (_, i) => makeDoc(g, i));
    await col.insertMany(docs);
    for (const index of INDEXES.slice(3)) await col.createIndex(index.key, { name: index.name, unique: index.unique ?? false }); // ...some built over them
  });

  it('answers every query shape as a collection scan does', async () => {
    const scanned = await col.find({}).hint({ $natural: 1 }).toArray();
    expect(scanned).to.have.length(docs.length);
    await expectIndexedEqualsScan(col, docs, 'after inserts');
  });

  it('still does after updates that move documents between keys, turn fields into arrays and back, and deletes', async () => {
    const ids = docs.map((d) => d._id);
    for (let i = 0; i < 120; i++) {
      const _id = ids[g.int(ids.length)];
      const set: Document = {};
      const unset: Document = {};
      switch (g.int(6)) {
        case 0:
          set.store = g.pick(STORES);
          break;
        case 1:
          set.title = g.pick(TITLES);
          set.updated = g.pick(DATES);
          break;
        case 2:
          set.tags = g.int(2) ? g.pick(TAGS) : [g.pick(TAGS), g.pick(TAGS)];
          break;
        case 3:
          unset.tags = '';
          break;
        case 4: {
          const n = mixedValue(g);
          if (n === undefined) unset.n = '';
          else set.n = n;
          break;
        }
        default:
          set.variants = [{ sku: `s-${g.int(40)}`, price: 1 }];
      }
      await col.updateOne({ _id }, { ...(Object.keys(set).length ? { $set: set } : {}), ...(Object.keys(unset).length ? { $unset: unset } : {}) });
    }
    await col.updateMany({ store: STORES[2], title: 'a' }, { $set: { title: 'moved' } });
    await col.deleteMany({ store: STORES[1], tags: 'green' });
    await col.deleteOne({ code: 'c-3' });
    await col.insertMany(Array.from({ length: 40 }, (_, i) => makeDoc(g, 1000 + i)));
    docs = await col.find({}).hint({ $natural: 1 }).toArray();
    await expectIndexedEqualsScan(col, docs, 'after updates and deletes');
  });

  it('claims the first document in a sort order with findOneAndUpdate, as a scan would', async () => {
    const [s1] = STORES;
    const expected = await col
      .find({ store: s1, updated: { $lte: DATES[2] } })
      .sort({ updated: 1, _id: 1 })
      .limit(1)
      .hint({ $natural: 1 })
      .toArray();
    const claimed = await col.findOneAndUpdate({ store: s1, updated: { $lte: DATES[2] } }, { $set: { claimed: true } }, { sort: { updated: 1, _id: 1 } });
    expect(claimed?._id).to.deep.equal(expected[0]?._id);
  });

  it('keeps the answers after an index is dropped', async () => {
    await col.dropIndex('store_title_id');
    docs = await col.find({}).hint({ $natural: 1 }).toArray();
    await expectIndexedEqualsScan(col, docs, 'after dropping an index');
  });

  it('refuses a duplicate in a unique index on insert and on update, changing nothing', async () => {
    await col.insertMany([
      { _id: 'u1', code: 'u-1', store: STORES[0] },
      { _id: 'u2', code: 'u-2', store: STORES[0] },
    ]);
    const before = await col.countDocuments({});
    const inserted = await col.insertOne({ _id: new ObjectId(), code: 'u-1', store: STORES[0] }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(inserted).to.be.instanceOf(MongoServerError);
    expect((inserted as MongoServerError).code).to.equal(11000);
    const updated = await col.updateOne(where({ _id: 'u2' }), { $set: { code: 'u-1' } }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(isDuplicateKeyError(updated), String(updated)).to.equal(true);
    expect(
      (
        await col
          .find({ code: { $in: ['u-1', 'u-2'] } })
          .sort({ _id: 1 })
          .toArray()
      ).map((d) => [d._id, d.code]),
    ).to.deep.equal([
      ['u1', 'u-1'],
      ['u2', 'u-2'],
    ]);
    expect(await col.countDocuments({})).to.equal(before);
  });

  it('applies a bulk of updates by _id (one command) exactly as the same updates one at a time', async () => {
    type Leased = { _id: ObjectId; store: ObjectId; status: string; due: Date | null; code: string; lease: string | null; attempts: { n: number }[] };
    const bulk = app.platform.db.collection<Leased>('bulk_a');
    const single = app.platform.db.collection<Leased>('bulk_b');
    const oid = (n: number) => new ObjectId(n.toString(16).padStart(24, '0'));
    for (const c of [bulk, single]) {
      await c.createIndexes([
        { key: { store: 1, status: 1, _id: 1 }, name: 'store_status_id' },
        { key: { status: 1, due: 1 }, name: 'status_due' },
        { key: { code: 1 }, name: 'code_unique', unique: true },
      ]);
      await c.insertMany(
        Array.from({ length: 30 }, (_, i) => ({
          _id: oid(i + 1),
          store: STORES[i % 2]!,
          status: 'queued',
          due: DATES[i % 4]!,
          code: `c${i}`,
          lease: 'me',
          attempts: [],
        })),
      );
    }
    const ops: { filter: Filter<Leased>; update: UpdateFilter<Leased> }[] = Array.from({ length: 30 }, (_, i) => ({
      filter: { _id: oid(i + 1), lease: i % 7 === 3 ? 'someone else' : 'me', status: 'queued' }, // every seventh matches nothing
      update: { $set: { status: i % 3 ? 'done' : 'failed', due: i % 3 ? null : DATES[(i + 1) % 4]!, lease: null }, $push: { attempts: { n: i } } },
    }));
    const result = await bulk.bulkWrite(
      ops.map((op) => ({ updateOne: op })),
      { ordered: false },
    );
    let matched = 0;
    for (const op of ops) matched += (await single.updateOne(op.filter, op.update)).matchedCount;
    expect(result.matchedCount).to.equal(matched);
    expect(result.modifiedCount).to.equal(matched);
    expect(await bulk.find({}).sort({ _id: 1 }).toArray()).to.deep.equal(await single.find({}).sort({ _id: 1 }).toArray());
    for (const filter of [
      { store: STORES[0], status: 'done' },
      { status: 'queued', due: { $lte: DATES[3] } },
      { status: 'failed' },
      { code: 'c3' },
    ] as Filter<Leased>[]) {
      const scanned = await bulk.find(filter).sort({ _id: 1 }).hint({ $natural: 1 }).toArray();
      expect(await bulk.find(filter).sort({ _id: 1 }).toArray(), JSON.stringify(filter)).to.deep.equal(scanned);
    }
    // One statement of an ordered bulk breaks the unique index: those before it are applied, not those after.
    const refused = await bulk
      .bulkWrite(
        [
          { updateOne: { filter: { _id: oid(1) }, update: { $set: { code: 'x1' } } } },
          { updateOne: { filter: { _id: oid(2) }, update: { $set: { code: 'c5' } } } },
          { updateOne: { filter: { _id: oid(3) }, update: { $set: { code: 'x3' } } } },
        ],
        { ordered: true },
      )
      .then(
        () => null,
        (err: unknown) => err,
      );
    expect(isDuplicateKeyError(refused) || (refused as { code?: number } | null)?.code === 11000, String(refused)).to.equal(true);
    expect(
      (
        await bulk
          .find({ _id: { $in: [1, 2, 3].map(oid) } })
          .sort({ _id: 1 })
          .toArray()
      ).map((d) => d.code),
    ).to.deep.equal(['x1', 'c1', 'c2']);
    expect(await bulk.countDocuments({ code: 'c5' })).to.equal(1);
  });

  it('applies an update of many documents in one go with their index keys right', async () => {
    const many = app.platform.db.collection<Doc>('update_many');
    await many.createIndex({ flag: 1, _id: 1 }, { name: 'flag_id' });
    await many.insertMany(Array.from({ length: 300 }, (_, i) => ({ _id: i, flag: i % 3 === 0 ? null : 'x', n: i })));
    const result = await many.updateMany({ flag: null }, { $set: { flag: 'seen' }, $inc: { n: 1000 } });
    expect([result.matchedCount, result.modifiedCount]).to.deep.equal([100, 100]);
    expect(await many.countDocuments({ flag: null })).to.equal(0);
    expect((await many.find({ flag: 'seen' }).sort({ _id: 1 }).toArray()).map((d) => [d._id, d.n])).to.deep.equal(
      Array.from({ length: 100 }, (_, i) => [i * 3, i * 3 + 1000]),
    );
  });

  it('reports each document of an unordered insert: written, or refused by a unique index', async () => {
    const each = app.platform.db.collection<Doc>('insert_each');
    await each.createIndex({ key: 1 }, { unique: true, name: 'key_unique' });
    await each.insertOne({ _id: 0, key: 'taken' });
    const outcomes = await insertEach(each, [
      { _id: 1, key: 'a' },
      { _id: 2, key: 'taken' },
      { _id: 3, key: 'b' },
      { _id: 4, key: 'a' },
      { _id: 5, key: 'c' },
    ]);
    expect(outcomes).to.deep.equal(['inserted', 'duplicate', 'inserted', 'duplicate', 'inserted']);
    expect((await each.find({}).sort({ _id: 1 }).toArray()).map((d) => d._id)).to.deep.equal([0, 1, 3, 5]);
  });

  it('counts a missing field as null in a unique index, as MongoDB does', async () => {
    const unique = app.platform.db.collection<Doc>('unique_missing');
    await unique.createIndex({ key: 1 }, { unique: true, name: 'key_unique' });
    await unique.insertOne({ _id: 1, other: 'x' });
    const second = await unique.insertOne({ _id: 2, other: 'y' }).then(
      () => null,
      (err: unknown) => err,
    );
    expect((second as MongoServerError | null)?.code).to.equal(11000);
    const built = await app.platform.db
      .collection<Doc>('unique_build')
      .insertMany([{ _id: 1 }, { _id: 2 }])
      .then(() =>
        app.platform.db
          .collection<Doc>('unique_build')
          .createIndex({ key: 1 }, { unique: true, name: 'key_unique' })
          .then(
            () => null,
            (err: unknown) => err,
          ),
      );
    expect(built, 'a unique index over two documents without the field').to.be.instanceOf(MongoServerError);
  });

  it('refuses a document with arrays in two fields of one compound index, as MongoDB does', async () => {
    const parallel = app.platform.db.collection<Doc>('parallel_arrays');
    await parallel.createIndex({ a: 1, b: 1 }, { name: 'a_b' });
    await parallel.insertOne({ _id: 1, a: [1, 2], b: 3 });
    const refused = await parallel.insertOne({ _id: 2, a: [1], b: [2] }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(refused).to.be.instanceOf(MongoServerError);
    expect(String(refused)).to.match(/parallel arrays/);
    expect(await parallel.countDocuments({})).to.equal(1);
    expect((await parallel.find({ a: 2, b: 3 }).toArray()).map((d) => d._id)).to.deep.equal([1]);
  });
});
