import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import Mocha from 'mocha';
import { buildLocaldb, ROOT, startLocaldb, type RunningLocaldb } from '../src/localdb/index.js';

/**
 * `npm test`: runs every test file against the embedded database (started here on a free
 * port with a throw-away data folder) or against MONGODB_URL when it is set. Each test file
 * uses a fresh database of its own. The run ends with the line CI reads: `N passed, N failed`.
 */
const testDir = new URL('.', import.meta.url).pathname;
let localdb: RunningLocaldb | null = null;
let dataDir: string | null = null;

if (!process.env.MONGODB_URL) {
  buildLocaldb();
  dataDir = mkdtempSync(join(tmpdir(), 'emporium-test-db-'));
  localdb = await startLocaldb({ dataDir, listen: '127.0.0.1:0', stderr: 'ignore' });
  process.env.MONGODB_URL = localdb.url;
  process.env.EMPORIUM_TEST_LOCALDB = '1'; // test/platform/localdb.test.ts checks the embedded database itself
}

// `node dist/test/run.js [grep]` runs the tests whose titles match grep. TEST_FILES=storefront,themes/bundle runs only the
// files whose path under test/ (`apps/oauth.test.js`) contains one of those words; TEST_FILES=apps/ runs one folder.
const grep = process.argv[2];
const only = process.env.TEST_FILES?.split(',').filter(Boolean) ?? [];
const mocha = new Mocha({ timeout: 30_000, reporter: 'spec', ...(grep ? { grep } : {}) });
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

await localdb?.stop();
if (dataDir) rmSync(dataDir, { recursive: true, force: true });
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
