import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { z } from 'zod';
import { createWebApp, openPlatform, type OpenPlatform } from '../../src/boot.js';
import type { Clock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { PlatformError, type ErrorCode } from '../../src/errors.js';
import { routes, storeScoped } from '../../src/http/endpoint.js';
import { createLog } from '../../src/log.js';
import type { Module } from '../../src/module.js';
import { MODULES } from '../../src/modules.js';
import { testEnv } from '../helpers/app.js';
import { givenMerchantWithStore, type As } from '../helpers/factories.js';
import { client, type Client, type Reply } from '../helpers/http.js';
import { until } from '../helpers/waiting.js';

/**
 * Idempotency-Key claims under time: a request that outlives its claim's lease, and a holder
 * whose claim was taken over. The requests go through the real app and database to a route of
 * the test's own (an ordinary route with `{ idempotent: true }`) whose handler waits until
 * the test lets each run finish or fail: the slow request. Time past the lease is a clock
 * that the test moves forward (the platform's clock is a dependency for this), as a process
 * stalled that long would see it.
 */

/** One run of the handler: the test decides when and how it ends. */
type Run = { n: number; note: string; finish(): void; fail(): void };

class Runs {
  readonly all: Run[] = [];
  private waiters: (() => void)[] = [];
  add(run: Run) {
    this.all.push(run);
    for (const w of this.waiters.splice(0)) w();
  }
  /** Resolves with run `n` once it has started. */
  async started(n: number): Promise<Run> {
    while (this.all.length < n) await new Promise<void>((r) => this.waiters.push(r));
    return this.all[n - 1]!;
  }
}

/** A store-scoped create route whose handler is held by the test. */
function slowModule(runs: Runs): Module {
  return {
    name: 'test-slow-route',
    routes: [
      {
        path: '/v1/test-slow',
        router: (platform) => {
          const on = routes(platform);
          on.post('/', { access: storeScoped(null), body: z.strictObject({ note: z.string() }), idempotent: true, status: 201 }, async ({ body }) => {
            const n = runs.all.length + 1;
            const outcome = await new Promise<'ok' | 'fail'>((resolve) =>
              runs.add({ n, note: body.note, finish: () => resolve('ok'), fail: () => resolve('fail') }),
            );
            if (outcome === 'fail') throw new PlatformError('conflict', 'test_step_failed' as ErrorCode, `run ${n} failed`);
            return { run: n, note: body.note };
          });
          return on.router;
        },
      },
    ],
  };
}

/** A clock the test moves forward: real time plus an offset. */
function movableClock() {
  let offset = 0;
  const clock: Clock & { advance(ms: number): void } = {
    now: () => new Date(Date.now() + offset),
    advance: (ms) => {
      offset += ms;
    },
  };
  return clock;
}

type SlowApp = { api: Client; runs: Runs; clock: ReturnType<typeof movableClock>; logLines: string[]; opened: OpenPlatform; close(): Promise<void> };

async function startSlowApp(name: string, extra: Record<string, string> = {}): Promise<SlowApp> {
  const runs = new Runs();
  const clock = movableClock();
  const config = loadConfig(testEnv(`t_${name}_${randomBytes(4).toString('hex')}`, extra));
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  const modules = [...MODULES, slowModule(runs)];
  const opened = await openPlatform(config, 'web', { clock, modules, log: createLog(config.logLevel, { process: 'web' }, sink) });
  const server: Server = createWebApp(opened.platform, modules).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    api: client(`http://127.0.0.1:${port}`),
    runs,
    clock,
    logLines,
    opened,
    async close() {
      for (const run of runs.all) run.fail();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await opened.platform.db.dropDatabase().catch(() => {});
      await opened.close();
    },
  };
}

/** The retry's reply, unless it started another run of the handler first (then that run, failed at once so nothing hangs). */
async function replyOrNewRun(reply: Promise<Reply>, runs: Runs, n: number): Promise<Reply | Run> {
  const winner = await Promise.race([reply, runs.started(n)]);
  if ('finish' in winner) {
    winner.fail();
    await reply;
  }
  return winner;
}

const LEASE_MS = 60_000;

