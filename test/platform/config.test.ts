import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { ConfigError, ConfigSchema, loadConfig } from '../../src/config.js';
import { ROOT } from '../../src/localdb/index.js';
import { runCommand } from '../helpers/processes.js';

/** The public development values, as anyone can read them in src/config.ts. */
const DEV_SECRETS_KEYS = 'dev:ZW1wb3JpdW0tZGV2ZWxvcG1lbnQta2V5LW5vdC1zZWNyZXQ';
const DEV_INTERNAL_SECRET = 'emporium-development-internal-secret-not-secret';
const OWN_KEY = 'k1:3q2-7wAAAAD_7q0AAQIDBAUGBwgJCgsMDQ4PEBESExQVFhc';
const OWN_SECRET = 'an-internal-secret-of-our-own-that-nobody-knows-1234';

const deployed = (env: 'staging' | 'production', extra: Record<string, string>) => ({
  APP_ENV: env,
  MONGODB_URL: 'mongodb://db.internal:27017/',
  MESSAGE_RELAY_URL: 'https://relay.example.com/send',
  MESSAGE_RELAY_TOKEN: 'relay-token-of-our-own-1234',
  ...extra,
});

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('Configuration: the public development secrets outside development', () => {
  for (const env of ['staging', 'production'] as const) {
    it(`${env} refuses the development SECRETS_KEYS and INTERNAL_SECRET, listing each problem`, () => {
      const problems = problemsOf(deployed(env, { SECRETS_KEYS: DEV_SECRETS_KEYS, INTERNAL_SECRET: DEV_INTERNAL_SECRET }));
      expect(problems).to.have.length(2);
      expect(
        problems.some((p) => /^SECRETS_KEYS: .*"dev".*public development key/.test(p)),
        problems.join('\n'),
      ).to.equal(true);
      expect(
        problems.some((p) => /^INTERNAL_SECRET: .*public development secret/.test(p)),
        problems.join('\n'),
      ).to.equal(true);
    });
  }

  it('refuses the development key under another id and beside a key of its own, once per offending entry', () => {
    const problems = problemsOf(deployed('production', { SECRETS_KEYS: `${OWN_KEY},old:${DEV_SECRETS_KEYS.split(':')[1]}`, INTERNAL_SECRET: OWN_SECRET }));
    expect(problems).to.have.length(1);
    expect(problems[0]).to.match(/^SECRETS_KEYS: the key "old" is the public development key/);
  });

  it('starts with secrets of its own, and development and test still use the public defaults', () => {
    expect(problemsOf(deployed('production', { SECRETS_KEYS: OWN_KEY, INTERNAL_SECRET: OWN_SECRET }))).to.deep.equal([]);
    expect(problemsOf({ APP_ENV: 'development', SECRETS_KEYS: DEV_SECRETS_KEYS, INTERNAL_SECRET: DEV_INTERNAL_SECRET })).to.deep.equal([]);
    expect(problemsOf({ APP_ENV: 'test', SECRETS_KEYS: DEV_SECRETS_KEYS })).to.deep.equal([]);
    expect(loadConfig({ APP_ENV: 'development' }).internalSecret).to.equal(DEV_INTERNAL_SECRET);
  });

  it('the web process and a worker exit 1 before connecting, printing every problem', async () => {
    const env = { PATH: process.env.PATH!, ...deployed('production', { SECRETS_KEYS: DEV_SECRETS_KEYS, INTERNAL_SECRET: DEV_INTERNAL_SECRET }) };
    for (const args of [['dist/src/web.js'], ['dist/src/worker.js', '--jobs', 'webhooks']]) {
      const p = runCommand('node', args, env);
      const { code } = await p.exited;
      expect(code, p.output()).to.equal(1);
      expect(p.output()).to.include('Invalid configuration:');
      expect(p.output()).to.match(/- SECRETS_KEYS: the key "dev" is the public development key/);
      expect(p.output()).to.match(/- INTERNAL_SECRET: is the public development secret/);
    }
  });
});

describe('Configuration: the leaky buckets of the admin APIs', () => {
  it('defaults to 10,000 points restoring 667 a second for REST, 1000 restoring 50 for GraphQL', () => {
    const { http } = loadConfig({ APP_ENV: 'test' });
    expect(http.adminApiBucket).to.deep.equal({ capacity: 10_000, restoreRate: 667 });
    expect(http.graphqlBucket).to.deep.equal({ capacity: 1000, restoreRate: 50 });
  });

  it('takes a fractional restore rate, and refuses an empty bucket or one that never refills', () => {
    const { http } = loadConfig({ APP_ENV: 'test', ADMIN_API_BUCKET_CAPACITY: '5', ADMIN_API_RESTORE_RATE: '0.5', GRAPHQL_RESTORE_RATE: '12.5' });
    expect(http.adminApiBucket).to.deep.equal({ capacity: 5, restoreRate: 0.5 });
    expect(http.graphqlBucket.restoreRate).to.equal(12.5);
    const problems = problemsOf({
      APP_ENV: 'test',
      ADMIN_API_BUCKET_CAPACITY: '0',
      ADMIN_API_RESTORE_RATE: '0',
      GRAPHQL_BUCKET_CAPACITY: '1.5',
      GRAPHQL_RESTORE_RATE: 'fast',
    });
    expect(problems.map((p) => p.split(':')[0]).sort()).to.deep.equal([
      'ADMIN_API_BUCKET_CAPACITY',
      'ADMIN_API_RESTORE_RATE',
      'GRAPHQL_BUCKET_CAPACITY',
      'GRAPHQL_RESTORE_RATE',
    ]);
  });

  it('refuses the fixed window names it replaced, rather than ignoring a limit someone set', () => {
    const problems = problemsOf({ APP_ENV: 'test', ADMIN_API_RATE_LIMIT: '100', ADMIN_API_RATE_WINDOW_SECONDS: '60' });
    expect(problems).to.have.length(2);
    for (const p of problems)
      expect(p).to.match(/^ADMIN_API_RATE_(LIMIT|WINDOW_SECONDS): was replaced by ADMIN_API_BUCKET_CAPACITY and ADMIN_API_RESTORE_RATE/);
  });
});

