import { expect } from 'chai';
import { PoolBusy, ThreadPool, ThreadStopped, type ThreadPoolOptions } from '../../src/threads/pool.js';
import type { PoolThreadRequest } from '../helpers/pool-thread.js';

/** The core pool of worker threads (src/threads/pool.ts) that render threads and the review's syntax check run on. */
describe('Thread pool (src/threads/pool.ts)', () => {
  const pools: ThreadPool[] = [];
  after(() => Promise.all(pools.map((p) => p.close())));

  function pool(options: Partial<ThreadPoolOptions> = {}) {
    const ended: string[] = [];
    const made = new ThreadPool({
      name: 'test',
      script: new URL('../helpers/pool-thread.js', import.meta.url),
      size: 2,
      resourceLimits: { maxOldGenerationSizeMb: 64 },
      perTenant: 1,
      maxQueuedPerTenant: 4,
      maxWaitMs: 5000,
      onThreadEnd: (info) => ended.push(info.reason),
      ...options,
    });
    pools.push(made);
    return { pool: made, ended };
  }
  // A thread's start beside other work can take seconds: only the deadline test's deadline is short.
  const ask = <T>(p: ThreadPool, tenant: string, request: PoolThreadRequest, timeoutMs = 60_000) =>
    p.run(tenant, null, async (lease) => {
      lease.send(request);
      return lease.next<T>(timeoutMs);
    });
  /** A request that holds its thread until `release()`: a task that ends when the test says, not when a clock does. */
  const holding = () => {
    const hold = new Int32Array(new SharedArrayBuffer(4));
    return {
      request: { hold },
      release: () => {
        Atomics.store(hold, 0, 1);
        Atomics.notify(hold, 0);
      },
    };
  };

  it('stops a thread that misses its deadline, even inside one synchronous call, and the next task gets a new thread', async () => {
    const { pool: p, ended } = pool();
    // An hour's spin: only stopping the thread ends the task within the test's time.
    const err = await ask(p, 'a', { spinMs: 3_600_000 }, 200).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(ThreadStopped);
    expect((err as ThreadStopped).reason).to.equal('deadline');
    expect(ended).to.deep.equal(['deadline']);
    expect(await ask(p, 'a', { echo: 'still here' })).to.equal('still here');
  });

  it('lets a thread past its heap limit die: its task fails as crashed, and the pool goes on', async () => {
    const { pool: p, ended } = pool({ resourceLimits: { maxOldGenerationSizeMb: 32 } });
    const err = await ask(p, 'a', { allocate: true }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(ThreadStopped);
    expect((err as ThreadStopped).reason).to.equal('crashed');
    expect(ended).to.deep.equal(['crashed']);
    expect(await ask(p, 'a', { echo: 1 })).to.equal(1);
  });

  it('runs one tenant on at most perTenant threads while another tenant runs beside it; past the queue bound, PoolBusy at once', async () => {
    const { pool: p } = pool({ maxQueuedPerTenant: 1, maxWaitMs: 60_000 });
    const order: string[] = [];
    const busy = holding();
    const first = ask<string>(p, 'busy', busy.request).then(() => order.push('busy 1'));
    const second = ask<string>(p, 'busy', { echo: 2 }).then(() => order.push('busy 2'));
    const refused = await ask(p, 'busy', { echo: 3 }).catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(PoolBusy);
    await ask(p, 'other', { echo: 'other' }).then(() => order.push('other'));
    busy.release();
    await Promise.all([first, second]);
    // The other tenant ran on the second thread while the busy tenant's second task waited for its first.
    expect(order).to.deep.equal(['other', 'busy 1', 'busy 2']);
  });

  it('refuses a task that waited longer than maxWaitMs for a thread', async () => {
    const { pool: p } = pool({ size: 1, maxWaitMs: 200 });
    const held = holding();
    const running = ask(p, 'a', held.request);
    const waited = await ask(p, 'b', { echo: 1 }).catch((e: unknown) => e);
    expect(waited).to.be.instanceOf(PoolBusy);
    held.release();
    expect(await running).to.equal('released');
  });
});