describe('Idempotency-Key claims (src/http/idempotency)', () => {
  describe('a request that outlives its lease keeps its claim alive', () => {
    let app: SlowApp;
    // A short lease, so the claim's heartbeat (a third of it: a second) beats within a test; its
    // two seconds of slack keep the claim through a pause of the machine between beats.
    before(async () => {
      app = await startSlowApp('idem_heartbeat', { IDEMPOTENCY_LOCK_MS: '3000' });
    });
    after(() => app.close());

    it('answers a retry made after the lease would have run out 409 in progress, and runs the request once', async () => {
      const { as } = await givenMerchantWithStore(app.api);
      const headers = { 'idempotency-key': `slow-${randomBytes(4).toString('hex')}` };
      const first = app.api.post('/v1/test-slow', { note: 'first' }, { ...as, headers });
      const run1 = await app.runs.started(1);

      // The first request is still running a minute and more later (a slow step), and then its
      // heartbeat renews the claim from that time on.
      app.clock.advance(LEASE_MS + 1000);
      const records = app.opened.platform.db.collection<{ state: string; locked_until: Date }>('idempotency_records');
      await until('a heartbeat after the jump', async () => ((await records.findOne({ state: 'in_progress' }))?.locked_until ?? 0) > app.clock.now());

      const retry = await replyOrNewRun(app.api.post('/v1/test-slow', { note: 'first' }, { ...as, headers }), app.runs, 2);
      expect('finish' in retry, 'the retry ran the request a second time').to.equal(false);
      expect((retry as Reply).status).to.equal(409);
      expect((retry as Reply).body.error.code).to.equal('idempotency_request_in_progress');

      run1.finish();
      const done = await first;
      expect(done.status).to.equal(201);
      expect(done.body.data).to.deep.equal({ run: 1, note: 'first' });
      const replay = await app.api.post('/v1/test-slow', { note: 'first' }, { ...as, headers });
      expect(replay.status).to.equal(201);
      expect(replay.headers.get('idempotent-replayed')).to.equal('true');
      expect(replay.body).to.deep.equal(done.body);
      expect(app.runs.all.map((r) => r.n)).to.deep.equal([1]);
    });
  });

  describe('a holder whose claim was taken over', () => {
    let app: SlowApp;
    let as: As;
    // The default lease (60 s): its heartbeat (every 20 s) does not beat within a test, so a
    // holder whose clock jumps past the lease is a holder that stalled that long.
    before(async () => {
      app = await startSlowApp('idem_takeover');
      as = (await givenMerchantWithStore(app.api)).as;
    });
    after(() => app.close());

    /** A first request, stalled past its lease, and a retry that took its claim over (both running). */
    async function stalledAndTakenOver(key: string) {
      const before = app.runs.all.length;
      const headers = { 'idempotency-key': key };
      const stale = app.api.post('/v1/test-slow', { note: key }, { ...as, headers });
      const staleRun = await app.runs.started(before + 1);
      app.clock.advance(LEASE_MS + 1000);
      const current = app.api.post('/v1/test-slow', { note: key }, { ...as, headers });
      const currentRun = await app.runs.started(before + 2);
      return { headers, stale, staleRun, current, currentRun, next: before + 3 };
    }

    it('cannot free the claim that took over from it when it fails', async () => {
      const key = `takeover-fail-${randomBytes(4).toString('hex')}`;
      const t = await stalledAndTakenOver(key);
      t.staleRun.fail();
      expect((await t.stale).status).to.equal(409);

      // The retry that took over is still running: a third attempt must wait, not run.
      const third = await replyOrNewRun(app.api.post('/v1/test-slow', { note: key }, { ...as, headers: t.headers }), app.runs, t.next);
      expect('finish' in third, 'the stale holder freed the current claim: a third run started').to.equal(false);
      expect((third as Reply).status).to.equal(409);
      expect((third as Reply).body.error.code).to.equal('idempotency_request_in_progress');

      t.currentRun.finish();
      const current = await t.current;
      expect(current.status).to.equal(201);
      const replay = await app.api.post('/v1/test-slow', { note: key }, { ...as, headers: t.headers });
      expect(replay.headers.get('idempotent-replayed')).to.equal('true');
      expect(replay.body).to.deep.equal(current.body);
    });

    it('cannot store its response over the claim that took over from it, and says so in the log', async () => {
      const key = `takeover-ok-${randomBytes(4).toString('hex')}`;
      const t = await stalledAndTakenOver(key);
      t.staleRun.finish();
      const stale = await t.stale;
      // Its client still gets its answer: the work was done.
      expect(stale.status).to.equal(201);
      expect(stale.body.data.run).to.equal(t.staleRun.n);

      // Not replayed: the request holding the key now is still running.
      const third = await replyOrNewRun(app.api.post('/v1/test-slow', { note: key }, { ...as, headers: t.headers }), app.runs, t.next);
      expect('finish' in third, 'a third run started').to.equal(false);
      expect((third as Reply).status, JSON.stringify((third as Reply).body)).to.equal(409);
      expect((third as Reply).body.error.code).to.equal('idempotency_request_in_progress');
      await until('the lost claim in the log', async () => app.logLines.some((l) => l.includes('idempotency.claim_lost') && l.includes(key)));

      t.currentRun.finish();
      const current = await t.current;
      expect(current.status).to.equal(201);
      expect(current.body.data.run).to.equal(t.currentRun.n);
      const replay = await app.api.post('/v1/test-slow', { note: key }, { ...as, headers: t.headers });
      expect(replay.headers.get('idempotent-replayed')).to.equal('true');
      expect(replay.body).to.deep.equal(current.body);
    });
  });
});
