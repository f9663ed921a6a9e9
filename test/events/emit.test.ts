import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import { useTestApp } from '../helpers/app.js';
import type { EventType } from '../../src/events/index.js';

describe('Domain events (src/events)', () => {
  const { app } = useTestApp('events');

  it('writes one document per event', async () => {
    const storeId = new ObjectId();
    const event = await app.platform.events.emit('product.created', storeId, { product: { id: 'p1' } }, 'product.created:p1');
    expect(event).to.include({ type: 'product.created', store_id: storeId.toHexString(), idempotency_key: 'product.created:p1' });
    const doc = await app.platform.db.collection('events').findOne({ _id: new ObjectId(event.id) });
    expect(doc?.payload).to.deep.equal({ product: { id: 'p1' } });
  });

  it('is idempotent on the key: a second emit returns the first event and writes nothing', async () => {
    const storeId = new ObjectId();
    const first = await app.platform.events.emit('order.created', storeId, { n: 1 }, 'order.created:o1');
    const second = await app.platform.events.emit('order.created', storeId, { n: 2 }, 'order.created:o1');
    expect(second).to.deep.equal(first);
    expect(await app.platform.db.collection('events').countDocuments({ idempotency_key: 'order.created:o1' })).to.equal(1);
  });

  it('keeps the first event when two emits with one key race', async () => {
    const storeId = new ObjectId();
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => app.platform.events.emit('order.paid', storeId, { i }, 'order.paid:race')));
    expect(new Set(results.map((r) => r.id)).size).to.equal(1);
    expect(await app.platform.db.collection('events').countDocuments({ idempotency_key: 'order.paid:race' })).to.equal(1);
  });

  it('refuses event types that are not lower-case dotted names', async () => {
    for (const type of ['ProductCreated', 'product', 'product.Created', 'product..created']) {
      let failed = false;
      await app.platform.events.emit(type as EventType, new ObjectId(), {}, `bad:${type}`).catch(() => (failed = true));
      expect(failed, type).to.equal(true);
    }
  });
});
