import autocannon from 'autocannon';
import { benchDatabase, freePort, printComparison, startServer, UNTHROTTLED } from './support.js';

/**
 * `npm run bench:http`: what the platform's HTTP stack costs on an authenticated,
 * store-scoped read. The real web process (dist/src/web.js) serves GET /v1/stores/current;
 * beside it, in the same run, a bare Koa route makes the same three queries with no
 * middleware (bench/baseline-server.ts). Both get the same load from autocannon; the
 * script prints requests/s and p50/p99 latency for each and the ratio.
 */
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

async function load(url: string, headers: Record<string, string>) {
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_S });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, total: result.requests.total };
}

const database = await benchDatabase();
const env = { APP_ENV: 'development', MONGODB_URL: database.url, MONGODB_DB: 'bench_http', LOG_LEVEL: 'warn', ...UNTHROTTLED };
const [webPort, basePort] = [await freePort(), await freePort()];
const web = await startServer('dist/src/web.js', { ...env, PORT: String(webPort), LOG_LEVEL: 'info' }, 'web.listening');
const base = await startServer('dist/bench/baseline-server.js', { ...env, PORT: String(basePort) }, 'ready');

try {
  const api = `http://127.0.0.1:${webPort}`;
  const post = (path: string, body: unknown, token?: string) =>
    fetch(api + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    }).then((r) => r.json() as Promise<any>); // eslint-disable-line @typescript-eslint/no-explicit-any
  const account = { email: `bench-${Date.now()}@example.com`, password: 'benchmark password' };
  await post('/v1/auth/signup', { ...account, name: 'Bench' });
  const token: string = (await post('/v1/auth/signin', account)).data.session.token;
  const store = await post('/v1/stores', { name: 'Bench', subdomain: `bench-${Date.now()}` }, token);
  const headers = { authorization: `Bearer ${token}`, 'x-store-id': store.data.id };

  // Warm both (JIT, connection pools), then measure each in turn.
  await autocannon({ url: `${api}/v1/stores/current`, headers, connections: CONNECTIONS, duration: 2 });
  await autocannon({ url: `http://127.0.0.1:${basePort}/v1/stores/current`, headers, connections: CONNECTIONS, duration: 2 });
  const platform = await load(`${api}/v1/stores/current`, headers);
  const baseline = await load(`http://127.0.0.1:${basePort}/v1/stores/current`, headers);

  printComparison(
    `GET /v1/stores/current, ${CONNECTIONS} connections, ${DURATION_S} s each, database ${database.embedded ? 'embedded FerretDB' : 'MONGODB_URL'}`,
    platform,
    baseline,
  );
} finally {
  web.kill('SIGTERM');
  base.kill('SIGTERM');
  await database.stop();
}
