import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import { givenMerchant, givenMerchantWithStore } from '../helpers/factories.js';
import { useTestApp } from '../helpers/app.js';

const OPERATOR = 'op-outbox@example.com';

/**
 * The outbox (docs/operations.md, Outbox): a document whose writer stopped before recording its
 * events, and a message whose delivery job was lost, shown to operators and re-driven at once:
 * each event recorded once however often it is re-driven, the message's delivery enqueued.
 */
describe('Operations: the outbox and its re-drive', () => {
  const { app, api } = useTestApp('operations_outbox', () => ({ OPERATOR_EMAILS: OPERATOR }));
  let operator: { token: string };
  before(async () => {
    operator = { token: (await givenMerchant(api, { email: OPERATOR })).token };
  });

  it('shows documents still carrying events past the settle delay and undelivered messages, and re-drives them: each event recorded once', async () => {
    const shop = await givenMerchantWithStore(api);
    const carrier = new ObjectId();
    const key = `bulk_operation.finished:${carrier.toHexString()}`;
    const pending = app.platform.events.pending('bulk_operation.finished', shop.store.id, { bulk_operation: { id: carrier.toHexString() } }, key);
    const since = new Date(Date.now() - 120_000);
    await app.platform.db
      .collection('bulk_operations')
      .insertOne({ _id: carrier, store_id: new ObjectId(shop.store.id), status: 'completed', pending_events: [pending], events_pending_since: since });
    const message = new ObjectId();
    await app.platform.db.collection('outbound_messages').insertOne({
      _id: message,
      kind: 'signin_code',
      to: 'someone@example.com',
      subject: 'Your code',
      body_encrypted: null,
      status: 'queued',
      transport: null,
      attempts: 0,
      last_error: null,
      next_attempt_at: new Date(Date.now() - 600_000),
      lease_until: null,
      lease_owner: null,
      created_at: new Date(Date.now() - 600_000),
      delivered_at: null,
      expires_at: new Date(Date.now() + 3600_000),
    });

    const before = await api.get('/v1/operations/runtime/outbox', operator);
    expect(before.status, JSON.stringify(before.body)).to.equal(200);
    expect(before.body.data.events_outbox.by_collection.find((c: any) => c.collection === 'bulk_operations')).to.include({
      documents: 1,
      oldest: since.toISOString(),
    });
    expect(before.body.data.outbound_messages).to.include({ queued: 1, due: 1 });

    const redriven = await api.post('/v1/operations/runtime/outbox/redrive', undefined, operator);
    expect(redriven.status, JSON.stringify(redriven.body)).to.equal(200);
    expect(redriven.body.data).to.include({ events_recorded: 1, messages_redispatched: 1 });
    expect(redriven.body.data.outbox.events_outbox.by_collection.find((c: any) => c.collection === 'bulk_operations')).to.equal(undefined);
    expect(await app.platform.db.collection('events').countDocuments({ idempotency_key: key })).to.equal(1);
    const doc = await app.platform.db.collection('bulk_operations').findOne({ _id: carrier });
    expect(doc!.pending_events ?? []).to.deep.equal([]);
    expect(await app.platform.db.collection('agendaJobs').countDocuments({ name: 'messages.deliver', 'data.message_id': message.toHexString() })).to.equal(1);

    // Again: nothing left to record, and the event is still there once.
    const again = await api.post('/v1/operations/runtime/outbox/redrive', undefined, operator);
    expect(again.body.data.events_recorded).to.equal(0);
    expect(await app.platform.db.collection('events').countDocuments({ idempotency_key: key })).to.equal(1);
  });

  it('is for operators only', async () => {
    const shop = await givenMerchantWithStore(api);
    for (const [method, path] of [
      ['get', '/v1/operations/runtime/outbox'],
      ['post', '/v1/operations/runtime/outbox/redrive'],
    ] as const) {
      const res = method === 'get' ? await api.get(path, shop.as) : await api.post(path, undefined, shop.as);
      expect(res.status, path).to.equal(403);
      expect((method === 'get' ? await api.get(path) : await api.post(path, undefined)).status, path).to.equal(401);
    }
  });
});
