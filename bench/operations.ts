import { ObjectId, type AnyBulkWriteOperation, type Document } from 'mongodb';
import { openPlatform } from '../src/boot.js';
import { loadConfig } from '../src/config.js';
import { createLog } from '../src/log.js';
import { MODULES } from '../src/modules.js';
import { benchDatabase, freePort, jsonClient, percentile, startServer } from './support.js';

/**
 * `npm run bench:operations` (first part): the operators' routes on a busy platform's data.
 * BENCH_JOBS Agenda jobs (default 100,000: due, scheduled, failed and running, over the real job
 * names), BENCH_DELIVERIES webhook deliveries holding about 1,000,000 attempts (default 200,000:
 * half delivered at the second attempt, the rest failed or still retrying after eight), and a
 * day of runtime counters, written straight into the collections. Then, on the real web process,
 * each route is called BENCH_RUNS times (default 60) in turn, one call at a time, beside the
 * readiness probe (`/ready`, a database ping and a read: the floor of any call through the same
 * server), and its p50 and p99 printed with the ratio to the probe's p50.
 *
 * The second part (`bench/commerce.ts` with BENCH_BASELINE=recording-off, run by the npm script
 * after this one) measures what heartbeats and counters cost the request path.
 */
const JOBS = Number(process.env.BENCH_JOBS ?? 100_000);
const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 200_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 60);
const BATCH = 5000;

const database = await benchDatabase();
const env = { APP_ENV: 'development', MONGODB_URL: database.url, MONGODB_DB: `bench_operations_${Date.now()}`, LOG_LEVEL: 'warn' };
const OPERATOR = 'bench-operator@example.com';

async function insertInBatches(
  collection: { bulkWrite(ops: AnyBulkWriteOperation<Document>[], o: { ordered: boolean }): Promise<unknown> },
  count: number,
  make: (i: number) => Document,
) {
  for (let start = 0; start < count; start += BATCH) {
    const ops = Array.from({ length: Math.min(BATCH, count - start) }, (_, k) => ({ insertOne: { document: make(start + k) } }));
    await collection.bulkWrite(ops, { ordered: false });
  }
}

const seedStarted = Date.now();
const { platform, close } = await openPlatform(loadConfig(env), 'bench-seed', { log: createLog('warn', {}) });
const now = Date.now();
const names = MODULES.flatMap((m) => m.jobs ?? [])
  .filter((c) => !c.every)
  .map((c) => c.name);
// The jobs: 60% due (a backlog), 20% scheduled, 19% failed, 1% running.
await insertInBatches(platform.db.collection('agendaJobs'), JOBS, (i) => {
  const kind = i % 100;
  const at = new Date(now - (JOBS - i) * 50);
  const base = { name: names[i % names.length], data: { delivery_id: new ObjectId().toHexString() }, type: 'normal', priority: 0, lastModifiedBy: null };
  if (kind < 60) return { ...base, nextRunAt: at, lockedAt: null };
  if (kind < 80) return { ...base, nextRunAt: new Date(now + 3_600_000 + i), lockedAt: null };
  if (kind < 99)
    return { ...base, nextRunAt: null, lockedAt: null, failedAt: at, failCount: 1, failReason: 'connect ECONNREFUSED', lastRunAt: at, lastFinishedAt: at };
  return { ...base, nextRunAt: at, lockedAt: new Date(now - 1000), lastModifiedBy: 'webhooks:bench:1' };
});
// The deliveries and their attempts.
const stores = Array.from({ length: 50 }, () => new ObjectId());
const subscriptionsOf = stores.map(() => new ObjectId());
let attemptCount = 0;
const attempt = (n: number, at: Date, ok: boolean) => ({
  series: 1,
  number: n,
  request_id: new ObjectId().toHexString(),
  started_at: at,
  duration_ms: 40,
  status: ok ? 200 : 500,
  error: ok ? null : 'HTTP 500',
  response_preview: ok ? 'ok' : 'Internal Server Error',
  retry_seconds: ok ? null : 120,
});
await insertInBatches(platform.db.collection('webhook_deliveries'), DELIVERIES, (i) => {
  const at = new Date(now - (DELIVERIES - i) * 400);
  const kind = i % 20;
  const status = kind < 10 ? 'successful' : kind < 19 ? 'failed' : 'queued';
  const count = status === 'successful' ? 2 : 8;
  attemptCount += count;
  return {
    store_id: stores[i % stores.length],
    event_id: new ObjectId(),
    subscription_id: subscriptionsOf[i % stores.length],
    event_type: 'orders.create',
    status,
    next_attempt: status === 'queued' ? count : count - 1,
    next_attempt_at: status === 'queued' ? new Date(now + (i % 2 ? -5000 : 60_000)) : null,
    lease_until: null,
    lease_owner: null,
    attempts: Array.from({ length: count }, (_, n) => attempt(n, new Date(at.getTime() + n * 120_000), status === 'successful' && n === count - 1)),
    completed_at: status === 'queued' ? null : at,
    series: 1,
    created_at: at,
    updated_at: at,
  };
});
// A day of counters: 30 lines a minute (requests by class, job runs, webhook attempts).
const lines = [
  ...['2xx', '3xx', '4xx', '5xx'].map((c) => ({ series: 'http.requests', labels: `class=${c}` })),
  ...['successful', 'retry_scheduled', 'failed'].map((o) => ({ series: 'webhooks.attempts', labels: `outcome=${o}` })),
  ...names.slice(0, 23).map((n) => ({ series: 'jobs.runs', labels: `name=${n},outcome=succeeded` })),
];
const minutes = 24 * 60;
await insertInBatches(platform.db.collection('runtime_counters'), minutes * lines.length, (i) => {
  const line = lines[i % lines.length]!;
  const at = Math.floor(now / 60_000) * 60_000 - Math.floor(i / lines.length) * 60_000;
  return { _id: `m|${at}|${line.series}|${line.labels}`, ...line, resolution: 'minute', at: new Date(at), count: 10 + (i % 7) };
});
await insertInBatches(platform.db.collection('runtime_counters'), 24 * lines.length, (i) => {
  const line = lines[i % lines.length]!;
  const at = Math.floor(now / 3_600_000) * 3_600_000 - Math.floor(i / lines.length) * 3_600_000;
  return { _id: `h|${at}|${line.series}|${line.labels}`, ...line, resolution: 'hour', at: new Date(at), count: 600 };
});
await close();
const seedSeconds = (Date.now() - seedStarted) / 1000;

