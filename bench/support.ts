import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, buildLocaldb, startLocaldb } from '../src/localdb/index.js';

/** Shared by the bench scripts: a database, free ports, and child servers that say when ready. */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

export function startServer(script: string, env: NodeJS.ProcessEnv, ready: string): Promise<ChildProcess> {
  const child = spawn('node', [script], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes(ready) && resolve(child));
    child.once('exit', (code) => reject(new Error(`${script} exited ${code}`)));
  });
}

/**
 * MONGODB_URL when set, otherwise a throw-away embedded database: the one `npm start` builds,
 * or the localdb binary named by LOCALDB_BINARY (to measure another build, e.g. an older one,
 * with the same bench).
 */
export async function benchDatabase(binary = process.env.LOCALDB_BINARY): Promise<{ url: string; embedded: boolean; pid: number | undefined; stop(): Promise<void> }> {
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

export type LoadFigures = { rps: number; p50: number; p99: number; total: number };

export function printComparison(title: string, platform: LoadFigures, baseline: LoadFigures): void {
  console.log(title);
  console.log('                     req/s     p50 ms   p99 ms   requests');
  for (const [name, r] of [['platform', platform], ['baseline (bare Koa)', baseline]] as const) {
    console.log(`${name.padEnd(20)} ${r.rps.toFixed(r.rps < 10 ? 2 : 0).padStart(6)}   ${String(r.p50).padStart(6)}   ${String(r.p99).padStart(6)}   ${r.total}`);
  }
  console.log(`ratio platform/baseline throughput: ${(platform.rps / baseline.rps).toFixed(2)}\n`);
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
