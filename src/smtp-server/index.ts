import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findPython, pipInstallInto, SUPERVISOR } from '../pip-install.js';

/**
 * The SMTP server of the tests (and, by hand, a mail catcher for `npm start`): aiosmtpd from
 * PyPI, pinned in tools/smtp/requirements.txt and installed with pip into
 * .localdb/aiosmtpd/<version> (git-ignored) on first use, running our handler
 * tools/smtp/server.py, which keeps each message in a Maildir per recipient. tools/smtp/README.md
 * tells the whole story.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const REQUIREMENTS = join(ROOT, 'tools/smtp/requirements.txt');
const SERVER = join(ROOT, 'tools/smtp/server.py');
const INSTALL_DIR = join(ROOT, '.localdb/aiosmtpd');

/** The pinned version (`aiosmtpd==1.4.6` → `1.4.6`). */
export function aiosmtpdVersion(): string {
  const match = /^aiosmtpd==([0-9][0-9A-Za-z.]*)\s*$/m.exec(readFileSync(REQUIREMENTS, 'utf8'));
  if (!match) throw new Error(`${REQUIREMENTS} must pin aiosmtpd==<version>`);
  return match[1]!;
}

function versionIn(python: string, dir: string): string | null {
  const run = spawnSync(python, ['-c', 'import aiosmtpd; print(aiosmtpd.__version__)'], {
    encoding: 'utf8',
    env: { ...process.env, PYTHONPATH: dir },
    timeout: 30_000,
  });
  return run.status === 0 ? run.stdout.trim() : null;
}

/**
 * aiosmtpd of the pinned version, installed first if it is not there (idempotent: an installed
 * copy that imports and answers its version is reused). Resolves the Python to run it with and
 * the folder to put on its PYTHONPATH; throws with what to do when it cannot.
 */
export function installAiosmtpd(log: (line: string) => void = console.error): { python: string; path: string } {
  const version = aiosmtpdVersion();
  const target = join(INSTALL_DIR, version);
  const python = findPython(
    'aiosmtpd (the SMTP server of the tests)',
    'point the tests at an SMTP server of your own that keeps Maildirs as tools/smtp/server.py does, with EMPORIUM_TEST_SMTP_URL and EMPORIUM_TEST_SMTP_MAILDIR (docs/testing.md)',
  );
  if (existsSync(target) && versionIn(python, target) === version) return { python, path: target };
  log(`smtp: installing aiosmtpd==${version} with pip into .localdb/aiosmtpd/${version} (once; a few seconds)`);
  pipInstallInto({
    python,
    requirements: REQUIREMENTS,
    target,
    what: 'aiosmtpd',
    check: (tmp) => {
      const answered = versionIn(python, tmp);
      if (answered !== version) throw new Error(`installing aiosmtpd: the installed copy answers ${JSON.stringify(answered)}, not version ${version}`);
    },
  });
  log(`smtp: installed aiosmtpd ${version}`);
  return { python, path: target };
}

export type RunningSmtpServer = {
  /** `smtp://<user>:<password>@127.0.0.1:<port>?starttls=off`: the SMTP_URL that sends to it. */
  url: string;
  port: number;
  /** Where it keeps the messages: `<maildir>/<recipient address>/new/`, and that folder's `events`. */
  maildir: string;
  process: ChildProcess;
  /** SIGTERM, then SIGKILL after the grace period; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
};

/**
 * Starts tools/smtp/server.py on `port` (0, the default: a free one, which it reports) with its
 * Maildirs under `maildir`; clients log in with a generated user and password (in `url`).
 * Resolves once it listens.
 */
export async function startSmtpServer(options: { maildir: string; port?: number; timeoutMs?: number }): Promise<RunningSmtpServer> {
  const { python, path } = installAiosmtpd();
  const maildir = resolve(options.maildir);
  mkdirSync(maildir, { recursive: true });
  const user = 'emporium';
  const password = randomBytes(18).toString('base64url');
  const args = [SERVER, '--maildir', maildir, '--host', '127.0.0.1', '--port', String(options.port ?? 0), '--auth', `${user}:${password}`];
  const logFile = join(maildir, 'server.log');
  const err = openSync(logFile, 'a');
  // Its own process group (the supervisor and the server), so that stopping reaches both.
  const child = spawn('/bin/sh', ['-c', SUPERVISOR, 'smtp', python, ...args], {
    stdio: ['ignore', 'pipe', err],
    env: { ...process.env, PYTHONPATH: path, PYTHONUNBUFFERED: '1' },
    detached: true,
  });
  closeSync(err);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  const stop = async (graceMs = 3_000) => {
    signalGroup('SIGTERM');
    const timer = setTimeout(() => signalGroup('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
  try {
    const port = await new Promise<number>((done, fail) => {
      let out = '';
      const timer = setTimeout(
        () => fail(new Error(`the SMTP server did not listen within ${(options.timeoutMs ?? 30_000) / 1000} s`)),
        options.timeoutMs ?? 30_000,
      );
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const listening = /smtp: listening on [^\s:]+:(\d+)/.exec(out);
        if (listening) {
          clearTimeout(timer);
          done(Number(listening[1]));
        }
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        fail(new Error(`the SMTP server exited (${code ?? signal}) before it listened`));
      });
    });
    child.stdout!.resume(); // nothing more is read from it
    return { url: `smtp://${user}:${password}@127.0.0.1:${port}?starttls=off`, port, maildir, process: child, stop };
  } catch (error) {
    await stop(0);
    const tail = readFileSync(logFile, 'utf8').trim().split('\n').slice(-20).join('\n');
    throw new Error(`${(error as Error).message}; the end of ${logFile}:\n${tail}`);
  }
}
