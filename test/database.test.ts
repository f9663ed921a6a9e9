import { expect } from 'chai';
import { startTestApp, type TestApp } from './helpers/app.js';

/**
 * What the platform relies on from its database, checked against the one under test (the
 * embedded FerretDB, or MONGODB_URL): single-document atomicity. Raw FerretDB 1.24 fails
 * these (an update reads, then writes back, with no lock between); tools/localdb's
 * serializing proxy is what makes the embedded database pass them.
 */
describe('The database under test', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp('database');
  });
  after(() => app.close());

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
    const claims = await Promise.all(
      Array.from({ length: 40 }, (_, i) => col.findOneAndUpdate({ _id: 'claim', owner: null }, { $set: { owner: i } })),
    );
    expect(claims.filter(Boolean)).to.have.length(1);
  });

  it('keeps concurrent upserts on a unique key to one document', async () => {
    const col = app.platform.db.collection<{ key: string; hits: number }>('atomicity_upserts');
    await col.createIndex({ key: 1 }, { unique: true, name: 'key_unique' });
    await Promise.allSettled(
      Array.from({ length: 20 }, () => col.updateOne({ key: 'k' }, { $inc: { hits: 1 } }, { upsert: true })),
    );
    const docs = await col.find({ key: 'k' }).toArray();
    expect(docs).to.have.length(1);
  });
});
