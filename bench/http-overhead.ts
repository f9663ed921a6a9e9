import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { ROOT, buildLocaldb, startLocaldb } from '../src/localdb/index.js';

/**
 * `npm run bench:http`: what the platform's HTTP stack costs on an authenticated,
 * store-scoped read. The real web process (dist/src/web.js) serves GET /v1/stores/current;
 * beside it, in the same run, a bare Koa route makes the same three queries with no
 * middleware (bench/baseline-server.ts). Both get the same load from autocannon; the
 * script prints requests/s and p50/p99 latency for each and the ratio.
 */
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

function startServer(script: string, env: NodeJS.ProcessEnv, ready: string): Promise<ChildProcess> {
  const child = spawn('node', [script], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes(ready) && resolve(child));
    child.once('exit', (code) => reject(new Error(`${script} exited ${code}`)));
  });
}

async function load(url: string, headers: Record<string, string>) {
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_S });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, total: result.requests.total };
}

let dataDir: string | null = null;
let mongoUrl = process.env.MONGODB_URL;
let localdb: Awaited<ReturnType<typeof startLocaldb>> | null = null;
if (!mongoUrl) {
  buildLocaldb();
  dataDir = mkdtempSync(join(tmpdir(), 'emporium-bench-'));
  localdb = await startLocaldb({ dataDir, listen: '127.0.0.1:0', stderr: 'ignore' });
  mongoUrl = localdb.url;
}
const env = { APP_ENV: 'development', MONGODB_URL: mongoUrl, MONGODB_DB: 'bench_http', LOG_LEVEL: 'warn' };
const [webPort, basePort] = [await freePort(), await freePort()];
const web = await startServer('dist/src/web.js', { ...env, PORT: String(webPort), LOG_LEVEL: 'info' }, 'web.listening');
const base = await startServer('dist/bench/baseline-server.js', { ...env, PORT: String(basePort) }, 'ready');

try {
  const api = `http://127.0.0.1:${webPort}`;
  const post = (path: string, body: unknown, token?: string) =>
    fetch(api + path, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) }).then((r) => r.json() as Promise<any>); // eslint-disable-line @typescript-eslint/no-explicit-any
  const signup = await post('/v1/auth/signup', { email: `bench-${Date.now()}@example.com`, password: 'benchmark password', name: 'Bench' });
  const token: string = signup.data.session.token;
  const store = await post('/v1/stores', { name: 'Bench', subdomain: `bench-${Date.now()}` }, token);
  const headers = { authorization: `Bearer ${token}`, 'x-store-id': store.data.id };

  // Warm both (JIT, connection pools), then measure each in turn.
  await autocannon({ url: `${api}/v1/stores/current`, headers, connections: CONNECTIONS, duration: 2 });
  await autocannon({ url: `http://127.0.0.1:${basePort}/v1/stores/current`, headers, connections: CONNECTIONS, duration: 2 });
  const platform = await load(`${api}/v1/stores/current`, headers);
  const baseline = await load(`http://127.0.0.1:${basePort}/v1/stores/current`, headers);

  console.log(`GET /v1/stores/current, ${CONNECTIONS} connections, ${DURATION_S} s each, database ${localdb ? 'embedded FerretDB' : 'MONGODB_URL'}`);
  console.log('                     req/s     p50 ms   p99 ms   requests');
  for (const [name, r] of [['platform', platform], ['baseline (bare Koa)', baseline]] as const) {
    console.log(`${name.padEnd(20)} ${r.rps.toFixed(0).padStart(6)}   ${String(r.p50).padStart(6)}   ${String(r.p99).padStart(6)}   ${r.total}`);
  }
  console.log(`ratio platform/baseline throughput: ${(platform.rps / baseline.rps).toFixed(2)}`);
} finally {
  web.kill('SIGTERM');
  base.kill('SIGTERM');
  await localdb?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