describe('Configuration: the parsed object', () => {
  it('is frozen all the way down, so no process changes what another part of it read', () => {
    const config = loadConfig({ APP_ENV: 'test', OPERATOR_EMAILS: 'Ada@Example.com, bob@example.com' });
    expect(config.apps.operatorEmails).to.deep.equal(['ada@example.com', 'bob@example.com']);
    for (const part of [config, config.http, config.http.storefrontGraphql.store, config.apps.operatorEmails, config.secretsKeys, config.secretsKeys[0]])
      expect(Object.isFrozen(part)).to.equal(true);
  });
});

describe("Configuration: README.md's table", () => {
  /** Variables the table lists that src/config.ts does not read, with who does. */
  const READ_ELSEWHERE = ['LOCALDB_INDEX_ENGINE' /* the embedded database's Go program (tools/localdb) */];

  it('lists every variable of ConfigSchema, and no other', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const start = readme.indexOf('\n## Configuration\n');
    const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
    // The names of a row are those in its first cell.
    const listed = section
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .flatMap((line) => [...line.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!));
    expect([...listed].sort()).to.deep.equal([...Object.keys(ConfigSchema.in.shape), ...READ_ELSEWHERE].sort());
  });
});

describe('Configuration: email over SMTP (SMTP_URL, MAIL_FROM; docs/mail.md)', () => {
  it('reads the server, its credentials and its TLS from the URL, and the sender from MAIL_FROM', () => {
    const mail = (extra: Record<string, string>) => loadConfig({ APP_ENV: 'development', MAIL_FROM: 'Emporium <no-reply@example.com>', ...extra }).mail;
    const submission = mail({ SMTP_URL: 'smtp://ada%40example.com:p%3Ass@smtp.example.com?starttls=required' });
    expect(submission.smtp).to.deep.equal({
      host: 'smtp.example.com',
      port: 587,
      secure: false,
      starttls: 'required',
      auth: { user: 'ada@example.com', pass: 'p:ss' },
      display: 'smtp://smtp.example.com:587',
    });
    expect(submission.from).to.deep.equal({ name: 'Emporium', address: 'no-reply@example.com' });
    expect(mail({ SMTP_URL: 'smtps://u:p@smtp.example.com' }).smtp).to.include({ port: 465, secure: true, starttls: 'opportunistic' });
    expect(mail({ SMTP_URL: 'smtp://127.0.0.1:1025?starttls=off' }).smtp).to.include({ port: 1025, starttls: 'off', auth: null });
    expect(loadConfig({ APP_ENV: 'development' }).mail).to.include({ smtp: null, from: null });
  });

  it('refuses a URL it cannot use, an SMTP_URL without MAIL_FROM, and, deployed, a password that may cross in the clear', () => {
    const from = { MAIL_FROM: 'no-reply@example.com' };
    expect(problemsOf({ SMTP_URL: 'http://smtp.example.com', ...from })[0]).to.match(/^SMTP_URL: must start with smtp:\/\/ \(STARTTLS\) or smtps:\/\//);
    expect(problemsOf({ SMTP_URL: 'smtp://smtp.example.com?pool=true', ...from })[0]).to.match(/^SMTP_URL: unknown parameter pool/);
    expect(problemsOf({ SMTP_URL: 'smtp://smtp.example.com?starttls=maybe', ...from })[0]).to.match(/^SMTP_URL: starttls must be/);
    expect(problemsOf({ SMTP_URL: 'smtp://smtp.example.com' })).to.deep.equal(['MAIL_FROM: is required when SMTP_URL is set (the sender of every message)']);
    expect(problemsOf({ SMTP_URL: 'smtp://smtp.example.com', MAIL_FROM: 'a@b.example, c@d.example' })[0]).to.match(/^MAIL_FROM: must be one address/);
    const own = { SECRETS_KEYS: OWN_KEY, INTERNAL_SECRET: OWN_SECRET, ...from };
    expect(problemsOf(deployed('production', { ...own, SMTP_URL: 'smtp://u:p@smtp.example.com' }))).to.deep.equal([
      'SMTP_URL: sends its password in the clear unless TLS is sure: use smtps:// or ?starttls=required',
    ]);
    expect(problemsOf(deployed('production', { ...own, SMTP_URL: 'smtp://u:p@smtp.example.com?starttls=required' }))).to.deep.equal([]);
    expect(problemsOf(deployed('production', { ...own, SMTP_URL: 'smtp://u:p@127.0.0.1:25' }))).to.deep.equal([]);
    // Production needs one way out: SMTP alone will do.
    const { MESSAGE_RELAY_URL: _url, MESSAGE_RELAY_TOKEN: _token, ...withoutRelay } = deployed('production', own);
    expect(problemsOf({ ...withoutRelay, SMTP_URL: 'smtps://u:p@smtp.example.com' })).to.deep.equal([]);
    expect(problemsOf(withoutRelay)).to.deep.equal([
      'SMTP_URL: or MESSAGE_RELAY_URL is required in production (sign-in codes and reset links must reach merchants)',
    ]);
  });
});
