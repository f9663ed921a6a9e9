import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { applyPatch, parsePatch } from 'diff';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/**
 * The embedded database for development and tests: FerretDB 1.24 over SQLite, run by our small
 * Go program in tools/localdb. Built once with the machine's Go toolchain into .localdb/bin
 * (git-ignored); later runs reuse the binary unless its sources changed.
 *
 * FerretDB is built with the patches in tools/localdb/patches applied and the files in
 * tools/localdb/overlay added (see patches/README.md): the module is copied out of Go's module
 * cache into .localdb/build-<pid>, patched there (jsdiff), and the build uses a generated go.mod
 * that replaces the module with that copy. tools/localdb/go.mod itself stays the plain upstream
 * requirement.
 */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SOURCE_DIR = join(ROOT, 'tools/localdb');
const PATCH_DIR = join(SOURCE_DIR, 'patches');
const OVERLAY_DIR = join(SOURCE_DIR, 'overlay');
export const BINARY = join(ROOT, '.localdb/bin/localdb');
const FERRETDB = 'github.com/FerretDB/FerretDB';

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sourceFiles(join(dir, e.name)) : [join(dir, e.name)]));

export function localdbIsBuilt(): boolean {
  if (!existsSync(BINARY)) return false;
  const built = statSync(BINARY).mtimeMs;
  return sourceFiles(SOURCE_DIR).every((f) => statSync(f).mtimeMs <= built);
}

function makeWritable(dir: string): void {
  chmodSync(dir, 0o755);
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) makeWritable(join(dir, e.name));
    else chmodSync(join(dir, e.name), 0o644);
  }
}

/**
 * A patched copy of the FerretDB module (in `<buildDir>/ferretdb`) and a go.mod that builds
 * tools/localdb against it. The suite also runs the overlay's Go tests in such a copy.
 */
export function preparePatchedFerretdb(buildDir: string): string {
  const download = spawnSync('go', ['mod', 'download', '-json', FERRETDB], { cwd: SOURCE_DIR, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (download.status !== 0) throw new Error(`localdb build: go mod download ${FERRETDB} exited ${download.status}`);
  const { Dir } = JSON.parse(download.stdout) as { Dir: string };
  const copy = join(buildDir, 'ferretdb');
  mkdirSync(buildDir, { recursive: true });
  cpSync(Dir, copy, { recursive: true });
  makeWritable(copy); // the module cache is read-only; the copy gets patched and added to
  for (const name of readdirSync(PATCH_DIR)
    .filter((f) => f.endsWith('.patch'))
    .sort()) {
    for (const filePatch of parsePatch(readFileSync(join(PATCH_DIR, name), 'utf8'))) {
      const target = join(copy, filePatch.newFileName!.replace(/^b\//, ''));
      const patched = applyPatch(readFileSync(target, 'utf8'), filePatch);
      if (patched === false) throw new Error(`localdb build: ${name} does not apply to ${target}`);
      writeFileSync(target, patched);
    }
  }
  // New files (whole Go sources of ours, easier to read than patches that add them).
  cpSync(OVERLAY_DIR, copy, { recursive: true });
  const modfile = join(buildDir, 'go.mod');
  writeFileSync(modfile, `${readFileSync(join(SOURCE_DIR, 'go.mod'), 'utf8')}\nreplace ${FERRETDB} => ${copy}\n`);
  copyFileSync(join(SOURCE_DIR, 'go.sum'), join(buildDir, 'go.sum'));
  return modfile;
}

export function buildLocaldb(log: (line: string) => void = console.error): void {
  if (localdbIsBuilt()) return;
  const go = spawnSync('go', ['version'], { encoding: 'utf8' });
  if (go.status !== 0) throw new Error('the embedded database needs the Go toolchain (`go`) on PATH, or set MONGODB_URL to use your own MongoDB');
  log(`localdb: building FerretDB 1.24 with ${go.stdout.trim()} (once, then reused until tools/localdb changes; a minute or two)`);
  mkdirSync(dirname(BINARY), { recursive: true });
  const buildDir = join(ROOT, `.localdb/build-${process.pid}`); // concurrent builds never share one
  const tmp = `${BINARY}.${process.pid}.tmp`;
  try {
    const modfile = preparePatchedFerretdb(buildDir);
    const build = spawnSync('go', ['build', `-modfile=${modfile}`, '-o', tmp, '.'], { cwd: SOURCE_DIR, stdio: ['ignore', 'inherit', 'inherit'] });
    if (build.status !== 0) throw new Error(`building tools/localdb failed (go build exited ${build.status})`);
  } finally {
    rmSync(buildDir, { recursive: true, force: true });
  }
  renameSync(tmp, BINARY); // atomic: a concurrent build never leaves a half-written binary
  log('localdb: built .localdb/bin/localdb');
}

export type RunningLocaldb = { url: string; process: ChildProcess; stop(): Promise<void> };

/** Start the embedded database and resolve with its URL once it accepts connections. */
export function startLocaldb(options: {
  dataDir: string;
  listen: string;
  stderr?: 'inherit' | 'ignore';
  binary?: string;
  env?: NodeJS.ProcessEnv;
}): Promise<RunningLocaldb> {
  // Its own process group: a Ctrl-C in the terminal must not stop the database before the
  // processes using it have drained; whoever started it stops it last (or it notices it was orphaned).
  const child = spawn(options.binary ?? BINARY, ['-data', resolve(ROOT, options.dataDir), '-listen', options.listen, '-exit-with-parent'], {
    stdio: ['ignore', 'pipe', options.stderr ?? 'inherit'],
    detached: true,
    env: options.env ?? process.env,
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
