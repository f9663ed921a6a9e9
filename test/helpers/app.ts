import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Writable } from 'node:stream';
import type { Clock } from '../../src/clock.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createLog } from '../../src/log.js';
import { createWebApp, openPlatform } from '../../src/boot.js';
import type { Module } from '../../src/module.js';
import type { Platform } from '../../src/platform.js';
import { client, type Client } from './http.js';

export type TestApp = {
  url: string;
  platform: Platform;
  config: Config;
  /** Every log line the web side wrote, as text: tests scan it for secrets. */
  logLines: string[];
  /** Environment for a child process that should share this app's database. */
  childEnv(extra?: Record<string, string>): NodeJS.ProcessEnv;
  close(): Promise<void>;
};

/** Environment of the test app and its children: a database of its own per test file. */
export function testEnv(dbName: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    APP_ENV: 'test',
    MONGODB_URL: process.env.MONGODB_URL!,
    MONGODB_DB: dbName,
    LOG_LEVEL: 'info',
    // Tests read the children's JSON lines, whatever the environment they were started from says.
    LOG_FORMAT: 'json',
    JOBS_POLL_INTERVAL_MS: '200',
    MONGODB_CONNECT_TIMEOUT_MS: '3000',
    // Several webhooks workers may run in one test file: each takes any free internal port.
    WEBHOOKS_INTERNAL_PORT: '0',
    WEBHOOK_SWEEP_INTERVAL_MS: '500',
    ...extra,
  };
}

/** `modules`: the module list (default: the platform's, src/modules.ts); `clock`: the platform's (default: the system's). */
export type TestAppOptions = { modules?: readonly Module[]; clock?: Clock };

/**
 * The real web application on an ephemeral port, against a fresh database. Call in `before`
 * and close in `after`; closing drops the database.
 */
export async function startTestApp(name: string, extra: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const dbName = `t_${name.replace(/[^A-Za-z0-9]/g, '_').slice(0, 30)}_${randomBytes(4).toString('hex')}`;
  const env = testEnv(dbName, extra);
  const config = loadConfig(env);
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  const opened = await openPlatform(config, 'web', { log: createLog(config.logLevel, { process: 'web' }, sink), ...options });
  const server: Server = createWebApp(opened.platform, options.modules).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    platform: opened.platform,
    config,
    logLines,
    childEnv: (more = {}) => ({ ...process.env, ...env, ...more }),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await opened.platform.db.dropDatabase().catch(() => {});
      await opened.close();
    },
  };
}

/**
 * The describe block's app and a client for it: started by a `before` hook (registered here, so it
 * runs before the block's own) and closed by an `after` hook. The two objects are filled in when
 * the app has started: read them in hooks and tests, not while the block is being declared.
 * `extra` may be a function when the environment is known only in an earlier `before`.
 */
export function useTestApp(
  name: string,
  extra: Record<string, string> | (() => Record<string, string>) = {},
  options: TestAppOptions = {},
): { app: TestApp; api: Client } {
  const app = {} as TestApp;
  const api = {} as Client;
  before(async () => {
    Object.assign(app, await startTestApp(name, typeof extra === 'function' ? extra() : extra, options));
    Object.assign(api, client(app.url));
  });
  after(() => app.close());
  return { app, api };
}
