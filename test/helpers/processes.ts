import { spawn, type ChildProcess } from 'node:child_process';
import { readProcfile } from '../../src/dev/procfile.js';
import { ROOT } from '../../src/localdb/index.js';
import type { TestApp } from './app.js';
import { client, type Client } from './http.js';
import { freePort } from './waiting.js';

export type RunningProcess = {
  child: ChildProcess;
  output: () => string;
  /** Resolve when a line containing `text` has been printed (stdout or stderr); a minute by default, a process's start beside other work. */
  waitFor(text: string, timeoutMs?: number): Promise<void>;
  /** Resolve with the exit code (or signal) once the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

export function runCommand(command: string, args: string[], env: NodeJS.ProcessEnv): RunningProcess {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const listeners = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    for (const l of listeners) l();
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    output: () => output,
    exited,
    waitFor(text, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (output.includes(text)) {
            listeners.delete(check);
            clearTimeout(timer);
            resolve();
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`timed out waiting for "${text}"; output so far:\n${output.slice(-3000)}`));
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
  };
}

/** Start a Procfile process exactly as its Procfile line says (argv split; no shell). */
export function runProcfileProcess(name: string, env: NodeJS.ProcessEnv): RunningProcess {
  const entry = readProcfile(ROOT).find((p) => p.name === name);
  if (!entry) throw new Error(`no ${name} in Procfile`);
  const [command, ...args] = entry.command.split(/\s+/);
  return runCommand(command!, args, env);
}

/**
 * Another web process (the Procfile's `web`) on the test app's database and a free port, for
 * `use` with a client of it; stopped (SIGTERM) afterwards, whatever `use` did.
 */
export async function withWebProcess<T>(app: Pick<TestApp, 'childEnv'>, env: Record<string, string>, use: (web: Client) => Promise<T>): Promise<T> {
  const port = await freePort();
  const web = runProcfileProcess('web', app.childEnv({ ...env, PORT: String(port) }));
  try {
    await web.waitFor('"event":"web.listening"');
    return await use(client(`http://127.0.0.1:${port}`));
  } finally {
    if (web.child.exitCode === null) web.child.kill('SIGTERM');
    await web.exited;
  }
}

/** What a worker prints once its jobs are registered and it polls for work. */
export const WORKER_STARTED = '"event":"worker.started"';

/**
 * A Procfile worker (`webhooks`, `themes`, `maintenance`, …) on the test app's database, once it
 * printed `ready`. It is added to `running` before that, so the block's after hook stops it even
 * when it never got ready.
 */
export async function startWorker(
  app: Pick<TestApp, 'childEnv'>,
  group: string,
  running: RunningProcess[],
  env: Record<string, string> = {},
  ready = WORKER_STARTED,
): Promise<RunningProcess> {
  const worker = runProcfileProcess(group, app.childEnv(env));
  running.push(worker);
  await worker.waitFor(ready);
  return worker;
}

/** Stops every process of `running` that is still running (SIGKILL unless told: a crash), waits for each to exit, and empties the list. */
export async function stopAll(running: RunningProcess[], signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  for (const p of running.splice(0)) {
    if (p.child.exitCode === null) p.child.kill(signal);
    await p.exited;
  }
}

/**
 * The environment `npm start` (dist/src/dev/start.js) runs with in a test: the whole platform on
 * free ports, the embedded database in `dataDir`, JSON logs at info (the start banner waits for
 * each process's info line), and `extra`.
 */
export async function devStartEnv(dataDir: string, port: number, extra: Record<string, string> = {}): Promise<NodeJS.ProcessEnv> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    APP_ENV: 'development',
    PORT: String(port),
    WEBHOOKS_INTERNAL_PORT: String(await freePort()),
    LOCALDB_PORT: String(await freePort()),
    LOCALDB_DIR: dataDir,
    MONGODB_DB: 'emporium',
    LOG_LEVEL: 'info',
    ...extra,
  };
  delete env.MONGODB_URL;
  delete env.LOG_FORMAT; // the default: its output is piped, so JSON
  return env;
}

/**
 * The describe block's own web process (the Procfile's `web`) on the test app's database and a
 * free port: started by a `before` hook, stopped (SIGTERM) by an `after` hook. `port` and `url`
 * are filled in once it listens (read them in hooks and tests).
 */
export function useWebProcess(
  app: Pick<TestApp, 'childEnv'>,
  env: Record<string, string> | (() => Record<string, string>) = {},
): { port: number; url: string } {
  const web = { port: 0, url: '' };
  let running: RunningProcess | null = null;
  before(async () => {
    const port = await freePort();
    running = runProcfileProcess('web', app.childEnv({ ...(typeof env === 'function' ? env() : env), PORT: String(port) }));
    await running.waitFor('"event":"web.listening"');
    Object.assign(web, { port, url: `http://127.0.0.1:${port}` });
  });
  after(async () => {
    const p = running as RunningProcess | null;
    if (!p) return;
    if (p.child.exitCode === null) p.child.kill('SIGTERM');
    await p.exited;
  });
  return web;
}
