import { createServer, type Server } from 'node:http';
import { spawn } from 'node:child_process';
import { ObjectId } from 'mongodb';
import { loadConfig } from '../src/config.js';
import { createLog } from '../src/log.js';
import { openPlatform } from '../src/boot.js';
import { post } from '../src/outbound/index.js';
import { signatureHeader } from '../src/webhooks/subscriptions/signing.js';
import { createSubscription } from '../src/webhooks/subscriptions/service.js';
import { benchDatabase, cpuMicros, freePort } from './support.js';

/**
 * `npm run bench:webhooks`: one webhooks worker sending to a local receiver.
 * - latency: events recorded at a fixed rate; event-to-receipt p50/p99, with the wake-up path
 *   and then poll only (no internal secret on the emitting side, so no wake-ups);
 * - throughput: a burst of events, deliveries/s until all are received, beside a baseline in
 *   the same run: a plain loop posting the same signed bodies at the same concurrency.
 * BENCH_RATE, BENCH_SECONDS and BENCH_BURST change the sizes; BENCH_ONLY=burst (or wake, poll, a
 * comma list) runs only those parts; BENCH_PROF=1 writes the worker's CPU profile to /tmp/prof;
 * BENCH_LOG=1 shows the worker's log on stderr.
 */
const RATE = Number(process.env.BENCH_RATE ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const BURST = Number(process.env.BENCH_BURST ?? 2000);
const CONCURRENCY = 8; // dispatchDue's sends in flight

const receipts = new Map<string, number>();
let bodies = 0;
const receiver: Server = createServer((req, res) => {
  let raw = '';
  req.on('data', (c) => (raw += c));
  req.on('end', () => {
    bodies++;
    const id = String(req.headers['x-platform-event-id'] ?? '');
    if (id && !receipts.has(id)) receipts.set(id, Date.now());
    res.writeHead(204).end();
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;

const database = await benchDatabase();
const internalPort = await freePort();
const secret = 'bench-internal-secret-0123456789-0123456789';
const env = {
  APP_ENV: 'test',
  MONGODB_URL: database.url,
  MONGODB_DB: 'bench_webhooks',
  INTERNAL_SECRET: secret,
  WEBHOOKS_INTERNAL_PORT: String(internalPort),
  WEBHOOKS_INTERNAL_URL: `http://127.0.0.1:${internalPort}`,
  LOG_LEVEL: 'warn',
};
const webhooks = spawn('node', [...(process.env.BENCH_PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : []), 'dist/src/worker.js', '--jobs', 'webhooks'], {
  env: { ...process.env, ...env, LOG_LEVEL: 'info' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
await new Promise<void>((resolve) => {
  const started = (c: Buffer) => {
    if (!c.toString().includes('worker.started')) return;
    webhooks.stdout!.off('data', started);
    if (process.env.BENCH_LOG) webhooks.stdout!.pipe(process.stderr);
    else webhooks.stdout!.resume(); // its log is drained unread from here on
    resolve();
  };
  webhooks.stdout!.on('data', started);
});

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

async function run(label: string, wake: boolean, mode: 'rate' | 'burst') {
  const config = loadConfig({ ...env, ...(wake ? {} : { INTERNAL_SECRET: '' }) });
  const { platform, close } = await openPlatform(config, 'bench', { log: createLog('warn', {}) });
  const storeId = new ObjectId();
  await createSubscription(
    platform,
    storeId.toHexString(),
    { type: 'merchant', id: new ObjectId().toHexString() },
    { target_url: receiverUrl, event_types: ['order.*'], active: true, description: null },
  );
  const emitted = new Map<string, number>();
  const started = Date.now();
  const count = mode === 'rate' ? RATE * SECONDS : BURST;
  const emitOne = async (i: number) => {
    const at = Date.now();
    const event = await platform.events.emit('order.created', storeId, { order: { id: `${label}-${i}`, total: 1000 + i } }, `bench:${label}:${i}`);
    emitted.set(event.id, at);
  };
  if (mode === 'rate') {
    for (let i = 0; i < count; i++) {
      const due = started + (i * 1000) / RATE;
      await new Promise((r) => setTimeout(r, Math.max(0, due - Date.now())));
      void emitOne(i);
    }
  } else {
    await Promise.all(Array.from({ length: count }, (_, i) => emitOne(i)));
  }
  const emittedSeconds = (Date.now() - started) / 1000;
  const deadline = Date.now() + 180_000;
  while ([...emitted.keys()].some((id) => !receipts.has(id)) || emitted.size < count) {
    if (Date.now() > deadline) throw new Error(`${label}: not every event arrived`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const latencies = [...emitted].map(([id, at]) => receipts.get(id)! - at);
  const last = Math.max(...[...emitted.keys()].map((id) => receipts.get(id)!));
  await close();
  return { count, seconds: (last - started) / 1000, emittedSeconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

/**
 * The baseline: the same signed bodies, posted by a plain loop at the same concurrency with the
 * platform's own HTTP client (src/outbound `post`: keep-alive agent, timeouts), without the platform.
 */
async function baseline(count: number) {
  const body = JSON.stringify({
    id: new ObjectId().toHexString(),
    event_type: 'order.created',
    created_at: new Date().toISOString(),
    payload: { order: { id: 'x', total: 1000 } },
  });
  const ts = Math.floor(Date.now() / 1000);
  const signed = signatureHeader('whsec_baseline', ts, body);
  const headers = { 'Content-Type': 'application/json', 'X-Platform-Hmac-SHA256': signed, 'X-Platform-Signature': signed, 'X-Platform-Timestamp': String(ts) };
  let next = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        next++;
        const result = await post(new URL(receiverUrl), { headers, body, connectMs: 5000, totalMs: 15000 });
        if (result.status !== 204) throw new Error(`baseline: receiver answered ${result.status ?? result.error}`);
      }
    }),
  );
  return { count, seconds: (Date.now() - started) / 1000 };
}

try {
  const only = process.env.BENCH_ONLY?.split(','); // e.g. 'burst' or 'wake,poll' (for quick iterations)
  const skip = { count: 0, seconds: 0, emittedSeconds: 0, p50: NaN, p99: NaN };
  const wanted = (phase: string) => !only || only.includes(phase);
  const wakeRate = wanted('wake') ? await run('wake', true, 'rate') : skip;
  const pollRate = wanted('poll') ? await run('poll', false, 'rate') : skip;
  // CPU each process spends on the burst (this process records the events and receives them).
  const pids = { worker: webhooks.pid, database: database.pid, bench: process.pid };
  const cpuBefore = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuMicros(pid)]));
  const burst = wanted('burst') ? await run('burst', true, 'burst') : skip;
  const cpuPerDelivery = Object.entries(pids).map(([k, pid]) => {
    const [before, after] = [cpuBefore[k], cpuMicros(pid)];
    return `${k} ${before == null || after === null || !burst.count ? '?' : ((after - before) / burst.count / 1000).toFixed(2)} ms`;
  });
  const platformRequests = bodies;
  const base = await baseline(BURST);
  const fmt = (n: number) => n.toFixed(1).padStart(8);
  console.log(`one webhooks worker, database ${database.embedded ? 'embedded FerretDB' : 'MONGODB_URL'}\n`);
  console.log(`event-to-receipt latency at ${RATE} events/s for ${SECONDS} s (${wakeRate.count} events)`);
  console.log(`  with wake-up:   p50 ${fmt(wakeRate.p50)} ms   p99 ${fmt(wakeRate.p99)} ms`);
  console.log(`  poll only:      p50 ${fmt(pollRate.p50)} ms   p99 ${fmt(pollRate.p99)} ms\n`);
  const platformRate = burst.count / burst.seconds;
  const baseRate = base.count / base.seconds;
  console.log(`throughput, a burst of ${BURST} events, ${CONCURRENCY} sends in flight`);
  console.log(`  platform:             ${fmt(platformRate)} deliveries/s (p50 ${burst.p50} ms, p99 ${burst.p99} ms from emit to receipt)`);
  console.log(`  (all ${BURST} events recorded after ${burst.emittedSeconds.toFixed(2)} s, all received after ${burst.seconds.toFixed(2)} s)`);
  console.log(`  (CPU per delivery: ${cpuPerDelivery.join(', ')})`);
  console.log(`  baseline (plain loop): ${fmt(baseRate)} deliveries/s`);
  console.log(`  ratio platform/baseline: ${(platformRate / baseRate).toFixed(3)}`);
  console.log(
    `  (the receiver saw ${platformRequests} platform requests for ${receipts.size} distinct events: ${platformRequests - receipts.size} sent twice)`,
  );
} finally {
  const exited = new Promise((resolve) => webhooks.once('exit', resolve));
  webhooks.kill('SIGTERM');
  await exited; // it drains against the database, so the database stops after it
  receiver.close();
  await database.stop();
}
