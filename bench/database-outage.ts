import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildLocaldb, startLocaldb } from '../src/localdb/index.js';
import { freePort, jsonClient, percentile, startServer, UNTHROTTLED } from './support.js';

/**
 * `node dist/bench/database-outage.js`: how the web process answers while its database is down
 * (docs/operations.md, While the database is down). The real web process (dist/src/web.js, the
 * production MONGODB_CONNECT_TIMEOUT_MS) on an embedded database of its own: BENCH_REQUESTS
 * authenticated store reads one after another with the database up (the baseline), the same with
 * it stopped (their statuses and latency beside the baseline's), then how long after the database
 * is back the first read succeeds.
 */
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20);

buildLocaldb();
const dataDir = mkdtempSync(join(tmpdir(), 'emporium-bench-outage-'));
const listen = `127.0.0.1:${await freePort()}`;
let database = await startLocaldb({ dataDir, listen, stderr: 'ignore' });
const webPort = await freePort();
const web = await startServer(
  'dist/src/web.js',
  { APP_ENV: 'development', MONGODB_URL: database.url, MONGODB_DB: 'bench_outage', LOG_LEVEL: 'info', PORT: String(webPort), ...UNTHROTTLED },
  'web.listening',
);

try {
  const api = `http://127.0.0.1:${webPort}`;
  const call = jsonClient(api);
  const account = { email: `bench-${Date.now()}@example.com`, password: 'benchmark password' };
  await call('POST', '/v1/auth/signup', { ...account, name: 'Bench' });
  const token: string = (await call('POST', '/v1/auth/signin', account)).data.session.token;
  const store = await call('POST', '/v1/stores', { name: 'Bench', subdomain: `bench-${Date.now()}` }, { authorization: `Bearer ${token}` });
  const headers = { authorization: `Bearer ${token}`, 'x-store-id': store.data.id };
  const read = async () => {
    const started = performance.now();
    const res = await fetch(`${api}/v1/stores/current`, { headers });
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - started };
  };
  const run = async () => {
    const results = [];
    for (let i = 0; i < REQUESTS; i++) results.push(await read());
    const ms = results.map((r) => r.ms);
    const statuses = [...new Set(results.map((r) => r.status))].join(', ');
    return { statuses, p50: percentile(ms, 0.5), max: Math.max(...ms), total: ms.reduce((a, b) => a + b, 0) };
  };

  for (let i = 0; i < 20; i++) await read(); // warm up
  const up = await run();
  await database.stop();
  const down = await run();
  database = await startLocaldb({ dataDir, listen, stderr: 'ignore' });
  const back = performance.now();
  while ((await read()).status !== 200) await new Promise((r) => setTimeout(r, 50));
  const recovered = performance.now() - back;

  const row = (label: string, f: typeof up) =>
    console.log(
      `${label.padEnd(22)} ${f.statuses.padEnd(10)} ${f.p50.toFixed(1).padStart(8)} ${f.max.toFixed(1).padStart(9)} ${f.total.toFixed(0).padStart(9)}`,
    );
  console.log(`GET /v1/stores/current, ${REQUESTS} requests one after another, embedded FerretDB`);
  console.log(`${''.padEnd(22)} ${'status'.padEnd(10)} ${'p50 ms'.padStart(8)} ${'max ms'.padStart(9)} ${'total ms'.padStart(9)}`);
  row('database up (baseline)', up);
  row('database down', down);
  console.log(`p50 down / up: ${(down.p50 / up.p50).toFixed(1)}; first 200 after the database was back: ${recovered.toFixed(0)} ms`);
} finally {
  web.kill('SIGTERM');
  await database.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
