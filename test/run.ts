import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Mocha from 'mocha';
import { buildLocaldb, startLocaldb, type RunningLocaldb } from '../src/localdb/index.js';

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
  process.env.EMPORIUM_TEST_LOCALDB = '1'; // test/localdb.test.ts checks the embedded database itself
}

// `node dist/test/run.js [grep]`; TEST_FILES=storefront,theme- runs only the files whose paths under test/ (themes/rules/app-blocks.test.js) contain one of those words.
const grep = process.argv[2];
const only = process.env.TEST_FILES?.split(',').filter(Boolean) ?? [];
const mocha = new Mocha({ timeout: 30_000, reporter: 'spec', ...(grep ? { grep } : {}) });
for (const file of readdirSync(testDir, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.test.js') && (only.length === 0 || only.some((w) => f.includes(w))))
  .sort())
  mocha.addFile(join(testDir, file));
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
