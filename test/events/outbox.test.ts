import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ObjectId } from 'mongodb';
import { ROOT } from '../../src/localdb/index.js';
import { MODULES } from '../../src/modules.js';
import { useTestApp } from '../helpers/app.js';
import { givenCoupon } from '../helpers/coupons.js';
import { givenMerchantWithStore, type As } from '../helpers/factories.js';
import { settleLeftBehind, stopAfterWrites } from '../helpers/outbox.js';
import { runProcfileProcess } from '../helpers/processes.js';
import { until } from '../helpers/waiting.js';

/**
 * Every committed change records its event once (docs/events.md, "Every committed change,
 * once"): the event travels in the write that makes the change; a process that stops after the
 * write leaves it on the document, and the maintenance sweep records it, once.
 */
describe('Events carried by their writes (the outbox)', () => {
  const { app, api } = useTestApp('event_outbox');
  let as: As;
  let stopped: { restore(): void } | null = null;
  before(async () => {
    ({ as } = await givenMerchantWithStore(api));
  });
  afterEach(() => {
    stopped?.restore();
    stopped = null;
  });

  let seq = 0;
  const code = () => `SAVE${Date.now().toString(36).toUpperCase()}${++seq}`;
  const events = (key: string) => app.platform.db.collection('events').find({ idempotency_key: key }).toArray();
  const coupon = (id: string) => app.platform.db.collection('coupons').findOne({ _id: new ObjectId(id) });

  it('answers 201 for a committed create whose event was not recorded, and the sweep records it once', async () => {
    stopped = stopAfterWrites(app.platform);
    const created = await api.post('/v1/coupons', { code: code(), type: 'percentage', value: 10 }, as);
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const id = created.body.data.id as string;
    expect(await events(`coupon.created:${id}`)).to.have.length(0);
    const stored = await coupon(id);
    expect(stored!.pending_events).to.have.length(1);
    expect(stored!.events_pending_since).to.be.instanceOf(Date);
    // What the API shows never includes what the document carries.
    const read = await api.get(`/v1/coupons/${id}`, as);
    expect(read.body.data).to.not.have.property('pending_events');
    expect(read.body.data).to.not.have.property('events_pending_since');
    stopped.restore();

    // Not yet old enough: the sweep leaves it to the process that wrote it.
    expect(await settleLeftBehind(app.platform, -60_000)).to.equal(0);
    expect(await settleLeftBehind(app.platform)).to.be.at.least(1);
    const recorded = await events(`coupon.created:${id}`);
    expect(recorded).to.have.length(1);
    expect(recorded[0]!.payload.coupon).to.deep.equal(created.body.data);
    const after = await coupon(id);
    expect(after).to.not.have.property('pending_events');
    expect(after).to.not.have.property('events_pending_since');
    expect(await settleLeftBehind(app.platform)).to.equal(0);
    expect(await events(`coupon.created:${id}`)).to.have.length(1);
  });

  it('records an update the process did not with the coupon as that update made it; a later write of the document records it too', async () => {
    const id = (await givenCoupon(api, as)).id as string;
    stopped = stopAfterWrites(app.platform);
    const first = await api.patch(`/v1/coupons/${id}`, { value: 20 }, as);
    expect(first.status).to.equal(200);
    const third = await api.patch(`/v1/coupons/${id}`, { active: false }, as);
    expect(third.status).to.equal(200);
    stopped.restore();
    stopped = null;
    expect(await events(`coupon.updated:${id}:v2`)).to.have.length(0);
    expect((await coupon(id))!.pending_events).to.have.length(2);

    // The sweep records both, in order, each with the coupon as its own update made it.
    expect(await settleLeftBehind(app.platform)).to.equal(2);
    const v2 = await events(`coupon.updated:${id}:v2`);
    expect(v2).to.have.length(1);
    expect(v2[0]!.payload).to.deep.equal({ coupon: first.body.data, changed: ['value'] });
    expect((await events(`coupon.updated:${id}:v3`))[0]!.payload).to.deep.equal({ coupon: third.body.data, changed: ['active'] });
    expect(await coupon(id)).to.not.have.property('pending_events');

    // A healthy process that writes a document still carrying an earlier event records that one too.
    stopped = stopAfterWrites(app.platform);
    expect((await api.patch(`/v1/coupons/${id}`, { value: 40 }, as)).status).to.equal(200);
    stopped.restore();
    stopped = null;
    expect((await api.patch(`/v1/coupons/${id}`, { value: 50 }, as)).status).to.equal(200);
    expect(await events(`coupon.updated:${id}:v4`)).to.have.length(1);
    expect(await events(`coupon.updated:${id}:v5`)).to.have.length(1);
    expect(await coupon(id)).to.not.have.property('pending_events');
    expect(await settleLeftBehind(app.platform)).to.equal(0);
  });

  it('records a delete that the process did not, once the coupon is gone; a delete that never happened records nothing', async () => {
    const gone = await givenCoupon(api, as);
    stopped = stopAfterWrites(app.platform);
    const deleted = await api.delete(`/v1/coupons/${gone.id}`, as);
    expect(deleted.status).to.equal(500); // the process "stopped" after the delete
    stopped.restore();
    stopped = null;
    expect(await coupon(gone.id)).to.equal(null);
    expect(await events(`coupon.deleted:${gone.id}`)).to.have.length(0);

    // An intent whose delete did not happen: the document is still there.
    const kept = await givenCoupon(api, as);
    const deleting = app.platform.events.deleting;
    app.platform.events.deleting = (collection, id, pending) =>
      deleting.call(app.platform.events, collection, id, pending, async () => {
        throw new Error('injected fault: the process stopped before the delete');
      });
    try {
      expect((await api.delete(`/v1/coupons/${kept.id}`, as)).status).to.equal(500);
    } finally {
      app.platform.events.deleting = deleting;
    }
    expect(await app.platform.db.collection('event_intents').countDocuments()).to.equal(2);

    await settleLeftBehind(app.platform);
    const recorded = await events(`coupon.deleted:${gone.id}`);
    expect(recorded).to.have.length(1);
    expect(recorded[0]!.payload).to.deep.equal({ coupon: gone });
    expect(await events(`coupon.deleted:${kept.id}`)).to.have.length(0);
    expect((await api.get(`/v1/coupons/${kept.id}`, as)).status).to.equal(200);
    expect(await app.platform.db.collection('event_intents').countDocuments()).to.equal(0);
  });

  it('records what a deleted document still carried (its writer stopped before settling) along with the delete', async () => {
    stopped = stopAfterWrites(app.platform);
    const created = await givenCoupon(api, as);
    stopped.restore();
    stopped = null;
    expect((await api.delete(`/v1/coupons/${created.id}`, as)).status).to.equal(204);
    expect(await events(`coupon.created:${created.id}`)).to.have.length(1);
    expect(await events(`coupon.deleted:${created.id}`)).to.have.length(1);
  });

  it('records each event once when the writing process and the sweep settle the same document at once', async () => {
    const ids: string[] = [];
    stopped = stopAfterWrites(app.platform);
    for (let i = 0; i < 5; i++) ids.push((await givenCoupon(api, as)).id);
    stopped.restore();
    stopped = null;
    const docs = await app.platform.db
      .collection('coupons')
      .find({ _id: { $in: ids.map((id) => new ObjectId(id)) } })
      .toArray();
    await Promise.all([
      ...docs.map((d) => app.platform.events.settle(app.platform.db.collection('coupons'), d._id, d.pending_events)),
      settleLeftBehind(app.platform),
      settleLeftBehind(app.platform),
    ]);
    for (const id of ids) expect(await events(`coupon.created:${id}`), id).to.have.length(1);
    expect(
      await app.platform.db.collection('coupons').countDocuments({ _id: { $in: ids.map((id) => new ObjectId(id)) }, pending_events: { $exists: true } }),
    ).to.equal(0);
  });

  it('the maintenance worker records what a stopped process left (maintenance.settle-events)', async () => {
    stopped = stopAfterWrites(app.platform);
    const id = (await givenCoupon(api, as)).id as string;
    stopped.restore();
    stopped = null;
    const worker = runProcfileProcess('maintenance', app.childEnv({ EVENT_SETTLE_AFTER_MS: '0', MAINTENANCE_SWEEP_INTERVAL_MS: '500' }));
    try {
      await until('the event recorded by the worker', async () => (await events(`coupon.created:${id}`)).length === 1);
    } finally {
      worker.child.kill('SIGTERM');
      await worker.exited;
    }
    expect(await events(`coupon.created:${id}`)).to.have.length(1);
  });

  it('gives every carrying collection the index the sweep reads', async () => {
    const carriers = MODULES.flatMap((m) => m.eventCarriers ?? []);
    expect(carriers).to.not.be.empty;
    for (const name of carriers) {
      const indexes = await app.platform.db.collection(name).indexes();
      expect(
        indexes.map((i) => i.name),
        name,
      ).to.include('events_pending_since');
    }
  });

  it('records events outside the outbox only on the orders paths that the order repair sweep completes', () => {
    // Steps of an order change are keyed and re-run by maintenance.repair-orders (docs/orders.md), so
    // their plain emits are completed by that sweep; every other write carries its event.
    const allowed = new Set([
      'src/orders/change-steps.ts',
      'src/coupons/redemptions.ts',
      'src/inventory/commitments.ts',
      'src/customers/order-stats.ts',
      'src/payments/transactions.ts',
    ]);
    const files = (dir: string): string[] =>
      readdirSync(join(ROOT, dir)).flatMap((f) => (statSync(join(ROOT, dir, f)).isDirectory() ? files(join(dir, f)) : f.endsWith('.ts') ? [join(dir, f)] : []));
    const emitting = files('src').filter((f) => !f.startsWith('src/events/') && /\.events\.emit\(/.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(emitting).to.not.be.empty;
    expect(emitting.filter((f) => !allowed.has(f))).to.deep.equal([]);
  });
});
