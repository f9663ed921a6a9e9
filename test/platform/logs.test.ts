import { expect } from 'chai';
import { Writable } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { ConfigError, loadConfig } from '../../src/config.js';
import { chooseLogFormat, createLog, type LogFormat } from '../../src/log.js';
import { useTestApp } from '../helpers/app.js';
import { startWorker, stopAll, type RunningProcess } from '../helpers/processes.js';

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

  describe('a worker process', function () {
    this.timeout(60_000);
    const { app } = useTestApp('logs');
    const running: RunningProcess[] = [];
    afterEach(() => stopAll(running));

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
