import { expect } from 'chai';
import { Writable } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { ObjectId } from 'mongodb';
import { foundNothing } from '../../src/job.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { chooseLogFormat, createLog, type LogFormat } from '../../src/log.js';
import { useTestApp } from '../helpers/app.js';
import { givenMerchant } from '../helpers/factories.js';
import { startWorker, stopAll, type RunningProcess } from '../helpers/processes.js';
import { until } from '../helpers/waiting.js';

/** The lines a log wrote, colours taken out. */
function capture(format: LogFormat) {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(stripVTControlCharacters(String(chunk)));
      done();
    },
  });
  return { log: createLog('info', { process: 'web' }, sink, format), lines };
}

const isJson = (line: string) => {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
};

/** The JSON log lines a process printed. */
const records = (output: string): Record<string, any>[] =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));

describe('Logs: JSON for machines, readable lines for a developer at a terminal', () => {
  describe('createLog', () => {
    it('writes one JSON object a line in the json format', () => {
      const { log, lines } = capture('json');
      log.info({ event: 'job.finished', job: 'maintenance.sweep-carts', result: { affected: 2 } });
      expect(lines).to.have.length(1);
      expect(JSON.parse(lines[0]!)).to.include({ level: 30, process: 'web', event: 'job.finished', job: 'maintenance.sweep-carts' });
    });

    it('writes a readable line in the pretty format: time, level, event, then the other fields, no JSON object', () => {
      const { log, lines } = capture('pretty');
      log.info({ event: 'job.finished', job: 'maintenance.sweep-carts', result: { affected: 2 } });
      expect(lines).to.have.length(1);
      const line = lines[0]!;
      expect(isJson(line)).to.equal(false);
      expect(line).to.match(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: job\.finished \{"job":"maintenance\.sweep-carts","result":\{"affected":2\}\}\n$/);
    });

    it('redacts credentials in the pretty format too', () => {
      const { log, lines } = capture('pretty');
      log.warn({ event: 'auth.failed', token: 'tok_secret_value', headers: { authorization: 'Bearer abc' } });
      expect(lines.join('')).not.to.include('tok_secret_value');
      expect(lines.join('')).not.to.include('Bearer abc');
      expect(lines.join('')).to.include('[redacted]');
    });
  });

  describe('chooseLogFormat', () => {
    const choose = (env: Record<string, string>, tty: boolean) => chooseLogFormat(loadConfig(env), tty);

    it('is pretty only in development with stdout a terminal', () => {
      expect(choose({ APP_ENV: 'development' }, true)).to.equal('pretty');
      expect(choose({ APP_ENV: 'development' }, false), 'piped (a test, a bench script, concurrently)').to.equal('json');
      expect(choose({ APP_ENV: 'test' }, true)).to.equal('json');
      expect(choose({ APP_ENV: 'staging', SECRETS_KEYS: 'k1:3q2-7wAAAAD_7q0AAQIDBAUGBwgJCgsMDQ4PEBESExQVFhc', MONGODB_URL: 'mongodb://db/' }, true)).to.equal(
        'json',
      );
    });

    it('follows LOG_FORMAT whatever the environment and terminal', () => {
      expect(choose({ APP_ENV: 'development', LOG_FORMAT: 'json' }, true)).to.equal('json');
      expect(choose({ APP_ENV: 'development', LOG_FORMAT: 'pretty' }, false)).to.equal('pretty');
      expect(choose({ APP_ENV: 'test', LOG_FORMAT: 'pretty' }, false)).to.equal('pretty');
    });

    it('refuses another LOG_FORMAT at start-up', () => {
      expect(() => loadConfig({ LOG_FORMAT: 'yaml' }))
        .to.throw(ConfigError)
        .with.property('problems')
        .that.satisfies((problems: string[]) => problems.some((p) => p.startsWith('LOG_FORMAT:')));
    });
  });

  describe('a recurring job that found nothing', () => {
    it('found nothing when every count of its result is 0; anything else is something done', () => {
      expect(foundNothing({ affected: 0 })).to.equal(true);
      expect(foundNothing({ resumed: 0, expired: 0 })).to.equal(true);
      expect(foundNothing({ affected: 3 })).to.equal(false);
      expect(foundNothing({ resumed: 0, expired: 1 })).to.equal(false);
      expect(foundNothing({ outcome: 'done' })).to.equal(false);
    });
  });

  describe('a worker process', () => {
    const { app, api } = useTestApp('logs');
    const running: RunningProcess[] = [];
    afterEach(() => stopAll(running));

    it('logs a sweep that found nothing at debug, one that removed records at info, and a sweep start at debug', async () => {
      const m = await givenMerchant(api);
      await app.platform.db.collection('sessions').updateMany({ merchant_id: new ObjectId(m.id) }, { $set: { expires_at: new Date(Date.now() - 60_000) } });
      // Each sweep runs once when the worker starts (the interval is the default 5 minutes).
      const worker = await startWorker(app, 'maintenance', running, { LOG_LEVEL: 'debug' });
      await worker.waitFor('"event":"job.finished","job":"maintenance.sweep-expired-credentials"');
      await worker.waitFor('"event":"job.finished","job":"maintenance.sweep-carts"');
      const finished = (job: string) => records(worker.output()).find((r) => r.event === 'job.finished' && r.job === job)!;

      expect(finished('maintenance.sweep-expired-credentials')).to.deep.include({ level: 30, outcome: 'succeeded' });
      expect(finished('maintenance.sweep-expired-credentials').result.affected).to.be.greaterThan(0);
      expect(finished('maintenance.sweep-carts')).to.deep.include({ level: 20, outcome: 'succeeded', result: { affected: 0 } });
      const starts = records(worker.output()).filter((r) => r.event === 'job.started');
      expect(starts.length).to.be.greaterThan(0);
      expect(starts.every((r) => r.level === 20)).to.equal(true);
    });

    it('at LOG_LEVEL info, prints no line for the sweeps that found nothing', async () => {
      const worker = await startWorker(app, 'themes', running);
      // Agenda records the run's end after the worker logged it.
      await until('themes.sweep to have run', () => app.platform.db.collection('agendaJobs').findOne({ name: 'themes.sweep', lastFinishedAt: { $ne: null } }));
      worker.child.kill('SIGTERM');
      expect((await worker.exited).code).to.equal(0);
      const jobLines = records(worker.output()).filter((r) => r.event === 'job.started' || r.event === 'job.finished');
      // themes.sweep ran once at start (there is nothing to review): none of its lines is info.
      expect(jobLines).to.deep.equal([]);
    });

    it('with LOG_FORMAT=pretty, prints readable lines up to its last one before exiting', async () => {
      const worker = await startWorker(app, 'themes', running, { LOG_FORMAT: 'pretty' }, 'worker.started');
      worker.child.kill('SIGTERM');
      const exited = await worker.exited;
      expect(exited.code, `${JSON.stringify(exited)}\n${worker.output()}`).to.equal(0);
      const lines = stripVTControlCharacters(worker.output()).trim().split('\n');
      expect(lines.some(isJson)).to.equal(false);
      expect(lines.filter((line) => /^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: worker\.started \{"group":"themes","jobs":\[/.test(line))).to.have.length(1);
      // Written synchronously: the line logged just before the process exits is there.
      expect(lines.at(-1)).to.match(/INFO: worker\.stopped \{"group":"themes"/);
    });
  });
});
