import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { client } from '../helpers/http.js';
import { devStartEnv, runCommand, type RunningProcess } from '../helpers/processes.js';
import { ROOT } from '../../src/localdb/index.js';
import { freePort, until } from '../helpers/waiting.js';

/**
 * The README's start command end to end: the embedded database (its own port and data
 * folder here) and all six Procfile processes; SIGTERM stops everything; a restart keeps the data.
 */
describe('npm start (the whole platform on the embedded database)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'emporium-start-'));
  let env: NodeJS.ProcessEnv;
  let port: number;
  let platform: RunningProcess | null = null;

  before(async () => {
    port = await freePort();
    env = await devStartEnv(dataDir, port);
  });
  afterEach(() => {
    if (platform && platform.child.exitCode === null) platform.child.kill('SIGKILL');
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  async function startPlatform(): Promise<RunningProcess> {
    platform = runCommand('node', ['dist/src/dev/start.js'], env);
    // Seven processes start at once (the database first): on a busy machine that can take minutes.
    await platform.waitFor('"event":"web.listening"', 3 * 60_000);
    for (const group of ['webhooks', 'bulk', 'themes', 'extensions', 'maintenance']) {
      await platform.waitFor(`"event":"worker.started","group":"${group}"`);
    }
    return platform;
  }

  async function stopPlatform(p: RunningProcess) {
    p.child.kill('SIGTERM');
    const { code } = await p.exited;
    expect(code, p.output().slice(-3000)).to.equal(0);
    const out = p.output();
    expect(out).to.include('"event":"web.stopped"');
    for (const group of ['webhooks', 'bulk', 'themes', 'extensions', 'maintenance']) expect(out).to.include(`"event":"worker.stopped","group":"${group}"`);
    expect(out).to.include('localdb: stopped');
  }

  it('brings up all six processes, serves the README flow, stops on SIGTERM and keeps the data across a restart', async () => {
    const api = client(`http://127.0.0.1:${port}`);
    const first = await startPlatform();
    expect(first.output()).to.match(/localdb: embedded database at mongodb:\/\/127\.0\.0\.1:\d+\//);
    await first.waitFor('Ctrl-C stops everything.');
    const out = first.output();
    const banner = out.indexOf('Emporium is up (development, 6 processes):');
    expect(banner, 'the ready banner, after every process said it was up').to.be.greaterThan(out.lastIndexOf('"event":"worker.started"'));
    expect(banner).to.be.greaterThan(out.indexOf('"event":"web.listening"'));
    expect(out.slice(banner)).to.include(`  web       http://127.0.0.1:${port}\n  health    http://127.0.0.1:${port}/health\n`);
    expect(out.slice(banner)).to.include(`  database  mongodb://127.0.0.1:${env.LOCALDB_PORT}/ (embedded; data in ${dataDir})`);
    expect(out.slice(banner)).to.include(
      `  mail      kept in the outbox: LOCALDB_PORT=${env.LOCALDB_PORT} npm run outbox (the latest), npm run outbox -- <address> (in full)\n`,
    );
    expect(out.split('Emporium is up').length, 'printed once').to.equal(2);
    expect((await api.get('/health')).status).to.equal(200);

    const signup = await api.post('/v1/auth/signup', { email: 'readme@example.com', password: 'correct horse battery', name: 'Readme' });
    expect(signup.status).to.equal(202);
    const signin = await api.post('/v1/auth/signin', { email: 'readme@example.com', password: 'correct horse battery' });
    const token = signin.body.data.session.token;
    const store = await api.post('/v1/stores', { name: 'Readme Goods', subdomain: 'readme-goods' }, { token });
    expect(store.status).to.equal(201);
    const session = await api.get('/v1/auth/custom/session', { token });
    expect(session.body.data.stores.map((s: { subdomain: string }) => s.subdomain)).to.deep.equal(['readme-goods']);
    // The banner's outbox, with nothing else configured: the latest messages, then one address's in full.
    expect((await api.post('/v1/auth/signin/otp', { email: 'readme@example.com' })).status).to.equal(202);
    const outbox = (...args: string[]) => {
      const run = spawnSync('node', ['dist/src/dev/outbox.js', ...args], {
        cwd: ROOT,
        encoding: 'utf8',
        env: { PATH: process.env.PATH, LOCALDB_PORT: env.LOCALDB_PORT },
      });
      expect(run.status, run.stderr).to.equal(0);
      return run.stdout;
    };
    // A delivered message's line ends at its subject (one not yet delivered says its status after it).
    const listed = /^\d{4}-\d\d-\d\dT[\d:.]+Z {2}readme@example\.com {2}signin_code {2}"Your Emporium sign-in code"$/m;
    await until('the sign-in code in the outbox', async () => listed.test(outbox()));
    expect(outbox('readme@example.com')).to.match(/Your Emporium sign-in code is \d{6}\./);
    await stopPlatform(first);

    const second = await startPlatform();
    const again = await api.get('/v1/auth/custom/session', { token });
    expect(again.status).to.equal(200);
    expect(again.body.data.stores.map((s: { subdomain: string }) => s.subdomain)).to.deep.equal(['readme-goods']);
    await stopPlatform(second);
  });
});