const port = await freePort();
const web = await startServer('dist/src/web.js', { ...env, PORT: String(port), LOG_LEVEL: 'info', OPERATOR_EMAILS: OPERATOR }, 'web.listening');
const call = jsonClient(`http://127.0.0.1:${port}`);
try {
  await call('POST', '/v1/auth/signup', { email: OPERATOR, password: 'benchmark password', name: 'Operator' });
  const token: string = (await call('POST', '/v1/auth/signin', { email: OPERATOR, password: 'benchmark password' })).data.session.token;
  const auth = { authorization: `Bearer ${token}` };
  const firstPage = await call('GET', '/v1/operations/runtime/jobs?limit=50', undefined, auth);
  const routes: [string, string][] = [
    ['readiness probe (baseline)', '/ready'],
    ['overview', '/v1/operations/runtime/overview'],
    ['jobs, first page', '/v1/operations/runtime/jobs?limit=50'],
    ['jobs, next page', `/v1/operations/runtime/jobs?limit=50&cursor=${firstPage.page.next_cursor}`],
    ['jobs failed', '/v1/operations/runtime/jobs?state=failed&limit=50'],
    ['jobs due of one name', `/v1/operations/runtime/jobs?state=due&name=${names[0]}&limit=50`],
    ['dashboards 1h', '/v1/operations/runtime/dashboards?window=1h'],
    ['dashboards 24h', '/v1/operations/runtime/dashboards?window=24h'],
    ['incidents active', '/v1/operations/runtime/incidents?status=active'],
    // The operator console's pages (docs/console.md): the same services, rendered as HTML, through the session cookie.
    ['console: overview page', '/console'],
    ['console: jobs page', '/console/jobs'],
    ['console: jobs failed page', '/console/jobs?state=failed'],
    ['console: deliveries failed', '/console/deliveries?status=failed'],
  ];
  const cookie = { cookie: `emporium_session=${token}` };
  /** A console page as a browser gets it (its HTML read whole); anything but 200 stops the bench. */
  const page = async (path: string) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: cookie, redirect: 'manual' });
    const html = await res.text();
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${html.slice(0, 300)}`);
  };
  const get = (path: string) => (path.startsWith('/console') ? page(path) : call('GET', path, undefined, auth));
  const times = new Map<string, number[]>(routes.map(([name]) => [name, []]));
  for (const [, path] of routes) await get(path); // warm up
  for (let run = 0; run < RUNS; run++) {
    for (const [name, path] of run % 2 ? [...routes].reverse() : routes) {
      const started = performance.now();
      await get(path);
      times.get(name)!.push(performance.now() - started);
    }
  }
  const probe = percentile(times.get(routes[0]![0])!, 0.5);
  console.log(
    `seeded ${JOBS} jobs, ${DELIVERIES} deliveries holding ${attemptCount} attempts, ${minutes * lines.length} minute counters in ${seedSeconds.toFixed(1)} s` +
      `; ${RUNS} calls of each route, one at a time, database ${database.embedded ? 'embedded FerretDB' : 'MONGODB_URL'}\n`,
  );
  console.log(`${'route'.padEnd(30)} p50 ms   p99 ms   p50 / probe p50`);
  for (const [name] of routes) {
    const xs = times.get(name)!;
    const p50 = percentile(xs, 0.5);
    console.log(`${name.padEnd(30)} ${p50.toFixed(1).padStart(6)}   ${percentile(xs, 0.99).toFixed(1).padStart(6)}   ${(p50 / probe).toFixed(1).padStart(6)}`);
  }
  // Each console page beside the API call it renders: what the page adds to the same service call.
  const p50 = (name: string) => percentile(times.get(name)!, 0.5);
  console.log('\nconsole page p50 beside the API p50 of the same service call');
  for (const [pageName, apiName] of [
    ['console: overview page', 'overview'],
    ['console: jobs page', 'jobs, first page'],
    ['console: jobs failed page', 'jobs failed'],
  ] as const)
    console.log(`${pageName.padEnd(30)} ${p50(pageName).toFixed(1).padStart(6)} ms   API ${apiName}: ${p50(apiName).toFixed(1)} ms`);
} finally {
  web.kill('SIGTERM');
  await database.stop();
}
