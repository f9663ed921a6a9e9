import { expect } from 'chai';
import { ObjectId, type Db } from 'mongodb';
import {
  madeSessions,
  openPaymentSession,
  recordSessionPayment,
  type Gateway,
  type PaymentSessionDocument,
  type PaymentSessionKind,
} from '../../src/payments/index.js';
import { useTestApp } from '../helpers/app.js';

/** A kind of session of its own (the storefront's payment orders and the theme purchases are two more). */
type TestSession = PaymentSessionDocument & { thing_id: ObjectId; amount: number; status: 'opening' | 'open' | 'paid'; paid_at: Date | null };
const kind: PaymentSessionKind<TestSession> = {
  collection: (db: Db) => db.collection<TestSession>('test_payment_sessions'),
  creating: 'opening',
  open: 'open',
  paid: 'paid',
  paidAt: 'paid_at',
};

/** A provider that counts its orders, answering after `delayMs`, failing while `failing`. */
function countingGateway(delayMs = 0) {
  const state = { orders: 0, failing: false };
  const gateway: Gateway = {
    async createOrder() {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (state.failing) throw new Error('provider down');
      return { provider_order_id: `order_${++state.orders}` };
    },
    verify: () => true,
  };
  return { gateway, state };
}

describe('Payment sessions (src/payments/sessions.ts)', () => {
  const { app } = useTestApp('payment_sessions');
  before(async () => {
    await kind.collection(app.platform.db).createIndex({ thing_id: 1 }, { unique: true });
  });

  const open = (thingId: ObjectId, gateway: Gateway) =>
    openPaymentSession(app.platform, kind, {
      key: { thing_id: thingId },
      fields: { thing_id: thingId, amount: 500, paid_at: null },
      gateway,
      credentials: {},
      charge: { amount: 500, currency: 'USD' },
    });

  it('asks the provider once for concurrent requests, and answers them all the same session', async () => {
    const { gateway, state } = countingGateway(50);
    const thing = new ObjectId();
    const answers = await Promise.all(Array.from({ length: 5 }, () => open(thing, gateway)));
    expect(state.orders).to.equal(1);
    expect(new Set(answers.map((a) => a.doc.provider_order_id))).to.deep.equal(new Set(['order_1']));
    expect(answers.filter((a) => a.created)).to.have.length(1);
    expect(answers[0]!.doc).to.include({ status: 'open', lease_until: null, lease_owner: null });
  });

  it('gives the session back when the provider fails, so the next request asks again', async () => {
    const { gateway, state } = countingGateway();
    const thing = new ObjectId();
    state.failing = true;
    let failed = false;
    await open(thing, gateway).catch(() => (failed = true));
    expect(failed).to.equal(true);
    expect(await kind.collection(app.platform.db).findOne(madeSessions(kind, { thing_id: thing }))).to.equal(null);
    state.failing = false;
    const { doc, created } = await open(thing, gateway);
    expect([doc.status, doc.provider_order_id, created]).to.deep.equal(['open', 'order_1', true]);
  });

  it('takes over a session whose request stopped while asking the provider, once its lease ran out', async () => {
    const thing = new ObjectId();
    const _id = new ObjectId();
    await kind.collection(app.platform.db).insertOne({
      _id,
      thing_id: thing,
      amount: 500,
      paid_at: null,
      provider_order_id: `pending:${_id.toHexString()}`,
      provider_payment_id: null,
      status: 'opening',
      lease_until: new Date(Date.now() - 1000),
      lease_owner: 'a-stopped-process',
    });
    const { doc, created } = await open(thing, countingGateway().gateway);
    expect([doc._id.toHexString(), doc.status, doc.provider_order_id, created]).to.deep.equal([_id.toHexString(), 'open', 'order_1', true]);
  });

  it('records a payment once: open → paid with its id and time; a second record changes nothing', async () => {
    const { doc } = await open(new ObjectId(), countingGateway().gateway);
    const at = new Date('2026-11-25T00:00:00Z');
    expect(await recordSessionPayment(app.platform, kind, doc, 'pay_1', at)).to.equal(true);
    expect(await recordSessionPayment(app.platform, kind, doc, 'pay_2', new Date())).to.equal(false);
    expect(await kind.collection(app.platform.db).findOne({ _id: doc._id })).to.include({ status: 'paid', provider_payment_id: 'pay_1' });
    expect((await kind.collection(app.platform.db).findOne({ _id: doc._id }))!.paid_at!.toISOString()).to.equal(at.toISOString());
    expect((await open(doc.thing_id, countingGateway().gateway)).doc.status).to.equal('paid');
  });
});
