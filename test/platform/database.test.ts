import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import { useTestApp } from '../helpers/app.js';

/**
 * What the platform relies on from its database, checked against the one under test (the
 * embedded FerretDB, or MONGODB_URL): single-document atomicity. Raw FerretDB 1.24 fails
 * these (an update reads, then writes back, with no lock between); tools/localdb's
 * patched FerretDB (one write command at a time) is what makes the embedded database pass them.
 */
describe('The database under test', () => {
  const { app } = useTestApp('database');

  it('answers filters that combine _id with other conditions exactly (the embedded database looks these up by _id)', async () => {
    type Doc = { _id: ObjectId | string; store: string; status: string; n: number; tags?: string[] };
    const col = app.platform.db.collection<Doc>('id_lookups');
    const a = new ObjectId();
    const b = new ObjectId();
    await col.insertMany([
      { _id: a, store: 's1', status: 'queued', n: 1, tags: ['x'] },
      { _id: b, store: 's2', status: 'queued', n: 2 },
      { _id: 'text-id', store: 's1', status: 'done', n: 3 },
    ]);
    expect(await col.findOne({ _id: a, store: 's1' })).to.include({ n: 1 });
    expect(await col.findOne({ _id: a, store: 's2' }), 'same _id, another store').to.equal(null);
    expect(await col.findOne({ store: 's1', _id: 'text-id', n: { $gte: 3 } })).to.include({ status: 'done' });
    expect(await col.findOne({ _id: a, tags: 'x', $or: [{ status: 'queued' }, { n: 9 }] })).to.include({ n: 1 });
    expect(await col.countDocuments({ _id: { $in: [a, b] }, status: 'queued' })).to.equal(2);
    expect(await col.findOneAndUpdate({ _id: b, store: 's1' }, { $set: { status: 'taken' } }), 'no match, no write').to.equal(null);
    expect(await col.findOneAndUpdate({ _id: b, store: 's2', status: 'queued' }, { $set: { status: 'taken' } }, { returnDocument: 'after' })).to.include({
      status: 'taken',
    });
    expect((await col.updateOne({ _id: a, status: 'done' }, { $inc: { n: 1 } })).matchedCount).to.equal(0);
    expect((await col.updateOne({ _id: a, status: 'queued' }, { $inc: { n: 1 } })).modifiedCount).to.equal(1);
    expect((await col.deleteOne({ _id: 'text-id', store: 's2' })).deletedCount).to.equal(0);
    expect((await col.deleteOne({ _id: 'text-id', store: 's1' })).deletedCount).to.equal(1);
    expect((await col.find({}).sort({ store: 1 }).toArray()).map((d) => [d.store, d.n, d.status])).to.deep.equal([
      ['s1', 2, 'queued'],
      ['s2', 2, 'taken'],
    ]);
    const duplicate = await col.insertOne({ _id: a, store: 's9', status: 'dup', n: 0 }).then(
      () => null,
      (err: Error) => err,
    );
    expect(duplicate, 'a second document with the same _id').to.be.instanceOf(Error);
  });

  it('reads a whole index in its order when a sort needs it and nothing bounds it (ascending and descending indexes)', async () => {
    const col = app.platform.db.collection<{ _id: number; at?: Date | null; g?: number | string }>('whole_index_reads');
    await col.createIndex({ at: 1, _id: 1 }, { name: 'at_id' });
    await col.createIndex({ g: -1, _id: -1 }, { name: 'g_id_desc' });
    await col.insertMany([
      { _id: 1, at: new Date('2026-01-02'), g: 1 },
      { _id: 2, g: 2 },
      { _id: 3, at: null, g: 'x' },
      { _id: 4, at: new Date('2026-01-01'), g: 1 },
    ]);
    const ids = async (filter: object, sort: Record<string, 1 | -1>) => (await col.find(filter).sort(sort).toArray()).map((d) => d._id);
    // MongoDB's order: missing and null first (as null), then numbers, strings, dates.
    expect(await ids({}, { at: 1, _id: 1 })).to.deep.equal([2, 3, 4, 1]);
    expect(await ids({}, { at: -1, _id: -1 })).to.deep.equal([1, 4, 3, 2]);
    expect(await ids({}, { g: -1, _id: -1 })).to.deep.equal([3, 2, 4, 1]);
    expect(await ids({}, { g: 1, _id: 1 })).to.deep.equal([1, 4, 2, 3]);
    expect(await ids({ at: { $ne: null } }, { at: -1, _id: -1 })).to.deep.equal([1, 4]);
    expect(await col.countDocuments({ at: { $ne: null } })).to.equal(2);
    // $ne of a value with values below it: a count from the keys reads from the very first key too.
    expect(await col.countDocuments({ at: { $ne: new Date('2026-01-02') } })).to.equal(3);
    expect(await col.countDocuments({ g: { $ne: 2 } })).to.equal(3);
    expect((await ids({ g: { $ne: 2 } }, { g: -1, _id: -1 })).sort()).to.deep.equal([1, 3, 4]);
  });

  it("counts as MongoDB does, whether an index's keys answer the count or the documents are read (null, missing, mixed types, $ne, skip and limit)", async () => {
    type Job = { _id: number; name: string; lockedAt?: Date | string | null; nextRunAt?: Date | number | null; failedAt?: Date | null; disabled?: boolean };
    const col = app.platform.db.collection<Job>('count_jobs');
    await col.createIndex({ name: 1, lockedAt: 1, nextRunAt: 1, failedAt: 1 });
    const now = new Date('2026-01-01T00:00:00Z');
    const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000);
    await col.insertMany([
      { _id: 1, name: 'a', lockedAt: null, nextRunAt: at(-60) },
      { _id: 2, name: 'a', nextRunAt: at(-120) }, // lockedAt missing: null matches it
      { _id: 3, name: 'a', lockedAt: null, nextRunAt: at(60) },
      { _id: 4, name: 'a', lockedAt: null, nextRunAt: null, failedAt: at(-60) },
      { _id: 5, name: 'a', lockedAt: at(-1), nextRunAt: at(-5) },
      { _id: 6, name: 'a', lockedAt: null, nextRunAt: 5 }, // a number: no date comparison matches it
      { _id: 7, name: 'a', lockedAt: null, nextRunAt: now, disabled: true },
      { _id: 8, name: 'a', lockedAt: null }, // nextRunAt and failedAt missing
      { _id: 9, name: 'b', lockedAt: null, nextRunAt: at(-60) },
      { _id: 10, name: 'b', lockedAt: null, nextRunAt: null, failedAt: null },
      { _id: 11, name: 'b', lockedAt: 'worker', nextRunAt: at(-60) },
    ]);
    const cases: [string, Record<string, unknown>, number, { skip?: number; limit?: number }?][] = [
      ['due', { name: 'a', lockedAt: null, nextRunAt: { $lte: now } }, 3],
      ['scheduled', { name: 'a', lockedAt: null, nextRunAt: { $gt: now } }, 1],
      ['running', { name: 'a', lockedAt: { $ne: null } }, 1],
      ['running (a string)', { name: 'b', lockedAt: { $ne: null } }, 1],
      ['failed', { name: 'a', lockedAt: null, nextRunAt: null, failedAt: { $ne: null } }, 1],
      ['failedAt explicitly null', { name: 'b', lockedAt: null, nextRunAt: null, failedAt: null }, 1],
      ['a name, unlocked', { name: 'a', lockedAt: null }, 7],
      ['null and missing nextRunAt', { name: 'a', lockedAt: null, nextRunAt: null }, 2],
      ['a number, not the dates', { name: 'a', lockedAt: null, nextRunAt: { $lte: 10 } }, 1],
      ['a range of dates', { name: 'a', lockedAt: null, nextRunAt: { $gte: at(-120), $lt: now } }, 2],
      ['names by $in', { name: { $in: ['a', 'b'] }, lockedAt: null, nextRunAt: { $lte: now } }, 4],
      ['other names', { name: { $ne: 'a' } }, 3],
      ['no such name', { name: 'c' }, 0],
      ['a field outside the index', { name: 'a', lockedAt: null, nextRunAt: { $lte: now }, disabled: { $ne: true } }, 2],
      ['a field after a gap in the index', { name: 'a', nextRunAt: null }, 2],
      ['limit', { name: 'a', lockedAt: null, nextRunAt: { $lte: now } }, 2, { limit: 2 }],
      ['skip', { name: 'a', lockedAt: null, nextRunAt: { $lte: now } }, 2, { skip: 1 }],
      ['skip and limit', { name: 'a', lockedAt: null, nextRunAt: { $lte: now } }, 1, { skip: 2, limit: 5 }],
      ['skip past the end', { name: 'a', lockedAt: null, nextRunAt: { $lte: now } }, 0, { skip: 5 }],
      ['limit, a field outside the index', { name: 'a', disabled: { $ne: true } }, 2, { skip: 1, limit: 2 }],
    ];
    for (const [label, filter, expected, options] of cases) {
      expect(await col.countDocuments(filter, options), `countDocuments: ${label}`).to.equal(expected);
      const reply = await app.platform.db.command({ count: 'count_jobs', query: filter, ...options });
      expect(reply.n, `the count command: ${label}`).to.equal(expected);
      if (options) continue;
      expect((await col.find(filter).hint({ $natural: 1 }).toArray()).length, `documents read: ${label}`).to.equal(expected);
      const counted = await col.aggregate([{ $match: filter }, { $count: 'n' }]).toArray();
      expect(counted, `$count: ${label}`).to.deep.equal(expected === 0 ? [] : [{ n: expected }]);
    }

    // Once an array is indexed (multikey), an empty array is not null and counts read documents.
    await col.insertMany([
      { _id: 12, name: 'm', lockedAt: [] as never },
      { _id: 13, name: 'm', lockedAt: [null] as never },
      { _id: 14, name: 'm' },
      { _id: 15, name: 'm', lockedAt: [now] as never },
    ]);
    expect(await col.countDocuments({ name: 'm', lockedAt: null }), 'multikey: null').to.equal(2);
    expect(await col.countDocuments({ name: 'm', lockedAt: { $ne: null } }), 'multikey: $ne null').to.equal(2);
    expect(await col.countDocuments({ name: 'a', lockedAt: null, nextRunAt: { $lte: now } }), 'multikey: due').to.equal(3);
  });

  it('applies concurrent $inc on one document without losing any', async () => {
    const col = app.platform.db.collection<{ _id: string; n: number }>('atomicity');
    await col.insertOne({ _id: 'counter', n: 0 });
    const replies = await Promise.all(
      Array.from({ length: 40 }, () => col.findOneAndUpdate({ _id: 'counter' }, { $inc: { n: 1 } }, { returnDocument: 'after' })),
    );
    expect((await col.findOne({ _id: 'counter' }))?.n).to.equal(40);
    expect(new Set(replies.map((r) => r?.n)).size, 'every caller saw its own increment').to.equal(40);
  });

  it('lets exactly one of many concurrent conditional claims win', async () => {
    const col = app.platform.db.collection<{ _id: string; owner: number | null }>('atomicity');
    await col.insertOne({ _id: 'claim', owner: null });
    const claims = await Promise.all(Array.from({ length: 40 }, (_, i) => col.findOneAndUpdate({ _id: 'claim', owner: null }, { $set: { owner: i } })));
    expect(claims.filter(Boolean)).to.have.length(1);
  });

  it('keeps concurrent upserts on a unique key to one document', async () => {
    const col = app.platform.db.collection<{ key: string; hits: number }>('atomicity_upserts');
    await col.createIndex({ key: 1 }, { unique: true, name: 'key_unique' });
    await Promise.allSettled(Array.from({ length: 20 }, () => col.updateOne({ key: 'k' }, { $inc: { hits: 1 } }, { upsert: true })));
    const docs = await col.find({ key: 'k' }).toArray();
    expect(docs).to.have.length(1);
  });
});
