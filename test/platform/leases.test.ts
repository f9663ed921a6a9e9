import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import { systemClock } from '../../src/clock.js';
import {
  claimLease,
  claimLeaseAt,
  leaseFreeAt,
  leaseHeld,
  settleLease,
  settleLeaseAt,
  waitForHolder,
  type HolderWait,
  type Look,
} from '../../src/work/lease.js';
import { useTestApp } from '../helpers/app.js';

/** Work with a lease of its own (the engine's usual shape) and a result its holder records. */
type WorkDoc = { _id: ObjectId; lease_until: Date | null; lease_owner: string | null; result: string | null };
/** Work whose lease is kept under a prefix, beside the document's other fields (an installation's revocation). */
type RecordDoc = { _id: ObjectId; name: string; job: { status: 'pending' | 'done'; lease_until: Date | null; lease_owner: string | null; runs: number } };

class Busy extends Error {}

/**
 * The lease engine's additions of issue 37 (src/work/lease.ts) on the real database: a lease kept
 * under a prefix (claimed, fenced, taken over), and the bounded wait for another holder (it
 * finishes; it dies and its work is taken over while its late writes change nothing; it outlasts
 * the deadline). Its first users' behaviour is tested where they are (orders, payments, extensions).
 */
describe('The lease engine: a lease under a prefix, and the wait for a holder', () => {
  const { app } = useTestApp('leases');
  const work = () => app.platform.db.collection<WorkDoc>('lease_test_work');
  const records = () => app.platform.db.collection<RecordDoc>('lease_test_records');

  /** Waits up to `ms` by the wall clock, looking every 5–15 ms. */
  const waitUpTo = (ms: number): HolderWait => ({
    clock: systemClock,
    deadline: new Date(Date.now() + ms),
    pauseMs: () => 5 + Math.random() * 10,
    busy: () => new Busy('still held'),
  });

  /** The waiter's look: the result once recorded; while held, wait; once free, claim the work, finish it itself, and look again. */
  const lookAt = (id: ObjectId, owner: string, looks: { n: number }) => async (): Promise<Look<string>> => {
    looks.n++;
    const doc = await work().findOne({ _id: id });
    if (doc!.result !== null) return { done: doc!.result };
    const now = new Date();
    if (leaseHeld(doc!, now)) return 'held';
    const taken = await claimLease(work(), { owner, ms: 60_000 }, now, { _id: id, result: null });
    if (taken) await settleLease(work(), taken, owner, { $set: { result: `finished by ${owner}` } });
    return 'again';
  };

  it('claims a lease kept under a prefix: one holder at a time, the dead holder’s taken over, its late settle fenced off', async () => {
    const _id = new ObjectId();
    await records().insertOne({ _id, name: 'installation', job: { status: 'pending', lease_until: null, lease_owner: null, runs: 0 } });
    const t0 = new Date();
    const first = await claimLeaseAt(records(), 'job', { owner: 'a', ms: 1000 }, t0, { _id, 'job.status': 'pending' }, { inc: { 'job.runs': 1 } });
    expect(first?.job).to.include({ lease_owner: 'a', runs: 1 });
    expect(first?.job.lease_until?.getTime()).to.equal(t0.getTime() + 1000);
    expect(first?.name, 'the rest of the document is untouched').to.equal('installation');

    const whileHeld = await claimLeaseAt(records(), 'job', { owner: 'b', ms: 1000 }, new Date(t0.getTime() + 999), { _id, 'job.status': 'pending' });
    expect(whileHeld, 'held until its lease runs out').to.equal(null);
    expect(await records().countDocuments({ _id, ...leaseFreeAt('job', new Date(t0.getTime() + 999)) })).to.equal(0);
    expect(await records().countDocuments({ _id, ...leaseFreeAt('job', new Date(t0.getTime() + 1000)) })).to.equal(1);

    // `a` stopped (its lease ran out): `b` takes the work over.
    const later = new Date(t0.getTime() + 1000);
    const second = await claimLeaseAt(records(), 'job', { owner: 'b', ms: 1000 }, later, { _id, 'job.status': 'pending' }, { inc: { 'job.runs': 1 } });
    expect(second?.job).to.include({ lease_owner: 'b', runs: 2 });

    const done = { $set: { 'job.status': 'done' as const } };
    const late = await settleLeaseAt(records(), 'job', { _id, lease_until: first!.job.lease_until }, 'a', done, { 'job.status': 'pending' });
    expect(late, 'the lease `a` read is no longer the one held').to.equal(false);
    expect((await records().findOne({ _id }))?.job).to.include({ status: 'pending', lease_owner: 'b' });

    const settled = await settleLeaseAt(records(), 'job', { _id, lease_until: second!.job.lease_until }, 'b', done, { 'job.status': 'pending' });
    expect(settled).to.equal(true);
    expect((await records().findOne({ _id }))?.job).to.deep.equal({ status: 'done', lease_until: null, lease_owner: null, runs: 2 });
  });

  it('waits while the holder works, and answers with what the holder recorded', async () => {
    const _id = new ObjectId();
    const held = { _id, lease_until: new Date(Date.now() + 60_000), lease_owner: 'holder', result: null };
    await work().insertOne(held);
    const looks = { n: 0 };
    const waiting = waitForHolder(lookAt(_id, 'waiter', looks), waitUpTo(60_000));
    // The holder finishes once the waiter has looked a few times.
    while (looks.n < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await settleLease(work(), held, 'holder', { $set: { result: 'finished by holder' } })).to.equal(true);
    expect(await waiting).to.equal('finished by holder');
  });

  it('takes over the work of a holder that died once its lease runs out, and the dead holder’s late writes change nothing', async () => {
    const _id = new ObjectId();
    const held = { _id, lease_until: new Date(Date.now() + 150), lease_owner: 'dead', result: null };
    await work().insertOne(held);
    const looks = { n: 0 };
    expect(await waitForHolder(lookAt(_id, 'waiter', looks), waitUpTo(60_000))).to.equal('finished by waiter');
    expect(looks.n, 'it waited for the lease first').to.be.greaterThan(1);
    expect(await settleLease(work(), held, 'dead', { $set: { result: 'finished by dead' } }), 'fenced off').to.equal(false);
    expect(await work().findOne({ _id })).to.deep.include({ result: 'finished by waiter', lease_until: null, lease_owner: null });
  });

  it('gives up at its deadline with the caller’s error while the holder still holds, changing nothing', async () => {
    const _id = new ObjectId();
    const held = { _id, lease_until: new Date(Date.now() + 60_000), lease_owner: 'holder', result: null };
    await work().insertOne(held);
    const looks = { n: 0 };
    const pauses: number[] = [];
    const wait = { ...waitUpTo(100), pauseMs: (n: number) => (pauses.push(n), 5) };
    const failed = await waitForHolder(lookAt(_id, 'waiter', looks), wait).then(
      () => null,
      (err: unknown) => err,
    );
    expect(failed).to.be.instanceOf(Busy);
    expect(pauses, 'the pause is asked for by the count of looks that found it held').to.deep.equal(pauses.map((_, i) => i));
    expect(looks.n).to.equal(pauses.length + 1);
    expect(await work().findOne({ _id })).to.deep.equal(held);
  });

  it('looks again at once after a step (`again`), and its deadline is read from the clock it is given', async () => {
    let now = Date.UTC(2031, 0, 1);
    const clock = { now: () => new Date(now) };
    const answers: Look<string>[] = ['again', 'held', 'again', 'held', 'held'];
    const pauses: number[] = [];
    const looked: number[] = [];
    const look = async (): Promise<Look<string>> => {
      looked.push(now);
      now += 1000; // each look takes a second of the given clock
      return answers.shift() ?? 'held';
    };
    const wait: HolderWait = { clock, deadline: new Date(now + 3500), pauseMs: (n) => (pauses.push(n), 1), busy: () => new Busy('still held') };
    const failed = await waitForHolder(look, wait).then(
      () => null,
      (err: unknown) => err,
    );
    expect(failed).to.be.instanceOf(Busy);
    expect(looked.length, 'the fourth look, held, ends past the deadline').to.equal(4);
    expect(pauses, 'paused after each held look but the last (none after `again`)').to.deep.equal([0]);
    expect(await waitForHolder(async () => ({ done: 'now' }), wait), 'an answer is taken whatever the clock').to.equal('now');
  });
});
