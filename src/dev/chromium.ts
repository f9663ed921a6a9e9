import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/**
 * The Chromium the browser tests and `npm run screenshot` drive (with playwright-core): Debian's
 * `chromium` package, installed by the project the first time it is needed, as SeaweedFS is
 * (src/seaweedfs). In order:
 *
 * 1. `CHROMIUM`, when set: that binary (it must exist);
 * 2. `/usr/bin/chromium` (Debian's package), or a `chromium` on the PATH;
 * 3. on Debian or Ubuntu (apt-get) as root: `apt-get update` and
 *    `apt-get install -y --no-install-recommends chromium`, once, logged; then /usr/bin/chromium;
 * 4. otherwise an error that says how to install it.
 *
 * Playwright's own browser download (`npx playwright install`) is not used: it needs a CDN that
 * closed networks and CI machines may not reach, where Debian's mirror is what they have.
 */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/**
 * The flags every launch needs: headless without a sandbox (tests run as root in containers),
 * no GPU, and none of Chromium's own network traffic (updates, sync, field trials, QUIC probes),
 * which a closed network refuses many times a start and which no test wants. Each launch also
 * gets a fresh `--user-data-dir` (playwright-core makes one per launch).
 */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, name);
    if (executable(candidate)) return candidate;
  }
  return null;
}

/** What `<binary> --version` prints (`Chromium 156.0.8078.73 …`), or null when it does not answer. */
export function chromiumVersion(binary: string): string | null {
  const run = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  return run.status === 0 ? run.stdout.trim() : null;
}

const HOW_TO_INSTALL =
  "Install Debian's or Ubuntu's Chromium (`sudo apt-get install chromium`; on Ubuntu the package may be `chromium-browser`), " +
  "or set CHROMIUM to a Chromium or Chrome binary (macOS: CHROMIUM='/Applications/Google Chrome.app/Contents/MacOS/Google Chrome').";

function runLogged(command: string, args: string[], log: (line: string) => void): void {
  log(`chromium: ${command} ${args.join(' ')}`);
  const run = spawnSync(command, args, {
    encoding: 'utf8',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 20 * 60_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) {
    const tail = `${run.stderr ?? ''}\n${run.stdout ?? ''}`.trim().split('\n').slice(-15).join('\n');
    throw new Error(
      `installing Chromium failed: \`${command} ${args.join(' ')}\` exited ${run.status ?? run.signal ?? run.error?.message} ` +
        `(it needs the Debian or Ubuntu package mirror once):\n${tail}\n${HOW_TO_INSTALL}`,
    );
  }
}

let found: string | null = null;

/**
 * The Chromium binary's path, installed first with apt-get when it is missing and this machine
 * can (Debian or Ubuntu, as root). Idempotent: a found or installed binary is reused. Throws with
 * what to do when there is none and none can be installed.
 */
export function ensureChromium(log: (line: string) => void = console.error): string {
  if (found) return found;
  const named = process.env.CHROMIUM;
  if (named) {
    if (!executable(named)) throw new Error(`CHROMIUM=${named}: no executable there. ${HOW_TO_INSTALL}`);
    return (found = named);
  }
  if (executable(DEBIAN_CHROMIUM)) return (found = DEBIAN_CHROMIUM);
  const inPath = onPath('chromium');
  if (inPath) return (found = inPath);

  const apt = onPath('apt-get');
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (process.platform !== 'linux' || !apt || !existsSync('/etc/debian_version')) {
    throw new Error(
      `the browser tests and \`npm run screenshot\` need Chromium, and none is installed (${DEBIAN_CHROMIUM}, or \`chromium\` on the PATH). ${HOW_TO_INSTALL}`,
    );
  }
  if (!root) {
    throw new Error(
      `the browser tests and \`npm run screenshot\` need Chromium, and none is installed; installing it takes root: run \`sudo apt-get install -y --no-install-recommends chromium\` once (or set CHROMIUM).`,
    );
  }
  log(`chromium: not installed; installing Debian's chromium package with apt-get (once; a minute or two)`);
  runLogged(apt, ['update'], log);
  runLogged(apt, ['install', '-y', '--no-install-recommends', 'chromium'], log);
  if (!executable(DEBIAN_CHROMIUM)) throw new Error(`installing Chromium: apt-get finished but left no ${DEBIAN_CHROMIUM}. ${HOW_TO_INSTALL}`);
  log(`chromium: installed ${chromiumVersion(DEBIAN_CHROMIUM) ?? DEBIAN_CHROMIUM}`);
  return (found = DEBIAN_CHROMIUM);
}

/**
 * Headless Chromium through playwright-core (a maintained driver; its own browser download is
 * never used): the binary ensureChromium gives and CHROMIUM_FLAGS. playwright-core gives each
 * launch a fresh, throw-away profile (`--user-data-dir`) of its own.
 */
export async function launchChromium(log?: (line: string) => void): Promise<Browser> {
  return chromium.launch({ executablePath: ensureChromium(log), headless: true, args: [...CHROMIUM_FLAGS], timeout: 60_000 });
}
