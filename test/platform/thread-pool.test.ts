import { expect } from 'chai';
import { PoolBusy, ThreadPool, ThreadStopped, type ThreadPoolOptions } from '../../src/threads/pool.js';
import type { PoolThreadRequest } from '../helpers/pool-thread.js';

/** The core pool of worker threads (src/threads/pool.ts) that render threads and the review's syntax check run on. */
describe('Thread pool (src/threads/pool.ts)', function () {
  this.timeout(30_000);
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
  const ask = <T>(p: ThreadPool, tenant: string, request: PoolThreadRequest, timeoutMs = 5000) =>
    p.run(tenant, null, async (lease) => {
      lease.send(request);
      return lease.next<T>(timeoutMs);
    });

  it('stops a thread that misses its deadline, even inside one synchronous call, and the next task gets a new thread', async () => {
    const { pool: p, ended } = pool();
    const started = Date.now();
    const err = await ask(p, 'a', { spinMs: 20_000 }, 200).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(ThreadStopped);
    expect((err as ThreadStopped).reason).to.equal('deadline');
    expect(Date.now() - started).to.be.lessThan(5000);
    expect(ended).to.deep.equal(['deadline']);
    expect(await ask(p, 'a', { echo: 'still here' })).to.equal('still here');
  });

  it('lets a thread past its heap limit die: its task fails as crashed, and the pool goes on', async () => {
    const { pool: p, ended } = pool({ resourceLimits: { maxOldGenerationSizeMb: 32 } });
    const err = await ask(p, 'a', { allocate: true }, 20_000).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(ThreadStopped);
    expect((err as ThreadStopped).reason).to.equal('crashed');
    expect(ended).to.deep.equal(['crashed']);
    expect(await ask(p, 'a', { echo: 1 })).to.equal(1);
  });

  it('runs one tenant on at most perTenant threads while another tenant runs beside it; past the queue bound, PoolBusy at once', async () => {
    const { pool: p } = pool({ maxQueuedPerTenant: 1 });
    const order: string[] = [];
    const first = ask<string>(p, 'busy', { spinMs: 600 }).then(() => order.push('busy 1'));
    const second = ask<string>(p, 'busy', { spinMs: 10 }).then(() => order.push('busy 2'));
    const refused = await ask(p, 'busy', { echo: 3 }).catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(PoolBusy);
    await ask(p, 'other', { echo: 'other' }).then(() => order.push('other'));
    await Promise.all([first, second]);
    // The other tenant ran on the second thread while the busy tenant's second task waited for its first.
    expect(order).to.deep.equal(['other', 'busy 1', 'busy 2']);
  });

  it('refuses a task that waited longer than maxWaitMs for a thread', async () => {
    const { pool: p } = pool({ size: 1, maxWaitMs: 200 });
    const running = ask(p, 'a', { spinMs: 800 });
    const waited = await ask(p, 'b', { echo: 1 }).catch((e: unknown) => e);
    expect(waited).to.be.instanceOf(PoolBusy);
    expect(await running).to.equal('spun');
  });
});
