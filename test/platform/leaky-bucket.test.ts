import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { BudgetSpend } from '../../src/http/context.js';
import type { Platform } from '../../src/platform.js';
import { refundBucket, refundQueryCost, spendBucket, spendQueryCost, sweepExpiredRateLimits } from '../../src/ratelimit/index.js';
import { useTestApp } from '../helpers/app.js';
import { counts } from '../helpers/database.js';

type AccountDoc = { _id: string; buckets?: Record<string, number>; expires_at: Date };

/** A clock that stands still at `at` until the test moves it. */
function frozenClock(at: number) {
  let now = at;
  return { now: () => new Date(now), advance: (ms: number) => void (now += ms) };
}

const T0 = Date.UTC(2031, 0, 1);
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The leaky bucket (src/ratelimit/bucket.ts) on the real database, with the platform's clock
 * standing still or moved by the test: its arithmetic (GCRA: one arrival time per bucket),
 * refused spends that change nothing, refunds, the idle sweep, concurrency, and the GraphQL
 * query cost functions on it. The HTTP side (headers, 429, two web processes) is
 * request-budget.test.ts.
 */
describe('The leaky bucket engine', () => {
  const { app } = useTestApp('bucket');
  const at = (clock: { now(): Date }): Platform => ({ ...app.platform, clock });
  const accounts = () => app.platform.db.collection<AccountDoc>('rate_limits');
  const fresh = () => `test:${randomBytes(6).toString('hex')}`;
  const tatOf = async (account: string, scope: string) => (await accounts().findOne({ _id: account }))?.buckets?.[scope];

  // 10 points, restoring 2 a second: T = 500 ms a point.
  const bucket = (account: string, cost: number): BudgetSpend => ({ account, scope: 'rest-s1', cost, capacity: 10, restoreRate: 2 });

  it('spends while the cost fits, refuses what does not with the seconds until it will, and refills with time', async () => {
    const clock = frozenClock(T0);
    const platform = at(clock);
    const account = fresh();

    expect(await spendBucket(platform, bucket(account, 4))).to.deep.equal({
      allowed: true,
      capacity: 10,
      restoreRate: 2,
      available: 6,
      fullInSeconds: 2,
      retryAfterSeconds: 0,
    });
    expect(await tatOf(account, 'rest-s1')).to.equal(T0 + 2000);
    expect(await spendBucket(platform, bucket(account, 6))).to.include({ allowed: true, available: 0, fullInSeconds: 5 });
    expect(await tatOf(account, 'rest-s1')).to.equal(T0 + 5000);
    // One more point is 500 ms away.
    expect(await spendBucket(platform, bucket(account, 1))).to.include({ allowed: false, available: 0, fullInSeconds: 5, retryAfterSeconds: 1 });

    clock.advance(1250); // 2.5 points back (shown as 2)
    expect(await spendBucket(platform, bucket(account, 9))).to.include({ allowed: false, available: 2, retryAfterSeconds: 4 }); // 3.25 s away
    expect(await spendBucket(platform, bucket(account, 3))).to.include({ allowed: false, available: 2, retryAfterSeconds: 1 }); // 0.25 s away
    expect(await tatOf(account, 'rest-s1'), 'refused spends change nothing').to.equal(T0 + 5000);
    expect(await spendBucket(platform, bucket(account, 2))).to.include({ allowed: true, available: 0 }); // 0.5 left, shown as 0
    expect(await tatOf(account, 'rest-s1')).to.equal(T0 + 6000);

    // Long idle: full again, and a spend starts from now (what was not spent does not pile up past the capacity).
    clock.advance(60_000);
    expect(await spendBucket(platform, bucket(account, 10))).to.include({ allowed: true, available: 0, fullInSeconds: 5 });
    expect(await tatOf(account, 'rest-s1')).to.equal(T0 + 61_250 + 5000);
  });

  it('refuses a cost above the capacity (it never fits), and a refused spend leaves the account exactly as it was', async () => {
    const clock = frozenClock(T0);
    const platform = at(clock);
    const account = fresh();
    await spendBucket(platform, bucket(account, 7));
    const before = await accounts().findOne({ _id: account });
    clock.advance(100);
    expect(await spendBucket(platform, bucket(account, 11))).to.include({ allowed: false, available: 3, retryAfterSeconds: 4 });
    expect(await spendBucket(platform, bucket(account, 5))).to.include({ allowed: false, available: 3, retryAfterSeconds: 1 });
    expect(await accounts().findOne({ _id: account })).to.deep.equal(before);
    // A cost above the capacity on an account that has never spent: no document either.
    const none = fresh();
    const documents = await counts(app.platform.db);
    expect(await spendBucket(platform, bucket(none, 11))).to.include({ allowed: false, available: 10 });
    expect(await counts(app.platform.db)).to.deep.equal(documents);
  });

  it('keeps one document per account, a bucket per scope in it, each with its own figures', async () => {
    const platform = at(frozenClock(T0));
    const account = fresh();
    const before = await counts(app.platform.db);
    await spendBucket(platform, bucket(account, 3));
    await spendBucket(platform, { account, scope: 'graphql-s1', cost: 500, capacity: 1000, restoreRate: 50 });
    await spendBucket(platform, { ...bucket(account, 1), scope: 'rest-s2' });
    expect((await counts(app.platform.db)).rate_limits).to.equal((before.rate_limits ?? 0) + 1);
    expect((await accounts().findOne({ _id: account }))?.buckets).to.deep.equal({ 'rest-s1': T0 + 1500, 'graphql-s1': T0 + 10_000, 'rest-s2': T0 + 500 });
  });

  it('refunds points, never past full, and a refund to a full or missing bucket changes nothing', async () => {
    const clock = frozenClock(T0);
    const platform = at(clock);
    const account = fresh();
    await spendBucket(platform, bucket(account, 8));
    const refund = (points: number) => refundBucket(platform, { account, scope: 'rest-s1', points, capacity: 10, restoreRate: 2 });
    expect(await refund(3)).to.deep.equal({ allowed: true, capacity: 10, restoreRate: 2, available: 5, fullInSeconds: 3, retryAfterSeconds: 0 });
    expect(await tatOf(account, 'rest-s1')).to.equal(T0 + 2500);
    clock.advance(1000); // 2 points back: 7 available, 1.5 s owed
    expect(await refund(100)).to.include({ available: 10, fullInSeconds: 0 });
    expect(await tatOf(account, 'rest-s1')).to.equal(T0 + 1000);
    const full = await accounts().findOne({ _id: account });
    expect(await refund(4)).to.include({ available: 10 });
    expect(await accounts().findOne({ _id: account })).to.deep.equal(full);

    const documents = await counts(app.platform.db);
    expect(await refundBucket(platform, { account: fresh(), scope: 'rest-s1', points: 5, capacity: 10, restoreRate: 2 })).to.include({ available: 10 });
    expect(await counts(app.platform.db)).to.deep.equal(documents);
  });

  it('keeps an account until a day after its buckets are full again, and the sweep removes it after that', async () => {
    const clock = frozenClock(T0);
    const platform = at(clock);
    const account = fresh();
    await spendBucket(platform, bucket(account, 1));
    // Pushed out by the bucket's whole capacity (10 points of 500 ms), whatever was spent.
    expect((await accounts().findOne({ _id: account }))?.expires_at.getTime()).to.equal(T0 + 5000 + DAY_MS);
    clock.advance(DAY_MS);
    await sweepExpiredRateLimits(platform);
    expect(await accounts().findOne({ _id: account })).to.not.equal(null);
    clock.advance(5000);
    await sweepExpiredRateLimits(platform);
    expect(await accounts().findOne({ _id: account })).to.equal(null);
    // Swept, the bucket is as full as it was: a missing bucket is a full one.
    expect(await spendBucket(platform, bucket(account, 10))).to.include({ allowed: true, available: 0 });
  });

  it('admits exactly the capacity of 40 simultaneous spends at one instant, from an account not yet open, in one document', async () => {
    const platform = at(frozenClock(T0));
    const account = fresh();
    const spends = await Promise.all(
      Array.from({ length: 40 }, () => spendBucket(platform, { account, scope: 'rest-s1', cost: 1, capacity: 15, restoreRate: 2 })),
    );
    expect(spends.filter((s) => s.allowed)).to.have.length(15);
    expect(await accounts().countDocuments({ _id: account })).to.equal(1);
    expect(await tatOf(account, 'rest-s1')).to.equal(T0 + 15 * 500);
  });

  it('records every admitted spend of mixed costs made at once: the arrival time moved by exactly what was admitted', async () => {
    const platform = at(frozenClock(T0));
    const account = fresh();
    const costs = Array.from({ length: 30 }, (_, i) => (i % 5) + 1);
    const spends = await Promise.all(costs.map((cost) => spendBucket(platform, { account, scope: 'rest-s1', cost, capacity: 40, restoreRate: 2 })));
    const admitted = costs.filter((_, i) => spends[i]!.allowed).reduce((a, b) => a + b, 0);
    expect(admitted).to.be.within(36, 40); // refused only what did not fit: at most 4 points (the largest cost less one) left over
    expect(await tatOf(account, 'rest-s1')).to.equal(T0 + admitted * 500);
  });

  it('never admits more than capacity + restoreRate × elapsed time to many concurrent spenders on the real clock', async () => {
    const account = fresh();
    const spend = { account, scope: 'rest-s1', cost: 1, capacity: 10, restoreRate: 40 };
    let admitted = 0;
    let refused = 0;
    const start = Date.now();
    // They spend until the bucket ran dry and gave a second's refill (a count, however long the machine takes to reach it).
    await Promise.all(
      Array.from({ length: 12 }, async () => {
        while (admitted < spend.capacity + spend.restoreRate || refused === 0) {
          const state = await spendBucket(app.platform, spend);
          if (state.allowed) admitted++;
          else refused++;
        }
      }),
    );
    const elapsedSeconds = (Date.now() - start) / 1000;
    expect(admitted).to.be.at.most(Math.floor(spend.capacity + spend.restoreRate * elapsedSeconds + 1e-9));
    expect(admitted, 'the bucket refilled while they spent').to.be.above(spend.capacity);
    expect(refused, 'the spenders ran it dry').to.be.above(0);
  });

  it('refuses a scope that cannot be a field name, and a cost that is not a number of points', async () => {
    const platform = at(frozenClock(T0));
    for (const spend of [
      { ...bucket(fresh(), 1), scope: 'rest.s1' },
      { ...bucket(fresh(), 1), scope: '$rest' },
      { ...bucket(fresh(), 1), scope: '__proto__' },
      bucket(fresh(), -1),
      bucket(fresh(), Number.NaN),
      { ...bucket(fresh(), 1), restoreRate: 0 },
    ]) {
      let error: unknown = null;
      await spendBucket(platform, spend).catch((err: unknown) => (error = err));
      expect(error, JSON.stringify(spend)).to.be.instanceOf(Error);
    }
  });

  describe('GraphQL query cost (spendQueryCost, refundQueryCost)', () => {
    // The defaults: 1000 points restoring 50 a second, T = 20 ms.
    it('spends the requested cost, refunds the difference to the actual, and throttles with the seconds until the cost fits', async () => {
      const clock = frozenClock(T0);
      const platform = at(clock);
      const caller = { storeId: 'a'.repeat(24), callerKey: `app:${randomBytes(12).toString('hex')}` };
      expect(await spendQueryCost(platform, { ...caller, cost: 300 })).to.deep.equal({
        allowed: true,
        maximumAvailable: 1000,
        currentlyAvailable: 700,
        restoreRate: 50,
        retryAfterSeconds: 0,
      });
      // Requested 300, cost 180: 120 back.
      expect(await refundQueryCost(platform, { ...caller, points: 120 })).to.deep.equal({ maximumAvailable: 1000, currentlyAvailable: 820, restoreRate: 50 });
      // 900 needs 80 more points: 1.6 s.
      expect(await spendQueryCost(platform, { ...caller, cost: 900 })).to.deep.equal({
        allowed: false,
        maximumAvailable: 1000,
        currentlyAvailable: 820,
        restoreRate: 50,
        retryAfterSeconds: 2,
      });
      clock.advance(1600);
      expect(await spendQueryCost(platform, { ...caller, cost: 900 })).to.include({ allowed: true, currentlyAvailable: 0 });
      expect(await spendQueryCost(platform, { ...caller, cost: 1001 })).to.include({ allowed: false, currentlyAvailable: 0 });
      const account = await accounts().findOne({ _id: `admin:${caller.callerKey}` });
      expect(account?.buckets).to.deep.equal({ [`graphql-${caller.storeId}`]: T0 + 1600 + 1000 * 20 });
    });

    it('has a bucket per (store, caller), apart from the REST bucket of the same caller on the store', async () => {
      const platform = at(frozenClock(T0));
      const callerKey = randomBytes(12).toString('hex');
      const [store, other] = ['b'.repeat(24), 'c'.repeat(24)];
      await spendBucket(platform, { account: `admin:${callerKey}`, scope: `rest-${store}`, cost: 10_000, capacity: 10_000, restoreRate: 667 });
      expect(await spendQueryCost(platform, { storeId: store, callerKey, cost: 1000 })).to.include({ allowed: true, currentlyAvailable: 0 });
      expect(await spendQueryCost(platform, { storeId: other, callerKey, cost: 1 })).to.include({ allowed: true, currentlyAvailable: 999 });
      expect(await spendQueryCost(platform, { storeId: store, callerKey: `app:${callerKey}`, cost: 1 })).to.include({ allowed: true, currentlyAvailable: 999 });
      expect(await spendQueryCost(platform, { storeId: store, callerKey, cost: 1 })).to.include({ allowed: false, retryAfterSeconds: 1 });
    });
  });
});
