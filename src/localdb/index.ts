import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/**
 * The embedded database for development and tests: FerretDB 1.24 over SQLite, run by our small
 * Go program in tools/localdb. Built once with the machine's Go toolchain into .localdb/bin
 * (git-ignored); later runs reuse the binary unless its sources changed.
 */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SOURCE_DIR = join(ROOT, 'tools/localdb');
export const BINARY = join(ROOT, '.localdb/bin/localdb');

export function localdbIsBuilt(): boolean {
  if (!existsSync(BINARY)) return false;
  const built = statSync(BINARY).mtimeMs;
  return readdirSync(SOURCE_DIR).every((f) => statSync(join(SOURCE_DIR, f)).mtimeMs <= built);
}

export function buildLocaldb(log: (line: string) => void = console.error): void {
  if (localdbIsBuilt()) return;
  const go = spawnSync('go', ['version'], { encoding: 'utf8' });
  if (go.status !== 0) throw new Error('the embedded database needs the Go toolchain (`go`) on PATH, or set MONGODB_URL to use your own MongoDB');
  log(`localdb: building FerretDB 1.24 with ${go.stdout.trim()} (once, then reused until tools/localdb changes; a minute or two)`);
  mkdirSync(dirname(BINARY), { recursive: true });
  const tmp = `${BINARY}.${process.pid}.tmp`;
  const build = spawnSync('go', ['build', '-o', tmp, '.'], { cwd: SOURCE_DIR, stdio: ['ignore', 'inherit', 'inherit'] });
  if (build.status !== 0) throw new Error(`building tools/localdb failed (go build exited ${build.status})`);
  renameSync(tmp, BINARY); // atomic: a concurrent build never leaves a half-written binary
  log('localdb: built .localdb/bin/localdb');
}

export type RunningLocaldb = { url: string; process: ChildProcess; stop(): Promise<void> };

/** Start the embedded database and resolve with its URL once it accepts connections. */
export function startLocaldb(options: { dataDir: string; listen: string; stderr?: 'inherit' | 'ignore' }): Promise<RunningLocaldb> {
  // Its own process group: a Ctrl-C in the terminal must not stop the database before the
  // processes using it have drained; whoever started it stops it last (or it notices it was orphaned).
  const child = spawn(BINARY, ['-data', resolve(ROOT, options.dataDir), '-listen', options.listen, '-exit-with-parent'], {
    stdio: ['ignore', 'pipe', options.stderr ?? 'inherit'],
    detached: true,
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('localdb did not become ready within 30 s'));
    }, 30_000);
    const exitedEarly = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`localdb exited with code ${code} before it was ready (is ${options.listen} already in use?)`));
    };
    child.once('exit', exitedEarly);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /^ready (mongodb:\/\/\S+)$/.exec(line);
      if (!match) return;
      clearTimeout(timer);
      child.off('exit', exitedEarly);
      resolvePromise({
        url: match[1]!,
        process: child,
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    });
  });
}
