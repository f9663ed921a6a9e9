import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Response as BrowserResponse } from 'playwright-core';
import { launchChromium } from '../src/dev/chromium.js';
import { ROOT, buildLocaldb, startLocaldb } from '../src/localdb/index.js';

/** Shared by the bench scripts: a database, free ports, child servers that say when ready, a JSON client, percentiles. */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/**
 * Environment that lifts the store-scoped admin API's leaky bucket far out of a bench's reach
 * (a load generator is the runaway script the defaults stop): requests still spend from it, as
 * in production, and are never refused.
 */
export const UNTHROTTLED = { ADMIN_API_BUCKET_CAPACITY: '100000000', ADMIN_API_RESTORE_RATE: '1000000' };

/**
 * A child server (`script` with `args`), resolved once its output contains `ready`. The output goes to a file, not a
 * pipe: the bench process also runs the load generator, and reading a server's log lines
 * (one per request) would slow the load on that server only.
 */
export function startServer(script: string, env: NodeJS.ProcessEnv, ready: string, nodeArgs: string[] = [], args: string[] = []): Promise<ChildProcess> {
  const logDir = mkdtempSync(join(tmpdir(), 'emporium-bench-log-'));
  const logFile = join(logDir, 'stdout');
  const out = openSync(logFile, 'w');
  const child = spawn('node', [...nodeArgs, script, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', out, 'inherit'] });
  closeSync(out);
  child.once('exit', () => rmSync(logDir, { recursive: true, force: true }));
  return new Promise((resolve, reject) => {
    const poll = setInterval(() => {
      if (!readFileSync(logFile, 'utf8').includes(ready)) return;
      clearInterval(poll);
      child.off('exit', exited);
      resolve(child);
    }, 50);
    const exited = (code: number | null) => {
      clearInterval(poll);
      reject(new Error(`${script} exited ${code}`));
    };
    child.once('exit', exited);
  });
}

/**
 * MONGODB_URL when set, otherwise a throw-away embedded database: the one `npm start` builds,
 * or the localdb binary named by LOCALDB_BINARY (to measure another build, e.g. an older one,
 * with the same bench).
 */
export async function benchDatabase(
  binary = process.env.LOCALDB_BINARY,
): Promise<{ url: string; embedded: boolean; pid: number | undefined; stop(): Promise<void> }> {
  if (process.env.MONGODB_URL) return { url: process.env.MONGODB_URL, embedded: false, pid: undefined, stop: async () => {} };
  if (!binary) buildLocaldb();
  const dataDir = mkdtempSync(join(tmpdir(), 'emporium-bench-'));
  const db = await startLocaldb({ dataDir, listen: '127.0.0.1:0', stderr: 'ignore', ...(binary ? { binary } : {}) });
  return {
    url: db.url,
    embedded: true,
    pid: db.process.pid,
    async stop() {
      await db.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One load run: completed requests per second, latency percentiles, and optionally the CPU
 * the server and database processes spent per request (ms). */
export type LoadFigures = { rps: number; p50: number; p99: number; total: number; cpu?: { server: number; db: number | null } };

export function printComparison(
  title: string,
  platform: LoadFigures,
  baseline: LoadFigures,
  labels: readonly [string, string] = ['platform', 'baseline (bare Koa)'],
): void {
  console.log(title);
  const withCpu = platform.cpu && baseline.cpu;
  console.log(`                             req/s     p50 ms   p99 ms   requests${withCpu ? '   CPU ms/request: server  database' : ''}`);
  for (const [name, r] of [
    [labels[0], platform],
    [labels[1], baseline],
  ] as const) {
    const cpu = withCpu
      ? `   ${''.padStart(15)} ${r.cpu!.server.toFixed(2).padStart(6)}  ${r.cpu!.db === null ? '     -' : r.cpu!.db.toFixed(2).padStart(8)}`
      : '';
    console.log(
      `${name.padEnd(28)} ${r.rps.toFixed(r.rps < 10 ? 2 : 0).padStart(6)}   ${String(r.p50).padStart(6)}   ${String(r.p99).padStart(6)}   ${String(r.total).padEnd(8)}${cpu}`,
    );
  }
  console.log(`ratio ${labels[0]}/${labels[1]} throughput: ${(platform.rps / baseline.rps).toFixed(2)}\n`);
}

const ticksPerSecond = 100; // USER_HZ on Linux
/** CPU time (user + system) a process has used so far, in µs, from /proc; null where there is none. */
export function cpuMicros(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    // Fields after the command name (which is in parentheses): utime and stime are 14 and 15.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) / ticksPerSecond) * 1e6;
  } catch {
    return null;
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/** A JSON client of the API at `base`: `call(method, path, body?, headers?)` answers the body, and throws on a status of 300 or more. */
export function jsonClient(base: string) {
  return async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Json> {
    const res = await fetch(base + path, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as Json;
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json).slice(0, 500)}`);
    return json;
  };
}

/** The `p` quantile (0..1) of `xs`, nearest rank. */
export const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

/** The session cookie of a browser signed in at `base` through the /login form, as a merchant signs in. */
export async function signInBrowser(base: string, email: string, password: string): Promise<string> {
  const form = await fetch(`${base}/login?return_to=%2Fadmin`);
  const loginCookie = form.headers.getSetCookie().map((c) => c.split(';')[0]!);
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(await form.text())?.[1];
  if (!csrf) throw new Error('no CSRF token on /login');
  const res = await fetch(`${base}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: loginCookie.join('; ') },
    body: new URLSearchParams({ csrf_token: csrf, email, password, return_to: '/admin' }).toString(),
  });
  const session = res.headers.getSetCookie().find((c) => c.startsWith('emporium_session='));
  if (res.status !== 303 || !session) throw new Error(`/login answered ${res.status}`);
  return session.split(';')[0]!;
}

/** One GET at `base`, its body read whole: milliseconds. A status other than 200 stops the bench. */
export async function timedGet(base: string, path: string, headers: Record<string, string>): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(base + path, { headers, redirect: 'manual' });
  await res.arrayBuffer();
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
  return ms;
}

/** Runs `task(i)` for i in 0..count-1, `concurrency` at a time: how the benches seed a store. */
export async function inParallel(count: number, concurrency: number, task: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < count; i = next++) await task(i);
    }),
  );
}

/**
 * Each page of `kinds` as Chromium loads it at 1280 px, signed in with the session `cookie`:
 * every response (the page, what it links, its frames and what their scripts fetch), headers and
 * body as sent, until `waitUntil`. A page other than 200 stops the bench.
 */
export async function pageWeights(
  base: string,
  cookie: string,
  kinds: { name: string; path: string }[],
  waitUntil: 'load' | 'networkidle' = 'load',
): Promise<{ name: string; bytes: number; responses: number }[]> {
  const chromium = await launchChromium();
  const weights: { name: string; bytes: number; responses: number }[] = [];
  try {
    const context = await chromium.newContext({ viewport: { width: 1280, height: 900 } });
    const [name, value] = [cookie.slice(0, cookie.indexOf('=')), cookie.slice(cookie.indexOf('=') + 1)];
    await context.addCookies([{ name, value, url: base }]);
    const tab = await context.newPage();
    for (const kind of kinds) {
      const sizes: Promise<number>[] = [];
      const onResponse = (r: BrowserResponse) =>
        sizes.push(
          r
            .request()
            .sizes()
            .then((s) => s.responseHeadersSize + s.responseBodySize),
        );
      tab.on('response', onResponse);
      const res = await tab.goto(base + kind.path, { waitUntil });
      tab.off('response', onResponse);
      if (res?.status() !== 200) throw new Error(`${kind.path}: ${res?.status()} in Chromium`);
      const all = await Promise.all(sizes);
      weights.push({ name: kind.name, bytes: all.reduce((a, b) => a + b, 0), responses: all.length });
    }
  } finally {
    await chromium.close();
  }
  return weights;
}
